/**
 * Sanitizing of server-controlled text (docs/sdk-contract.md, section 2).
 *
 * The character classes and patterns come from the catalogue through
 * generated/sanitizer-rules.ts; this module only applies them, in the
 * contract's stages: clean the characters; find every injection marker's
 * cover on that text and write each as the filtered marker; find every
 * secret rule's and token form's cover on the result, all on the same
 * text, and write each as the redaction; cap the length. No secret rule
 * sees another's output, so none can hide another, and every step is
 * linear in the text (a rule with a prefix matches its pattern once per
 * prefix match, on the text cut at the next prefix match).
 *
 * Speed: most text is clean ASCII. One pass of an automaton over the text
 * (built once from the rules' trigger literals, case-insensitive) tells
 * whether it may need step 1, and which rules' triggers it contains; only
 * those rules run. The contract allows exactly this ("an SDK may skip a
 * rule for text whose lower-cased form contains none of its triggers"),
 * and the result is the same as running every rule.
 *
 * The forms of the caller's token are derived once per token: a
 * single-entry cache (see {@link tokenForms}) keeps the last token and its
 * forms in this module, reachable from no error and replaced by the next
 * token. No server text is cached.
 *
 * @module
 */

import { LIMITS } from "./generated/catalogue.js";
import {
  FILTERED,
  INJECTION_RULES,
  REDACTION,
  REMOVE_CLASS,
  SECRET_RULES,
  TO_SPACE_CLASS,
  TRUNCATION_MARKER,
} from "./generated/sanitizer-rules.js";
import type { TextRule } from "./types.js";
import { type CompiledRule, formCovers, mergeCovers, redactForms, rewrite, ruleCovers } from "./covers.js";

/** Options of {@link sanitizeText}. */
export interface SanitizeOptions {
  /** The caller's credential; every form of it is replaced by the redaction marker. */
  readonly token?: string | undefined;
}



/** What the scanner says of a text (or a bit mask of rules whose triggers it holds, ≥ 0). */
const NEEDS_STEP_1 = -1;
const NOT_ASCII = -2;

/** The transition table: a row of 128 entries per state, each the next state's row offset. */
type Table = Uint16Array | Int32Array;

interface Engine {
  readonly rules: readonly CompiledRule[];
  /**
   * Rules that run on any ASCII text: those with a non-ASCII trigger or none.
   * Rules past the 31st (more than a mask holds) always run too.
   */
  readonly always: number;
  /**
   * Automaton transitions, indexed by a state's row offset (state * 128)
   * plus a character code (A-Z read as a-z); each entry is a row offset too,
   * so the scan loop adds and loads, nothing else.
   */
  readonly next: Table;
  /** The rules whose trigger ends in each state (indexed by state, not row offset). */
  readonly found: Int32Array;
  /** The row offset of the start state. */
  readonly start: number;
  /** Row offsets from this one on complete a trigger (or are `dead`). */
  readonly accepting: number;
  /** The row offset of the state a character that step 1 changes leads to; it leads nowhere else. */
  readonly dead: number;
  /** The ASCII characters step 1 removes or replaces. */
  readonly step1: Uint8Array;
  readonly remove: RegExp;
  readonly toSpace: RegExp;
}

let engine: Engine | undefined;

