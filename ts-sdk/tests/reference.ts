// A reference sanitizer: section 2 of docs/sdk-contract.md written out step
// by step, every rule run on every text, no shortcut, no cache. The package's
// sanitizer (with its trigger automaton, its skipped rules, its body-level
// token check and its cached token forms) must give the same result for any
// text and token; tests/equivalence.test.ts holds it to that.
import { LIMITS, rules } from "./support.js";
import * as sanitizerRules from "../src/generated/sanitizer-rules.js";

interface Rule {
  prefix: string;
  pattern: string;
}

const { REMOVE_CLASS, TO_SPACE_CLASS, INJECTION_RULES, SECRET_RULES } = sanitizerRules as unknown as {
  REMOVE_CLASS: string;
  TO_SPACE_CLASS: string;
  INJECTION_RULES: readonly Rule[];
  SECRET_RULES: readonly Rule[];
};
const { REDACTION, FILTERED, TRUNCATION_MARKER } = rules;

/** Step 1: delete the `remove` characters, turn the `to_space` ones into spaces. */
export function step1(text: string): string {
  return text.replace(new RegExp(REMOVE_CLASS, "gu"), "").replace(new RegExp(TO_SPACE_CLASS, "gu"), " ");
}

/** The covers of one rule on `text`, as [start, end) (contract section 2, stage 2). */
function covers(text: string, rule: Rule): [number, number][] {
  const scan = (source: string): [number, number][] => {
    const out: [number, number][] = [];
    for (const m of text.matchAll(new RegExp(source, "gu"))) if (m[0] !== "") out.push([m.index, m.index + m[0].length]);
    return out;
  };
  if (rule.prefix === "") return scan(rule.pattern);
  const prefixes = scan(rule.prefix);
  const out: [number, number][] = [];
  prefixes.forEach(([, end], i) => {
    const cut = i + 1 < prefixes.length ? prefixes[i + 1]![0] : text.length;
    const sticky = new RegExp(rule.pattern, "uy");
    sticky.lastIndex = end;
    const m = sticky.exec(text.slice(0, cut));
    if (m !== null && m[0] !== "") out.push([end, end + m[0].length]);
  });
  return out;
}

/** Label every position with the group of covers it is in (covers that share a position are one group). */
function label(ids: Int32Array, list: [number, number][], only: (i: number) => boolean, next: { id: number }): void {
  // Sorted by start, a cover that starts before the furthest end so far shares a position with its group.
  const sorted = [...list].sort((a, b) => a[0] - b[0]);
  let end = -1;
  for (const [from, to] of sorted) {
    if (from >= end) next.id++;
    end = Math.max(end, to);
    for (let i = from; i < to; i++) if (only(i)) ids[i] = next.id;
  }
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Step 4's forms of `token`, longest first (equal lengths in the contract's order). */
export function referenceForms(token: string | undefined): string[] {
  if (token === undefined || token === "") return [];
  const clean = step1(token);
  if (clean === "") return [];
  const bytes = Buffer.from(clean, "utf8");
  const percent = (upper: boolean): string =>
    [...bytes]
      .map((b) => {
        const ch = String.fromCharCode(b);
        if (b < 0x80 && UNRESERVED.test(ch)) return ch;
        const hex = b.toString(16).padStart(2, "0");
        return "%" + (upper ? hex.toUpperCase() : hex.toLowerCase());
      })
      .join("");
  const b64 = bytes.toString("base64").replace(/=+$/, "");
  const url = bytes.toString("base64url");
  const kept: string[] = [];
  for (const form of [clean, percent(true), percent(false), b64, url]) {
    if (form === "" || kept.includes(form)) continue;
    if (REDACTION.includes(form) || FILTERED.includes(form) || TRUNCATION_MARKER.includes(form)) continue;
    kept.push(form);
  }
  return kept.sort((a, b) => b.length - a.length);
}

/** Step 5: at most text_max_chars code points, ending in the truncation marker when cut. */
function cap(text: string): string {
  const points = [...text];
  if (points.length <= LIMITS.textMaxChars) return text;
  return points.slice(0, LIMITS.textMaxChars - [...TRUNCATION_MARKER].length).join("") + TRUNCATION_MARKER;
}

/** One step of covers: a group id per position (covers that share a position are one group), one marker per group. */
function replaceCovers(t: string, list: [number, number][], marker: string): string {
  const ids = new Int32Array(t.length);
  const next = { id: 0 };
  label(ids, list, () => true, next);
  let out = "";
  for (let i = 0; i < t.length; ) {
    const id = ids[i]!;
    if (id === 0) {
      out += t[i];
      i++;
      continue;
    }
    out += marker;
    while (i < t.length && ids[i] === id) i++;
  }
  return out;
}

/**
 * The covers of `rules` and `forms` on `text` (contract section 2, stage 2):
 * every occurrence of a form; the rules read on each stretch between the
 * occurrences of `marker`, as a text of its own, then on each stretch left
 * between those and the covers found that was not read yet, until none is left.
 */
function hide(text: string, rules: readonly Rule[], forms: readonly string[], marker: string): [number, number][] {
  const barrier = new Uint8Array(text.length);
  for (let at = text.indexOf(marker); marker !== "" && at !== -1; at = text.indexOf(marker, at + marker.length)) {
    barrier.fill(1, at, at + marker.length);
  }
  const found: [number, number][] = [];
  for (const form of forms) {
    for (let at = 0; at + form.length <= text.length; at++) if (text.startsWith(form, at)) found.push([at, at + form.length]);
  }
  const read = new Set<string>();
  // The first round reads the stretches between the markers; the covers cut out the later ones.
  for (;;) {
    const hidden = Uint8Array.from(barrier);
    if (read.size > 0) for (const [from, to] of found) hidden.fill(1, from, to);
    const runs: [number, number][] = [];
    for (let i = 0; i < text.length; i++) {
      if (hidden[i] === 1) continue;
      let j = i;
      while (j < text.length && hidden[j] === 0) j++;
      if (!read.has(`${i},${j}`)) runs.push([i, j]);
      i = j;
    }
    if (runs.length === 0) return found;
    for (const [from, to] of runs) {
      read.add(`${from},${to}`);
      for (const rule of rules) for (const [a, b] of covers(text.slice(from, to), rule)) found.push([from + a, from + b]);
    }
  }
}

/** sanitize_text(text, token), by the contract's stages, every rule run, no shortcut. */
export function referenceSanitize(text: string, token?: string): string {
  const clean = step1(text);
  const t = replaceCovers(clean, hide(clean, INJECTION_RULES, [], FILTERED), FILTERED);
  const forms = referenceForms(token);
  const secret = hide(t, SECRET_RULES, forms, REDACTION);
  let out = replaceCovers(t, secret, REDACTION);
  if (secret.length > 0) for (const form of forms) out = out.split(form).join(REDACTION);
  return cap(out);
}

/** A small deterministic random source (the tests must not flake). */
export function randomSource(seed: number): (n: number) => number {
  let state = seed >>> 0 || 1;
  return (n: number): number => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
}
