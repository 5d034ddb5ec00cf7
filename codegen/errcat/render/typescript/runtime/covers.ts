/**
 * Covers (docs/sdk-contract.md section 2, stage 2): the spans of a text that
 * a rule or a token form matched. The rules read each stretch of the text
 * between the occurrences of the step's marker, as a text of its own; then each
 * stretch left between those markers and the covers found, until a round
 * finds nothing new. Only then are the covers merged where they share a
 * position and replaced by a marker, so no rule sees another's output and
 * no stretch the result keeps between two markers holds a cover.
 *
 * Linear: a rule with a prefix matches its pattern once per prefix match,
 * on the stretch cut at the next; the stretches of one round are disjoint,
 * and a round reads only stretches a cover of the round before cut out.
 *
 * @module
 */

import { INJECTION_RULES, REDACTION, REMOVE_CLASS, SECRET_RULES, TO_SPACE_CLASS } from "./generated/sanitizer-rules.js";

/** One sanitizer rule, compiled. */
export interface CompiledRule {
  /** The prefix, global ("gu"); undefined for a rule without one. */
  readonly prefix: RegExp | undefined;
  /** The pattern: global ("gu") without a prefix, sticky ("uy") after one. */
  readonly pattern: RegExp;
  /** A secret rule (covers as a secret), else an injection marker. */
  readonly secret: boolean;
}

/** The compiled rules and the classes of step 1. */
export interface Compiled {
  /** Injection rules first, then secret rules; rule i is bit i of a mask of `triggeredRules`. */
  readonly rules: readonly CompiledRule[];
  readonly remove: RegExp;
  readonly toSpace: RegExp;
}

let compiled: Compiled | undefined;

/** The rules and the classes of step 1, compiled on first use (nothing is built at import). */
export function compiledRules(): Compiled {
  return (compiled ??= {
    // Injection markers first, then secrets (contract section 2, stage 3).
    rules: [...INJECTION_RULES, ...SECRET_RULES].map(
      (r, i): CompiledRule => ({
        prefix: r.prefix === "" ? undefined : new RegExp(r.prefix, "gu"),
        pattern: new RegExp(r.pattern, r.prefix === "" ? "gu" : "uy"),
        secret: i >= INJECTION_RULES.length,
      }),
    ),
    remove: new RegExp(REMOVE_CLASS, "gu"),
    toSpace: new RegExp(TO_SPACE_CLASS, "gu"),
  });
}

/** Step 1: delete the `remove` characters, turn the `to_space` characters into spaces. */
export function cleanCharacters(text: string): string {
  const e = compiledRules();
  return text.replace(e.remove, "").replace(e.toSpace, " ");
}

/** Push `[start, end)` (shifted by `offset`) of every match of a global regex over `text` (an empty match covers nothing). */
function globalCovers(re: RegExp, text: string, out: number[], offset = 0): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (end > start) out.push(start + offset, end + offset);
    else re.lastIndex = start + (isPairAt(text, start) ? 2 : 1);
  }
}

function isPairAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
}

/**
 * The covers of one rule on `text`, shifted by `offset` (contract section 2,
 * stage 2). With a prefix: the prefix matches by the global scan, then the
 * pattern anchored at the end of each, on the text cut where the next
 * prefix match starts.
 */
export function ruleCovers(rule: CompiledRule, text: string, out: number[], offset: number): void {
  if (rule.prefix === undefined) {
    globalCovers(rule.pattern, text, out, offset);
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
    if (m !== null && m[0].length > 0) out.push(from + offset, from + offset + m[0].length);
  }
}

/** Reads one stretch: pushes the covers of the rules on `piece`, shifted by `offset`. */
export type Reader = (piece: string, offset: number, out: number[]) => void;

/** `[start, end)` of every occurrence of `marker` in `text`, in order. */
function barriersOf(text: string, marker: string): number[] {
  const out: number[] = [];
  if (marker === "") return out;
  for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + marker.length)) {
    out.push(at, at + marker.length);
  }
  return out;
}

