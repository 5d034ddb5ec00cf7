/**
 * Lengths in code points and the cap (docs/sdk-contract.md section 2,
 * stage 3, step 4): text longer than the cap keeps its start and ends in
 * the truncation marker; a surrogate pair is never cut. And how a number is
 * written into a text (section 2c).
 *
 * @module
 */

import { TEXT_MAX_CHARS } from "./generated/catalogue.js";
import { TRUNCATION_MARKER } from "./generated/sanitizer-rules.js";

/** The number of Unicode code points in `text` (a surrogate pair counts once). */
export function codePointLength(text: string): number {
  let n = text.length;
  for (let i = 0; i + 1 < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

export const MAX = TEXT_MAX_CHARS;
/** Stage 3, step 4: cap at the text limit in code points, ending in the truncation marker. */
export function capLength(text: string): string {
  if (text.length <= MAX) return text;
  // What is kept of a longer text (computed here, so that nothing runs at import).
  const keep = Math.max(0, MAX - codePointLength(TRUNCATION_MARKER));
  let points = 0;
  let cut = 0;
  for (let i = 0; i < text.length; i++) {
    if (points === keep) cut = i;
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    if (++points > MAX) return text.slice(0, cut) + TRUNCATION_MARKER;
  }
  return text;
}

/**
 * `value` as docs/sdk-contract.md section 2c writes a number in a text: plain
 * decimal with the shortest digits that read back as the same double; no
 * exponent, no `+`, no `-0` (`0.00001`, not `1e-5`).
 */
export function plainNumber(value: number): string {
  if (value === 0) return "0";
  const text = String(value);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (m === null) return text;
  const [, sign = "", lead = "", fraction = "", exponent = "0"] = m;
  const exp = Number(exponent);
  const digits = lead + fraction;
  // String() uses an exponent only below 1e-6 and from 1e21 on: then the digits are all before or all after the point.
  return exp < 0 ? `${sign}0.${"0".repeat(-exp - 1)}${digits}` : sign + digits + "0".repeat(exp - fraction.length);
}
