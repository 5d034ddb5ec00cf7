/**
 * Filling an error's fields (docs/sdk-contract.md section 1, steps 5 to 7):
 * the code, the texts with their catalogue defaults, the context, the
 * request id and the retry delay, all sanitized. Both the parser
 * (parse.ts) and the public constructor (base.ts) fill fields here.
 *
 * @module
 */

import { CONTEXT_FIELDS, LIMITS, REFINES_MAX, TEXTS } from "./generated/catalogue.js";
import { NO_FORMS, sanitizeField, sanitizeWithForms } from "./sanitize.js";
import { CATCH_ALL, CheckedFields, EMPTY_CONTEXT, NewContext, contextValue, fallbackCode } from "./spec.js";
import { parseHttpDate } from "./httpdate.js";
import type { CodeTexts, ContextValue, ErrorContext } from "./types.js";

/**
 * Response headers: a fetch `Headers`, anything with a `get(name)` method,
 * or a plain object (names looked up case-insensitively; a name given in
 * several cases gets its values joined with ", ", as `Headers.get` does).
 */
export type HeadersLike =
  | { get(name: string): string | null | undefined }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

const MAX_KEYS = LIMITS.contextMaxKeys;

/** A parsed JSON object. */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// --- text ---------------------------------------------------------------------

/** The catalogue's context field names that sanitize to themselves. */
let trustedNames: Set<string> | undefined;

/**
 * A catalogue code with its texts, and whether each of them sanitizes
 * to itself (without a token): a server that sends a catalogue text
 * unchanged has it checked by one comparison. Found by one lookup of the
 * code as sent.
 */
class Entry {
  declare readonly spec: CodeTexts;
  declare readonly code: boolean;
  declare readonly message: boolean;
  declare readonly cause: boolean;
  declare readonly remediation: boolean;
  constructor(spec: CodeTexts, checked = true) {
    const same = (t: string): boolean => checked && sanitizeWithForms(t, NO_FORMS) === t;
    this.spec = spec;
    this.code = same(spec.code);
    this.message = same(spec.message);
    this.cause = same(spec.cause);
    this.remediation = same(spec.remediation);
  }
}

/** The catch-all's texts are empty: never trusted (and not sanitized at import: the sanitizer is built on first use). */
const NO_ENTRY = new Entry(CATCH_ALL, false);

let entries: Map<string, Entry> | undefined;

function catalogue(): Map<string, Entry> {
  if (entries === undefined) {
    entries = new Map(TEXTS.map((t) => [t.code, new Entry(t)]));
    // Every code's context fields are catalogue context fields (the generator's model).
    trustedNames = new Set(CONTEXT_FIELDS.filter((t) => sanitizeWithForms(t, NO_FORMS) === t));
  }
  return entries;
}

/**
 * The entry of the first code of an envelope's `refines` chain that the
 * catalogue defines (contract section 1, step 5), or undefined. Only an
 * array is a chain, and only its first REFINES_MAX entries are read; an
 * entry that is not a string naming a catalogue code is skipped.
 */