/** Compile the rules and build the trigger automaton (Aho-Corasick), once, on first use. */
function build(): Engine {
  // Injection markers first, then secrets (contract section 2, steps 2 and 3).
  const sources: [TextRule, boolean][] = [
    ...INJECTION_RULES.map((r): [TextRule, boolean] => [r, false]),
    ...SECRET_RULES.map((r): [TextRule, boolean] => [r, true]),
  ];
  const rules = sources.map(
    ([r, secret]): CompiledRule => ({
      prefix: r.prefix === "" ? undefined : new RegExp(r.prefix, "gu"),
      pattern: new RegExp(r.pattern, r.prefix === "" ? "gu" : "uy"),
      secret,
    }),
  );
  const remove = new RegExp(REMOVE_CLASS, "gu");
  const toSpace = new RegExp(TO_SPACE_CLASS, "gu");
  const step1 = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    remove.lastIndex = toSpace.lastIndex = 0;
    step1[c] = remove.test(ch) || toSpace.test(ch) ? 1 : 0;
  }
  remove.lastIndex = toSpace.lastIndex = 0;

  // The trie of every trigger, then its failure links resolved into a full table.
  const children: Map<number, number>[] = [new Map()];
  const ends: number[] = [0];
  let always = 0;
  sources.forEach(([r], i) => {
    const bit = i < 31 ? 1 << i : 0;
    if (bit === 0 || r.triggers.length === 0 || r.triggers.some((t) => /[^\x20-\x7e]/.test(t))) {
      always |= bit;
      return;
    }
    for (const trigger of r.triggers) {
      let state = 0;
      for (const ch of trigger.toLowerCase()) {
        const c = ch.charCodeAt(0);
        let to = children[state]!.get(c);
        if (to === undefined) {
          to = children.length;
          children.push(new Map());
          ends.push(0);
          children[state]!.set(c, to);
        }
        state = to;
      }
      ends[state]! |= bit;
    }
  });
  const states = children.length;
  const full = new Int32Array(states * 128);
  const found = new Int32Array(states);
  const fail = new Int32Array(states);
  const queue: number[] = [];
  for (let c = 0; c < 128; c++) {
    const to = children[0]!.get(c);
    if (to !== undefined) {
      full[c] = to;
      queue.push(to);
    }
  }
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q]!;
    found[s] = ends[s]! | found[fail[s]!]!;
    for (let c = 0; c < 128; c++) {
      const to = children[s]!.get(c);
      if (to === undefined) {
        full[s * 128 + c] = full[fail[s]! * 128 + c]!;
      } else {
        fail[to] = full[fail[s]! * 128 + c]!;
        full[s * 128 + c] = to;
        queue.push(to);
      }
    }
  }
  // Renumber: states that complete a trigger last (from `accepting` on), then
  // one dead state for the characters step 1 changes, so the scan loop
  // tests one number per character instead of loading two tables.
  const order = [...Array(states).keys()].sort((a, b) => Number(found[a] !== 0) - Number(found[b] !== 0) || a - b);
  const rank = new Int32Array(states);
  order.forEach((old, i) => (rank[old] = i));
  const accepting = order.findIndex((old) => found[old] !== 0);
  const dead = states;
  const next: Table = (dead + 1) * 128 <= 0x10000 ? new Uint16Array((states + 1) * 128) : new Int32Array((states + 1) * 128);
  const foundBy = new Int32Array(states + 1);
  for (let old = 0; old < states; old++) {
    const r = rank[old]!;
    foundBy[r] = found[old]!;
    for (let c = 0; c < 128; c++) {
      const lower = c >= 0x41 && c <= 0x5a ? c + 32 : c;
      next[r * 128 + c] = (step1[c] !== 0 ? dead : rank[full[old * 128 + lower]!]!) * 128;
    }
  }
  next.fill(dead * 128, dead * 128);
  return {
    rules,
    always,
    next,
    found: foundBy,
    start: rank[0]! * 128,
    accepting: (accepting === -1 ? dead : accepting) * 128,
    dead: dead * 128,
    step1,
    remove,
    toSpace,
  };
}

/**
 * One pass over `text`, stopped at the first character that needs the full
 * steps: NEEDS_STEP_1 at an ASCII character that step 1 changes, NOT_ASCII
 * at any character above U+007F (either way every step runs, so which one
 * comes first does not matter); else the mask of rules whose triggers occur
 * (case-insensitively).
 */
function scan(e: Engine, text: string): number {
  const { next, found, accepting, dead } = e;
  let state = e.start;
  let mask = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return NOT_ASCII;
    state = next[state + c]!;
    if (state >= accepting) {
      if (state === dead) return NEEDS_STEP_1;
      mask |= found[state >> 7]!;
    }
  }
  return mask | e.always;
}

