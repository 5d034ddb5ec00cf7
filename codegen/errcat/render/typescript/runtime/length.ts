/**
 * Lengths in code points and where the cap first cuts (docs/sdk-contract.md
 * section 2, stage 3, step 4; a surrogate pair is never cut). And how a number is
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
/**
 * Where stage 3, step 4 first cuts `text`: the code units of its first
 * `MAX - len(truncation marker)` code points when it is longer than the cap
 * in code points, else -1 (kept whole). sanitize.ts's `capLength` cuts there
 * or further back.
 */
export function capCut(text: string): number {
  if (text.length <= MAX) return -1;
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
    if (++points > MAX) return cut;
  }
  return -1;
}

/** Whether code unit `c` is the first half of a surrogate pair. */
export function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
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
