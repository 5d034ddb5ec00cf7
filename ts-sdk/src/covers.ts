/**
 * Covers (docs/sdk-contract.md section 2, stage 2): the spans of a text that
 * a rule or a token form matched, found on one text, merged where they share
 * a position, and replaced by a marker. Linear: a rule with a prefix
 * matches its pattern once per prefix match, on the text cut at the next.
 *
 * @module
 */

import { REDACTION } from "./generated/sanitizer-rules.js";

/** One sanitizer rule, compiled. */
export interface CompiledRule {
  /** The prefix, global ("gu"); undefined for a rule without one. */
  readonly prefix: RegExp | undefined;
  /** The pattern: global ("gu") without a prefix, sticky ("uy") after one. */
  readonly pattern: RegExp;
  /** A secret rule (covers as a secret), else an injection marker. */
  readonly secret: boolean;
}

/** Push `[start, end)` of every match of a global regex over `text` (an empty match covers nothing). */
function globalCovers(re: RegExp, text: string, out: number[]): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (end > start) out.push(start, end);
    else re.lastIndex = start + (isPairAt(text, start) ? 2 : 1);
  }
}

function isPairAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
}

/**
 * The covers of one rule on `text` (contract section 2, stage 2). With a
 * prefix: the prefix matches by the global scan, then the pattern anchored
 * at the end of each, on the text cut where the next prefix match starts.
 */
export function ruleCovers(rule: CompiledRule, text: string, out: number[]): void {
  if (rule.prefix === undefined) {
    globalCovers(rule.pattern, text, out);
    return;
  }
  const marks: number[] = [];
  globalCovers(rule.prefix, text, marks);
  const pattern = rule.pattern;
  for (let i = 0; i < marks.length; i += 2) {
    const from = marks[i + 1]!;
    const bound = i + 2 < marks.length ? marks[i + 2]! : text.length;
    pattern.lastIndex = from;
    const m = pattern.exec(bound === text.length ? text : text.slice(0, bound));
    if (m !== null && m[0].length > 0) out.push(from, from + m[0].length);
  }
}

/** Every occurrence of every form in `text`, overlapping ones too. */
export function formCovers(text: string, forms: readonly string[], out: number[]): void {
  for (let f = 0; f < forms.length; f++) {
    const form = forms[f]!;
    for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) out.push(at, at + form.length);
  }
}

/** `[start, end)` pairs sorted and merged where they overlap (share a position; covers that only touch stay apart). */
export function mergeCovers(pairs: number[]): number[] {
  if (pairs.length <= 2) return pairs;
  const order = Array.from({ length: pairs.length / 2 }, (_, i) => i);
  order.sort((a, b) => pairs[2 * a]! - pairs[2 * b]! || pairs[2 * a + 1]! - pairs[2 * b + 1]!);
  const out: number[] = [];
  for (const i of order) {
    const start = pairs[2 * i]!;
    const end = pairs[2 * i + 1]!;
    if (out.length > 0 && start < out[out.length - 1]!) {
      if (end > out[out.length - 1]!) out[out.length - 1] = end;
    } else {
      out.push(start, end);
    }
  }
  return out;
}

/** `text` with each cover of `covers` (merged) as `marker`. */
export function rewrite(text: string, covers: readonly number[], marker: string): string {
  let out = "";
  let pos = 0;
  for (let i = 0; i < covers.length; i += 2) {
    out += text.slice(pos, covers[i]) + marker;
    pos = covers[i + 1]!;
  }
  return out + text.slice(pos);
}

/** Each form, longest first, replaced everywhere by the redaction marker. */
export function redactForms(text: string, forms: readonly string[]): string {
  for (let i = 0; i < forms.length; i++) {
    const form = forms[i]!;
    if (text.includes(form)) text = text.split(form).join(REDACTION);
  }
  return text;
}