const LOWER_K = 0x6b;
const LOWER_I = 0x69;

/**
 * The mask of rules whose triggers occur in the lower-cased form of `text`,
 * which step 1 has cleaned (it holds no character step 1 changes). A
 * non-ASCII character is in no trigger and breaks any partial match, except
 * the two whose lower case holds an ASCII letter: U+212A (KELVIN SIGN, "k")
 * and U+0130 ("i" and a combining dot).
 */
function triggersOf(e: Engine, text: string): number {
  const { next, found, accepting, dead, start } = e;
  let state = start;
  let mask = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c > 0x7f) {
      if (c === 0x212a) c = LOWER_K;
      else if (c === 0x130) {
        state = next[state + LOWER_I]!;
        if (state >= accepting && state !== dead) mask |= found[state >> 7]!;
        state = start;
        continue;
      } else {
        state = start;
        continue;
      }
    }
    state = next[state + c]!;
    if (state >= accepting) {
      if (state === dead) state = start;
      else mask |= found[state >> 7]!;
    }
  }
  return mask | e.always;
}

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

const MAX = LIMITS.textMaxChars;
const KEEP = Math.max(0, MAX - codePointLength(TRUNCATION_MARKER));

/** Stage 3, step 3: cap at the text limit in code points, ending in the truncation marker. */
export function capLength(text: string): string {
  if (text.length <= MAX) return text;
  let points = 0;
  let cut = 0;
  for (let i = 0; i < text.length; i++) {
    if (points === KEEP) cut = i;
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    if (++points > MAX) return text.slice(0, cut) + TRUNCATION_MARKER;
  }
  return text;
}

/** Step 1: delete the `remove` characters, turn the `to_space` characters into spaces. */
function cleanCharacters(e: Engine, text: string): string {
  return text.replace(e.remove, "").replace(e.toSpace, " ");
}

// --- the caller's token ---------------------------------------------------------

/** The bytes percent-encoding leaves as they are: A-Z a-z 0-9 - . _ ~ */
const UNRESERVED = new Uint8Array(128);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~") UNRESERVED[ch.charCodeAt(0)] = 1;
const HEX_UPPER = "0123456789ABCDEF";
const HEX_LOWER = "0123456789abcdef";

function percentEncode(bytes: Uint8Array, hex: string): string {
  let out = "";
  for (const b of bytes) {
    out += b < 0x80 && UNRESERVED[b] === 1 ? String.fromCharCode(b) : "%" + hex[b >> 4]! + hex[b & 15]!;
  }
  return out;
}

function unpadded(b64: string): string {
  let end = b64.length;
  while (end > 0 && b64.charCodeAt(end - 1) === 0x3d) end--;
  return b64.slice(0, end);
}

const LONGEST_MARKER = Math.max(REDACTION.length, FILTERED.length, TRUNCATION_MARKER.length);

function isMarkerPart(form: string): boolean {
  if (form.length > LONGEST_MARKER) return false;
  return REDACTION.includes(form) || FILTERED.includes(form) || TRUNCATION_MARKER.includes(form);
}

/** No forms: no token, or one that is empty once cleaned. */
export const NO_FORMS: readonly string[] = Object.freeze([]);

/**
 * The characters that make a form able to appear where it was not: the
 * first and the last character of each marker a replacement writes before
 * the token step (`redaction`, `filtered`). An occurrence of a form that a
 * replacement made overlaps the marker it wrote: it holds the whole marker,
 * or begins inside it (and so holds its last character), or ends inside it
 * (and so holds its first). A form with none of these characters occurs in
 * the rewritten text (and after redacting other forms) only where it
 * occurred in the cleaned text. An empty marker joins text: then every form may.
 */