/** The maximal non-empty stretches of `[0, size)` outside every pair of `taken` (sorted by start). */
function freeStretches(size: number, taken: readonly number[]): number[] {
  const out: number[] = [];
  let pos = 0;
  for (let i = 0; i < taken.length; i += 2) {
    if (taken[i]! > pos) out.push(pos, taken[i]!);
    if (taken[i + 1]! > pos) pos = taken[i + 1]!;
  }
  if (size > pos) out.push(pos, size);
  return out;
}

/**
 * The merged covers of one step on `text`: the rules that `read` applies,
 * and every occurrence of the token `forms`. `read` runs on each stretch
 * between the occurrences of the step's `marker` that the text holds, then on each stretch that the covers
 * found and the markers leave free and that it has not read yet, until a
 * round finds nothing new.
 */
export function findCovers(text: string, read: Reader, forms: readonly string[], marker: string): number[] {
  const barriers = barriersOf(text, marker);
  const covers: number[] = [];
  formCovers(text, forms, covers);
  const done = new Set<number>();
  const size = text.length;
  let pending = freeStretches(size, barriers);
  let merged = covers;
  while (pending.length > 0) {
    for (let i = 0; i < pending.length; i += 2) {
      const start = pending[i]!;
      const end = pending[i + 1]!;
      done.add(start * (size + 1) + end);
      read(start === 0 && end === size ? text : text.slice(start, end), start, covers);
    }
    merged = mergeCovers(covers.slice());
    const free = freeStretches(size, barriers.length === 0 ? merged : mergeCovers(merged.concat(barriers)));
    pending = [];
    for (let i = 0; i < free.length; i += 2) {
      if (!done.has(free[i]! * (size + 1) + free[i + 1]!)) pending.push(free[i]!, free[i + 1]!);
    }
  }
  return merged === covers ? mergeCovers(covers.slice()) : merged;
}

/** Every occurrence of every form in `text`, overlapping ones too. */
export function formCovers(text: string, forms: readonly string[], out: number[]): void {
  for (let f = 0; f < forms.length; f++) {
    const form = forms[f]!;
    for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) out.push(at, at + form.length);
  }
}

/**
 * Non-empty `[start, end)` pairs sorted and merged where they overlap (share
 * a position; covers that only touch stay apart). Linear in the text: a sort
 * of k pairs when k·log2(k) is at most the last start, else one pass over
 * the positions (a text can hold thousands of covers).
 */
export function mergeCovers(pairs: number[]): number[] {
  if (pairs.length <= 2) return pairs;
  let last = 0;
  for (let i = 0; i < pairs.length; i += 2) if (pairs[i]! > last) last = pairs[i]!;
  const k = pairs.length / 2;
  return k * (32 - Math.clz32(k)) <= last ? mergeBySort(pairs) : mergeByPosition(pairs, last);
}

/** {@link mergeCovers} by the furthest end of the pairs that start at each position, in order of position. */
function mergeByPosition(pairs: readonly number[], last: number): number[] {
  // 0: no pair starts here (a pair ends after its start). A typed array: a plain one of
  // 64 K numbers costs the garbage collector half as much again as the whole merge.
  const furthest = new Uint32Array(last + 1);
  for (let i = 0; i < pairs.length; i += 2) {
    const start = pairs[i]!;
    if (pairs[i + 1]! > furthest[start]!) furthest[start] = pairs[i + 1]!;
  }
  const out: number[] = [];
  for (let start = 0; start <= last; start++) {
    if (furthest[start] !== 0) append(out, start, furthest[start]!);
  }
  return out;
}

/** {@link mergeCovers} by sorting the pairs by start, then end. */
function mergeBySort(pairs: readonly number[]): number[] {
  const order = Array.from({ length: pairs.length / 2 }, (_, i) => i);
  order.sort((a, b) => pairs[2 * a]! - pairs[2 * b]! || pairs[2 * a + 1]! - pairs[2 * b + 1]!);
  const out: number[] = [];
  for (const i of order) append(out, pairs[2 * i]!, pairs[2 * i + 1]!);
  return out;
}

/** Add `[start, end)` to the merged covers `out`, which end with the cover that starts last before `start`. */
function append(out: number[], start: number, end: number): void {
  const n = out.length;
  if (n > 0 && start < out[n - 1]!) {
    if (end > out[n - 1]!) out[n - 1] = end;
  } else {
    out.push(start, end);
  }
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