function refinedEntry(chain: unknown, codes: Map<string, Entry>): Entry | undefined {
  if (!Array.isArray(chain)) return undefined;
  const n = Math.min(chain.length, REFINES_MAX);
  for (let i = 0; i < n; i++) {
    const code: unknown = chain[i];
    const found = typeof code === "string" ? codes.get(code) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

export function holdsAny(text: string, forms: readonly string[]): boolean {
  for (let i = 0; i < forms.length; i++) if (text.includes(forms[i]!)) return true;
  return false;
}

/**
 * The sanitized text member, or undefined when it is not text or is empty
 * once sanitized. `expected` is the catalogue's text for the member and
 * `trusted` whether it sanitizes to itself: then a text equal to it only
 * needs the token step (step 1 leaves it as it is, so the plain forms do).
 */
function cleanMember(
  value: unknown,
  forms: readonly string[],
  plainForms: readonly string[],
  expected: string,
  trusted: boolean,
): string | undefined {
  if (typeof value !== "string") return undefined;
  const out =
    trusted && value === expected && !holdsAny(value, plainForms) ? value : sanitizeField(value, forms, plainForms);
  return out === "" ? undefined : out;
}

// --- context ------------------------------------------------------------------

let catalogueFields: Set<string> | undefined;

/**
 * The context of an envelope: its members, except that an object with more
 * than context_max_keys members keeps only the catalogue's context fields.
 * A member whose key is empty or changed by sanitizing is dropped (so no two
 * keys collide, and key order does not matter). Values follow the value rule.
 */
function buildContext(raw: unknown, forms: readonly string[], plainForms: readonly string[]): ErrorContext {
  if (!isObject(raw)) return EMPTY_CONTEXT;
  let keys = Object.keys(raw);
  if (keys.length === 0) return EMPTY_CONTEXT;
  if (keys.length > MAX_KEYS) {
    const fields = (catalogueFields ??= new Set(CONTEXT_FIELDS));
    keys = keys.filter((k) => fields.has(k));
  }
  let out: Record<string, ContextValue> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    // A trusted field name only needs the token step; any other key is kept when sanitizing leaves it as it is.
    if (key === "") continue;
    if (trustedNames!.has(key) ? holdsAny(key, plainForms) : sanitizeField(key, forms, plainForms) !== key) continue;
    const value = raw[key];
    const kept = typeof value === "string" ? sanitizeField(value, forms, plainForms) : contextValue(value);
    if (kept !== undefined) (out ??= new NewContext())[key] = kept;
  }
  return out === undefined ? EMPTY_CONTEXT : Object.freeze(out);
}

// --- headers --------------------------------------------------------------------

/** The three headers an error reads (undefined: absent). */
class Picked {
  declare requestId: string | undefined;
  declare retryAfterMs: string | undefined;
  declare retryAfter: string | undefined;
  constructor() {
    this.requestId = undefined;
    this.retryAfterMs = undefined;
    this.retryAfter = undefined;
  }
}

function joined(had: string | undefined, text: string): string {
  return had === undefined ? text : `${had}, ${text}`;
}

/** A member of a plain object: names compared case-insensitively, values of a name joined. */
function pickRecordHeader(picked: Picked, key: string, value: unknown): void {
  const n = key.length;
  if (n !== 11 && n !== 12 && n !== 14) return;
  let text: string | undefined;
  if (typeof value === "string") text = value;
  else if (Array.isArray(value) && value.every((v) => typeof v === "string")) text = value.join(", ");
  if (text === undefined) return;
  const name = key.toLowerCase();
  if (name === "x-request-id") picked.requestId = joined(picked.requestId, text);
  else if (name === "retry-after-ms") picked.retryAfterMs = joined(picked.retryAfterMs, text);
  else if (name === "retry-after") picked.retryAfter = joined(picked.retryAfter, text);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * The headers an error reads. From a fetch `Headers`, or anything else with
 * `get(name)`, each by name: `x-request-id`, and the two retry headers only
 * when `retry` says the delay is still unknown (one `get` costs about
 * 0.2 µs; iterating a fresh `Headers` sorts it first, 1.7 µs for eight
 * headers). From a plain object, in one pass over its keys (names compared
 * case-insensitively; a name given more than once has its values joined with
 * ", ", in order). A throwing getter or proxy reads as no headers.
 */
function pickHeaders(headers: HeadersLike | undefined, retry: boolean): Picked | undefined {
  if (headers === undefined || headers === null || typeof headers !== "object") return undefined;
  const picked = new Picked();
  try {
    const get = (headers as { get?: unknown }).get;
    if (typeof get === "function") {
      picked.requestId = text(get.call(headers, "x-request-id"));
      if (retry) {
        picked.retryAfterMs = text(get.call(headers, "retry-after-ms"));
        if (picked.retryAfterMs === undefined || !DIGITS.test(picked.retryAfterMs)) {
          picked.retryAfter = text(get.call(headers, "retry-after"));
        }
      }
      return picked;
    }
    const record = headers as Readonly<Record<string, unknown>>;
    const keys = Object.keys(record);
    for (let i = 0; i < keys.length; i++) pickRecordHeader(picked, keys[i]!, record[keys[i]!]);
    return picked;
  } catch {
    return undefined;
  }
}

const DIGITS = /^[0-9]{1,15}$/;
/** The context's `retry_after_ms`, when it is a delay (an integer ≥ 0). */
function contextDelay(context: ErrorContext): number | undefined {
  const fromContext = context["retry_after_ms"];
  return typeof fromContext === "number" && Number.isInteger(fromContext) && fromContext >= 0 ? fromContext : undefined;
}

/** The retry delay from the headers: `Retry-After-Ms`, else `Retry-After` (seconds or an HTTP-date). */
function headerDelay(headers: Picked | undefined): number | undefined {
  if (headers === undefined) return undefined;
  const ms = headers.retryAfterMs;
  if (ms !== undefined && DIGITS.test(ms)) return Number(ms);
  const after = headers.retryAfter;
  if (after === undefined) return undefined;
  if (DIGITS.test(after)) return Number(after) * 1000;
  const now = Date.now(); // read once: the two-digit-year window and the delay use the same now
  const date = parseHttpDate(after, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}

// --- filling ------------------------------------------------------------------------

/** What {@link fill} reads besides the envelope's `error` and the status; every member is optional. */
export interface FillOptions {
  /** The response headers, if any. */
  readonly headers?: HeadersLike | undefined;
  /** The token forms for text from headers and the caller (default: none). */
  readonly forms?: readonly string[];
  /**
   * The token forms to look for in the body's strings that step 1 leaves as
   * they are (none when the unescaped body holds none and the forms are
   * stable); others get `forms`. Default: none.
   */
  readonly bodyForms?: readonly string[];
  /** The code is the caller's, trusted as given (a catalogue code). Default: false. */
  readonly trustedCode?: boolean;
  /** A retry delay the caller gave; else read from the context and headers. */
  readonly delay?: number | undefined;
  /** The standard `Error.cause` to set. */
  readonly cause?: unknown;
}

const NO_OPTIONS: FillOptions = Object.freeze({});

/** The request id and the retry delay a response's headers give, read by {@link fill}. */
type HeaderStep = (
  headers: HeadersLike | undefined,
  forms: readonly string[],
  known: number | undefined,
) => { readonly requestId: string | undefined; readonly delay: number | undefined };

/** The header step of a response: the request id (sanitized) and, when still unknown, the delay. */
const fromHeaders: HeaderStep = (headers, forms, known) => {
  const picked = headers === undefined ? undefined : pickHeaders(headers, known === undefined);
  const fromHeader = picked?.requestId;
  const requestId = fromHeader === undefined ? undefined : sanitizeWithForms(fromHeader, forms) || undefined;
  return { requestId, delay: known ?? headerDelay(picked) };
};

/**
 * Steps 4 to 7 of the contract: pick the code, fill and sanitize the
 * fields with their catalogue defaults. The caller picks the class from
 * `spec` of the result (undefined: the base class, unless there was no code
 * at all, when the code is the status's fallback).
 *
 * @param error - The envelope's `error` object; undefined for a body without an envelope.
 * @param status - The HTTP status, if any.
 * @param options - The headers, token forms, trusted code, delay and cause.
 */
export function fill(error: JsonObject | undefined, status: number | undefined, options: FillOptions = NO_OPTIONS): CheckedFields {
  return fillWith(error, status, options, fromHeaders);
}

/**
 * {@link fill} without headers (`options.headers` is not read): what the
 * public constructors need, without the code that reads headers and dates.
 */
export function fillTexts(error: JsonObject | undefined, status: number | undefined, options: FillOptions): CheckedFields {
  return fillWith(error, status, options, undefined);
}

function fillWith(
  error: JsonObject | undefined,
  status: number | undefined,
  options: FillOptions,
  headerStep: HeaderStep | undefined,
): CheckedFields {
  const { headers, forms = NO_FORMS, bodyForms = NO_FORMS, trustedCode = false, delay, cause } = options;
  const codes = entries ?? catalogue();
  // The members, read through the object's own keys: a polluted
  // Object.prototype adds nothing, with no hasOwn check per member.
  let rawCode: unknown;
  let rawMessage: unknown;
  let rawCause: unknown;
  let rawRemediation: unknown;
  let rawContext: unknown;
  let rawRequestId: unknown;
  let rawRefines: unknown;
  if (error !== undefined) {
    const keys = Object.keys(error);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      switch (key) {
        case "code":
          rawCode = error[key];
          break;
        case "message":
          rawMessage = error[key];
          break;
        case "cause":
          rawCause = error[key];
          break;
        case "remediation":
          rawRemediation = error[key];
          break;
        case "context":
          rawContext = error[key];
          break;
        case "request_id":
          rawRequestId = error[key];
          break;
        case "refines":
          rawRefines = error[key];
          break;
      }
    }
  }
  // The code as sent: a catalogue code that sanitizes to itself is found by one lookup.
  let sentCode: string | undefined;
  let entry: Entry | undefined;
  if (typeof rawCode === "string") {
    entry = codes.get(rawCode);
    if (trustedCode || (entry !== undefined && entry.code && !holdsAny(rawCode, bodyForms))) {
      sentCode = rawCode;
    } else {
      sentCode = sanitizeField(rawCode, forms, bodyForms);
      entry = codes.get(sentCode);
    }
    if (sentCode === "") sentCode = undefined;
  }
  const code = sentCode ?? fallbackCode(status);
  if (sentCode === undefined) entry = codes.get(code);
  // An unknown code takes the class and texts of the first code it refines that the catalogue knows.
  else if (entry === undefined) entry = refinedEntry(rawRefines, codes);
  // The defaults: the code's catalogue texts; for an unknown code, those of the status's fallback code.
  const defaults = entry ?? codes.get(fallbackCode(status)) ?? NO_ENTRY;
  let message = defaults.spec.message;
  let errorCause = defaults.spec.cause;
  let remediation = defaults.spec.remediation;
  let context = EMPTY_CONTEXT;
  let requestId: string | undefined;
  if (sentCode !== undefined) {
    message = cleanMember(rawMessage, forms, bodyForms, message, defaults.message) ?? message;
    errorCause = cleanMember(rawCause, forms, bodyForms, errorCause, defaults.cause) ?? errorCause;
    remediation = cleanMember(rawRemediation, forms, bodyForms, remediation, defaults.remediation) ?? remediation;
    context = buildContext(rawContext, forms, bodyForms);
  }
  // The header when it is not empty once sanitized, else the envelope's.
  // The delay: the caller's, else the context's retry_after_ms, else the headers'.
  let retryAfterMs = delay ?? contextDelay(context);
  if (headerStep !== undefined) {
    const read = headerStep(headers, forms, retryAfterMs);
    requestId = read.requestId;
    retryAfterMs = read.delay;
  }
  if (requestId === undefined && sentCode !== undefined) {
    requestId = cleanMember(rawRequestId, forms, bodyForms, "", false);
  }
  return new CheckedFields(message, code, errorCause, remediation, status, context, retryAfterMs, requestId, cause, entry?.spec);
}
