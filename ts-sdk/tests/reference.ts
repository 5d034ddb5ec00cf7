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

function applyAll(text: string, list: readonly Rule[], replacement: string): string {
  for (const rule of list) {
    text = text.replace(new RegExp(`(${rule.prefix})${rule.pattern}`, "gu"), (_m: string, prefix: string | undefined) => (prefix ?? "") + replacement);
  }
  return text;
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

/** sanitize_text(text, token), by the contract's steps in the contract's order. */
export function referenceSanitize(text: string, token?: string): string {
  let out = step1(text);
  out = applyAll(out, INJECTION_RULES, FILTERED);
  out = applyAll(out, SECRET_RULES, REDACTION);
  for (const form of referenceForms(token)) out = out.split(form).join(REDACTION);
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