const EDGES = new Set<string>();
const WRITTEN: readonly string[] = [REDACTION, FILTERED];
const MARKERS_JOIN = WRITTEN.includes("");
for (const marker of WRITTEN) {
  if (marker !== "") EDGES.add(marker[0]!).add(marker[marker.length - 1]!);
}

function canBeMade(form: string): boolean {
  if (MARKERS_JOIN) return true;
  for (const ch of EDGES) if (form.includes(ch)) return true;
  return false;
}

/** The single-entry cache of {@link tokenForms}: the last token, its forms, whether they are stable. */
let lastToken: string | undefined;
let lastForms: readonly string[] = NO_FORMS;
let lastStable = true;

/**
 * The forms of a caller's token that are redacted, longest first: the token
 * (cleaned by step 1), its UTF-8 bytes percent-encoded (upper- then
 * lower-case hex digits), and in base64 and base64url without padding.
 * Empty forms and forms found inside a marker are left out. Equal forms are
 * listed once. The array is frozen.
 *
 * The last token given and its forms stay in this module (one entry,
 * replaced by the next token; no error references it), so that the errors
 * of one caller, who passes the same token every time, derive them once.
 */
export function tokenForms(token: string | undefined): readonly string[] {
  if (typeof token !== "string" || token === "") return NO_FORMS;
  if (token === lastToken) return lastForms;
  const forms = deriveForms(token);
  lastToken = token;
  lastForms = forms;
  lastStable = !forms.some(canBeMade);
  return forms;
}

/**
 * Whether no form can appear in a rewritten text where it did not occur in
 * the cleaned text (see EDGES): then a text that holds none of `forms`, and
 * that stage 1 leaves as it is, needs no token step at all.
 */
export function formsAreStable(forms: readonly string[]): boolean {
  if (forms.length === 0) return true;
  if (forms === lastForms) return lastStable;
  return !forms.some(canBeMade);
}

function deriveForms(token: string): readonly string[] {
  const e = (engine ??= build());
  // One look at the token: printable ASCII untouched by step 1, and which of it is unreserved.
  let plain = true;
  let unreserved = true;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c > 0x7e || e.step1[c] !== 0) {
      plain = false;
      break;
    }
    if (unreserved && !UNRESERVED[c]) unreserved = false;
  }
  const clean = plain ? token : cleanCharacters(e, token);
  if (clean === "") return NO_FORMS;
  let bytes: Uint8Array | undefined;
  let binary = clean; // printable ASCII: its UTF-8 bytes are its characters
  if (!plain) {
    bytes = new TextEncoder().encode(clean);
    binary = "";
    for (const b of bytes) binary += String.fromCharCode(b);
    unreserved = bytes.every((b) => b < 0x80 && UNRESERVED[b] === 1);
  }
  const b64 = unpadded(btoa(binary));
  const url = b64.indexOf("+") !== -1 || b64.indexOf("/") !== -1 ? b64.replace(/\+/g, "-").replace(/\//g, "_") : b64;
  if (unreserved && !isMarkerPart(clean) && !isMarkerPart(b64) && !isMarkerPart(url)) {
    // The common token: the percent-encodings are the token itself, and
    // base64 is longer than the text it encodes, so the order is known.
    return Object.freeze(url === b64 ? [b64, clean] : [b64, url, clean]);
  }
  const forms: string[] = [clean];
  if (!unreserved) {
    bytes ??= Uint8Array.from(clean, (ch) => ch.charCodeAt(0));
    forms.push(percentEncode(bytes, HEX_UPPER), percentEncode(bytes, HEX_LOWER));
  }
  forms.push(b64, url);
  const kept: string[] = [];
  for (const form of forms) {
    if (form !== "" && !kept.includes(form) && !isMarkerPart(form)) kept.push(form);
  }
  // Array.prototype.sort is stable: forms of equal length keep the order above.
  return Object.freeze(kept.length > 1 ? kept.sort((a, b) => b.length - a.length) : kept);
}

