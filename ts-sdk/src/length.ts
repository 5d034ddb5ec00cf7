/**
 * Lengths in code points and the cap (docs/sdk-contract.md section 2,
 * stage 3, step 4): text longer than the cap keeps its start and ends in
 * the truncation marker; a surrogate pair is never cut.
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
