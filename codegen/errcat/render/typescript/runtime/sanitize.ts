/**
 * Sanitizing of server-controlled text (docs/sdk-contract.md, section 2).
 *
 * The character classes and patterns come from the catalogue through
 * generated/sanitizer-rules.ts; this module only applies them, in the
 * contract's stages: clean the characters (covers.ts); find every
 * injection marker's cover on that text and write each as the filtered
 * marker; find every secret rule's and token form's (tokens.ts) cover on
 * the result, all on the same text, and write each as the redaction
 * (covers.ts); cap the length (length.ts). No secret rule sees another's
 * output, so none can hide another; a stretch the result keeps between two
 * markers holds no cover, so sanitizing again changes nothing; and every
 * step is linear in the text.
 *
 * A rule runs only on text for which the generated pre-filter
 * (`plainRules`, `triggeredRules`: errcat's plan, see codegen/README.md, "The
 * trigger pre-filter") sets its bit: the lower-cased text holds one
 * character of each of the rule's guards and one of its triggers, which the
 * contract allows ("an SDK may skip a rule for text whose lower-cased form
 * contains none of its triggers"); the result is the same as running every
 * rule.
 *
 * No server text is cached.
 *
 * @module
 */

import { FILTERED, REDACTION, TRUNCATION_MARKER, plainRules, triggeredRules } from "./generated/sanitizer-rules.js";
import { type Compiled, type Reader, cleanCharacters, compiledRules, findCovers, redactForms, rewrite, ruleCovers } from "./covers.js";
import { capCut, isHighSurrogate, MAX } from "./length.js";
import { tokenForms } from "./tokens.js";
import { NO_FORMS } from "./tokens.js";

export { codePointLength } from "./length.js";
export { formsAreStable, NO_FORMS, tokenForms } from "./tokens.js";

/** Options of {@link sanitizeText}. */
export interface SanitizeOptions {
  /** The caller's credential; every form of it is replaced by the redaction marker. */
  readonly token?: string | undefined;
}

/**
 * The mask of the rules to run on a text: the pre-filter's ({@link TRIGGERED}),
 * or every rule ({@link EVERY_RULE}).
 */
type Filter = (text: string) => number;

/** Every rule runs (a mask of all bits): the path without the pre-filter. */
const EVERY_RULE: Filter = () => -1;

/** The rules the generated pre-filter lets run on a text (step 1 has cleaned it). */
const TRIGGERED: Filter = triggeredRules;

/** Whether `mask` holds a rule of the kind (secret, or injection marker). */
function anyOf(e: Compiled, mask: number, secret: boolean): boolean {
  const rules = e.rules;
  for (let i = 0; i < rules.length; i++) {
    if ((i >= 31 || (mask & (1 << i)) !== 0) && rules[i]!.secret === secret) return true;
  }
  return false;
}

/**
 * The reader of one step: on a stretch, the covers of the rules of the kind
 * whose triggers it holds (`mask` is what `text`, the whole, holds).
 */
function reader(e: Compiled, text: string, mask: number, secret: boolean, filter: Filter): Reader {
  return (piece, offset, out) => {
    const holds = piece.length === text.length ? mask : filter(piece);
    const rules = e.rules;
    for (let i = 0; i < rules.length; i++) {
      if (i < 31 && (holds & (1 << i)) === 0) continue;
      const rule = rules[i]!;
      if (rule.secret === secret) ruleCovers(rule, piece, out, offset);
    }
  };
}

/** No rule to read: only the token forms are covers. */
const READ_NOTHING: Reader = () => {};

/**
 * Stages 2 and 3 (without the cap) on the cleaned text, for the rules in
 * `mask` and the token's `forms`: the markers on the cleaned text, then the
 * secrets and the token on the text the markers step wrote. `filter` gives
 * the mask of each text it reads.
 */
function hide(e: Compiled, text: string, mask: number, forms: readonly string[], filter: Filter): string {
  if (anyOf(e, mask, false)) {
    const markers = findCovers(text, reader(e, text, mask, false, filter), [], FILTERED);
    if (markers.length > 0) {
      text = rewrite(text, markers, FILTERED);
      mask = filter(text);
    }
  }
  const read = anyOf(e, mask, true) ? reader(e, text, mask, true, filter) : READ_NOTHING;
  if (read === READ_NOTHING && forms.length === 0) return text;
  const secrets = findCovers(text, read, forms, REDACTION);
  if (secrets.length === 0) return text;
  const out = rewrite(text, secrets, REDACTION);
  // Stage 3, step 3: a form made across a marker's edge (a token holding a marker's characters).
  for (let i = 0; i < forms.length; i++) {
    if (out.includes(forms[i]!)) return redactForms(out, forms);
  }
  return out;
}

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
  const all = forms;
  let mask = plainRules(text);
  if (mask >= 0) {
    forms = plainForms;
    // The common case: no rule can match and no form is looked for: only the cap remains.
    if (mask === 0 && forms.length === 0) return capLength(text, all);
  } else {
    text = cleanCharacters(text);
    mask = TRIGGERED(text);
  }
  return capLength(hide(compiledRules(), text, mask, forms, TRIGGERED), all);
}

/**
 * The same result as {@link sanitizeWithForms}, without the pre-filter: step
 * 1 on every text and every rule on it. The public constructors' path
 * (fields.ts), whose texts are the program's own: a bundle of classes then
 * holds the rules but not the pre-filter that only speeds up server text
 * (`tests/sanitize.test.ts` checks the two agree on generated texts).
 */
export function sanitizeEvery(text: string, forms: readonly string[] = NO_FORMS): string {
  const e = compiledRules();
  return capLength(hide(e, cleanCharacters(text), -1, forms, EVERY_RULE), forms);
}

/**
 * Stage 3, step 4 on `text`, the result of steps 1 to 3 with the token
 * `forms`: text longer than the cap (in code points) keeps a start that
 * sanitizing leaves as it is, followed by the truncation marker. The kept
 * start is the first `cut` code points, `cut` first `MAX - len(marker)`:
 * while the steps change the start followed by the marker, `cut` becomes the
 * smaller of `cut - 1` and the code points the steps left unchanged. `cut`
 * only decreases and the marker alone is left as it is, so this ends, and a
 * second pass keeps the result.
 */
export function capLength(text: string, forms: readonly string[] = NO_FORMS): string {
  let cut = capCut(text);
  if (cut < 0) return text;
  const e = compiledRules();
  while (cut > 0) {
    const kept = text.slice(0, cut) + TRUNCATION_MARKER;
    // A start of a cleaned text with the marker is clean: stage 1 would leave it as it is.
    const again = hide(e, kept, -1, forms, EVERY_RULE);
    if (again === kept) return kept;
    let same = 0;
    while (same < kept.length && kept.charCodeAt(same) === again.charCodeAt(same)) same++;
    // Counted in code points: a pair whose second half differs is not kept.
    if (same > 0 && isHighSurrogate(kept.charCodeAt(same - 1))) same--;
    let back = cut - 1;
    if (back > 0 && isHighSurrogate(text.charCodeAt(back - 1))) back--;
    cut = Math.min(back, same);
  }
  return TRUNCATION_MARKER;
}

/**
 * {@link sanitizeWithForms} for a field, with its common case first and
 * small enough to be inlined: text that step 1 leaves as it is, that holds
 * no trigger, that needs no token step (`plainForms` is empty: see
 * sanitizeWithForms) and that is within the cap is returned as it is.
 */
export function sanitizeField(text: string, forms: readonly string[], plainForms: readonly string[]): string {
  if (plainForms.length === 0 && text.length <= MAX && plainRules(text) === 0) return text;
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