/** The covers of the rules in `mask` that are secrets (or, `secret` false, markers). */
function rulesCovers(e: Engine, text: string, mask: number, secret: boolean): number[] {
  const out: number[] = [];
  const rules = e.rules;
  for (let i = 0; i < rules.length; i++) {
    if (i < 31 && (mask & (1 << i)) === 0) continue;
    const rule = rules[i]!;
    if (rule.secret === secret) ruleCovers(rule, text, out);
  }
  return out;
}

/**
 * Stages 2 and 3 (without the cap) on the cleaned text, for the rules in
 * `mask` and the token's `forms`: the markers on the cleaned text, then the
 * secrets and the token on the text the markers step wrote.
 */
function hide(e: Engine, text: string, mask: number, forms: readonly string[]): string {
  const markers = rulesCovers(e, text, mask, false);
  if (markers.length > 0) {
    text = rewrite(text, mergeCovers(markers), FILTERED);
    mask = triggersOf(e, text);
  }
  const secrets = rulesCovers(e, text, mask, true);
  formCovers(text, forms, secrets);
  if (secrets.length === 0) return text;
  const out = rewrite(text, mergeCovers(secrets), REDACTION);
  // Stage 3, step 2: a form made across a marker's edge (a token holding a marker's characters).
  for (let i = 0; i < forms.length; i++) {
    const form = forms[i]!;
    if (out.includes(form)) return redactForms(out, forms);
  }
  return out;
}

// --- the whole ------------------------------------------------------------------

/**
 * Sanitize `text` with the token forms already computed (see {@link tokenForms}).
 * This is the whole of section 2 of the contract; {@link sanitizeText} is its public face.
 *
 * `plainForms` are the forms to look for when stage 1 leaves the text as it
 * is (it is printable ASCII): a caller passes none only when it knows that
 * such a text holds no form and that `forms` are stable (see
 * {@link formsAreStable}), so that the rewrite cannot make one (a body
 * without escapes that holds no form: each of its strings is a piece of it). When stage 1 changes the text, it
 * may join a form split by a removed character, and all `forms` are looked
 * for.
 */
export function sanitizeWithForms(text: string, forms: readonly string[], plainForms: readonly string[] = forms): string {
  const e = (engine ??= build());
  let mask = scan(e, text);
  if (mask >= 0) {
    forms = plainForms;
    // The common case: no rule can match and no form is looked for: only the cap remains.
    if (mask === 0 && forms.length === 0) return capLength(text);
  } else {
    text = cleanCharacters(e, text);
    mask = triggersOf(e, text);
  }
  return capLength(hide(e, text, mask, forms));
}

/**
 * {@link sanitizeWithForms} for a field, with its common case first and
 * small enough to be inlined: text that step 1 leaves as it is, that holds
 * no trigger, that needs no token step (`plainForms` is empty: see
 * sanitizeWithForms) and that is within the cap is returned as it is.
 */
export function sanitizeField(text: string, forms: readonly string[], plainForms: readonly string[]): string {
  if (plainForms.length === 0 && text.length <= MAX && scan((engine ??= build()), text) === 0) return text;
  return sanitizeWithForms(text, forms, plainForms);
}

/**
 * Clean one piece of server-controlled text, as both SDKs do.
 *
 * Removes control, bidirectional and invisible characters and turns line
 * breaks into spaces, then finds every prompt-injection marker, every
 * secret-like string and every form of `token` in that same text and
 * replaces what they cover with their markers, and caps the length
 * (counted in code points) with a truncation marker.
 * Idempotent for a token that holds no character of the markers. Never
 * throws for a string; anything else gives the empty string.
 *
 * @param text - The text to clean.
 * @param options - `token`: the caller's credential, redacted in every form.
 * @returns The cleaned text.
 */
export function sanitizeText(text: string, options?: SanitizeOptions): string {
  if (typeof text !== "string") return "";
  return sanitizeWithForms(text, tokenForms(options?.token));
}
