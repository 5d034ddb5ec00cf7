/**
 * Filling an error's fields (docs/sdk-contract.md section 1, steps 5 to 7):
 * the code, the texts with their catalogue defaults, the context, the
 * request id and the retry delay, all sanitized. Both the parser
 * (parse.ts, through {@link fill}) and the public constructors (base.ts,
 * through {@link fillTexts}) fill fields here, by one function; only the
 * parser's path reads headers (headers.ts), recognises catalogue text by
 * equality and looks a code up (every code's texts, the refines walk, the
 * status fallback), so a bundle that only builds errors holds none of them.
 *
 * @module
 */

import { CONTEXT_FIELDS, CONTEXT_MAX_KEYS, REFINES_MAX, TEXTS } from "./generated/catalogue.js";
import { fromHeaders, type FromHeaders, type HeadersLike } from "./headers.js";
import { safeCause } from "./cause.js";
import { NO_FORMS, sanitizeEvery, sanitizeField, sanitizeWithForms } from "./sanitize.js";
import { CATCH_ALL, CheckedFields, EMPTY_CONTEXT, NewContext, boundedDelay, contextValue, fallbackCode } from "./spec.js";
import type { CodeTexts, ContextValue, ErrorContext } from "./types.js";

export type { HeadersLike };

/** A parsed JSON object. */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function holdsAny(text: string, forms: readonly string[]): boolean {
  for (let i = 0; i < forms.length; i++) if (text.includes(forms[i]!)) return true;
  return false;
}

// --- the catalogue's texts ---------------------------------------------------------

/**
 * A catalogue code with its texts, and whether each of them sanitizes to
 * itself (without a token): a server that sends a catalogue text unchanged
 * has it checked by one comparison. Found by one lookup of the code as sent.
 */
class Entry {
  declare readonly spec: CodeTexts;
  declare readonly code: boolean;
  declare readonly message: boolean;
  declare readonly cause: boolean;
  declare readonly remediation: boolean;
  /** `same` tells whether a text sanitizes to itself; none: no text is trusted. */
  constructor(spec: CodeTexts, same: ((text: string) => boolean) | undefined) {
    this.spec = spec;
    this.code = same !== undefined && same(spec.code);
    this.message = same !== undefined && same(spec.message);
    this.cause = same !== undefined && same(spec.cause);
    this.remediation = same !== undefined && same(spec.remediation);
  }
}

/** The catch-all's texts are empty: never trusted. */
const NO_ENTRY = /* @__PURE__ */ new Entry(CATCH_ALL, undefined);

/** Whether `text` sanitizes to itself without a token. */
const isClean = (text: string): boolean => sanitizeWithForms(text, NO_FORMS) === text;

/**
 * What the response path and the constructors' path of {@link fillWith}
 * differ in (besides how the code and its entry are picked). Each is built
 * on first use (nothing runs at import).
 */
interface FillPath {
  /** Context keys that only need the token step: catalogue field names that sanitize to themselves. */
  trustedKeys(): ReadonlySet<string>;
  /** The request id and the delay a response's headers give; none for a constructor. */
  readonly headers: typeof fromHeaders | undefined;
  /** The sanitizer of a text member, key or value (see {@link sanitizeField}). */
  readonly sanitize: (text: string, forms: readonly string[], plainForms: readonly string[]) => string;
}

let checkedEntries: Map<string, Entry> | undefined;
let checkedKeys: Set<string> | undefined;

/** The response path: catalogue text sent unchanged is recognised by equality, and headers are read. */
const RESPONSE_PATH: FillPath = {
  // Every code's context fields are catalogue context fields (the generator's model).
  trustedKeys: () => (checkedKeys ??= new Set(CONTEXT_FIELDS.filter(isClean))),
  headers: fromHeaders,
  sanitize: sanitizeField,
};

/** The entry of every catalogue code, for the response path. */
function checked(): ReadonlyMap<string, Entry> {
  return (checkedEntries ??= new Map(TEXTS.map((t) => [t.code, new Entry(t, isClean)])));
}

const NO_KEYS: ReadonlySet<string> = /* @__PURE__ */ new Set();

/**
 * The constructors' path: every given text is sanitized (none is compared)
 * by every rule, without the trigger pre-filter (the program's own text: a
 * bundle of classes holds no pre-filter); no header is read, and no other
 * code's texts are reached.
 */
const CONSTRUCTOR_PATH: FillPath = {
  trustedKeys: () => NO_KEYS,
  headers: undefined,
  sanitize: (text, forms) => sanitizeEvery(text, forms),
};

/**
 * The entry of the first code of an envelope's `refines` chain that the
 * catalogue defines (contract section 1, step 5), or undefined. Only an
 * array is a chain, and only its first REFINES_MAX entries are read; an
 * entry that is not a string naming a catalogue code is skipped.
 */
function refinedEntry(chain: unknown, codes: ReadonlyMap<string, Entry>): Entry | undefined {
  if (!Array.isArray(chain)) return undefined;
  const n = Math.min(chain.length, REFINES_MAX);
  for (let i = 0; i < n; i++) {
    const code: unknown = chain[i];
    const found = typeof code === "string" ? codes.get(code) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
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
  sanitize: FillPath["sanitize"],
): string | undefined {
  if (typeof value !== "string") return undefined;
  const out = trusted && value === expected && !holdsAny(value, plainForms) ? value : sanitize(value, forms, plainForms);
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
function buildContext(
  raw: unknown,
  forms: readonly string[],
  plainForms: readonly string[],
  trusted: ReadonlySet<string>,
  sanitize: FillPath["sanitize"],
): ErrorContext {
  if (!isObject(raw)) return EMPTY_CONTEXT;
  let keys = Object.keys(raw);
  if (keys.length === 0) return EMPTY_CONTEXT;
  if (keys.length > CONTEXT_MAX_KEYS) {
    const fields = (catalogueFields ??= new Set(CONTEXT_FIELDS));
    keys = keys.filter((k) => fields.has(k));
  }
  let out: Record<string, ContextValue> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    // A trusted field name only needs the token step; any other key is kept when sanitizing leaves it as it is.
    if (key === "") continue;
    if (trusted.has(key) ? holdsAny(key, plainForms) : sanitize(key, forms, plainForms) !== key) continue;
    const value = raw[key];
    const kept = typeof value === "string" ? sanitize(value, forms, plainForms) : contextValue(value);
    if (kept !== undefined) (out ??= new NewContext())[key] = kept;
  }
  return out === undefined ? EMPTY_CONTEXT : Object.freeze(out);
}

/** The context's `retry_after_ms`, when it is a delay (an integer ≥ 0), at most the ceiling. */
function contextDelay(context: ErrorContext): number | undefined {
  const fromContext = context["retry_after_ms"];
  return typeof fromContext === "number" && Number.isInteger(fromContext) && fromContext >= 0 ? boundedDelay(fromContext) : undefined;
}

// --- filling ------------------------------------------------------------------------

/** What {@link fill} reads besides the envelope's `error` and the status; every member is optional. */
export interface FillOptions {
  /** The response headers, if any (read by {@link fill} only). */
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
  /**
   * The code is the caller's (`errorForCode`, contract section 3): one that
   * is empty once sanitized stays the catch-all's empty code, with the base
   * class and the caller's texts; the status picks the default texts only,
   * never the class. Default: false (an envelope's empty code is no code).
   */
  readonly byCode?: boolean;
  /** A retry delay the caller gave; else read from the context and headers. */
  readonly delay?: number | undefined;
  /** The standard `Error.cause` to set. */
  readonly cause?: unknown;
}

const NO_OPTIONS: FillOptions = /* @__PURE__ */ Object.freeze({});

/** The members of an envelope's `error` (or of a constructor's arguments) that become fields. */
class Members {
  declare code: unknown;
  declare message: unknown;
  declare cause: unknown;
  declare remediation: unknown;
  declare context: unknown;
  declare requestId: unknown;
  declare refines: unknown;
  constructor() {
    this.code = this.message = this.cause = this.remediation = this.context = this.requestId = this.refines = undefined;
  }
}

/**
 * The members of an envelope's `error`, read through the object's own
 * keys: a polluted Object.prototype adds nothing, with no hasOwn check per
 * member. (Apart from the constructor, so that a bundle of classes, which
 * fills Members from its arguments, holds none of this.)
 */
function readMembers(error: JsonObject | undefined): Members {
  const m = new Members();
  if (error === undefined) return m;
  const keys = Object.keys(error);
  for (let i = 0; i < keys.length; i++) {
    // Named stores, one per member: each site stays monomorphic.
    switch (keys[i]) {
      case "code":
        m.code = error["code"];
        break;
      case "message":
        m.message = error["message"];
        break;
      case "cause":
        m.cause = error["cause"];
        break;
      case "remediation":
        m.remediation = error["remediation"];
        break;
      case "context":
        m.context = error["context"];
        break;
      case "request_id":
        m.requestId = error["request_id"];
        break;
      case "refines":
        m.refines = error["refines"];
        break;
    }
  }
  return m;
}

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
  const m = readMembers(error);
  return fillWith(m, pickSent(m, status, options), status, options, RESPONSE_PATH);
}

/** What a public constructor is given: the members of an envelope's `error`, each optional. */
export interface GivenTexts {
  readonly code: string | undefined;
  readonly message: string | undefined;
  readonly cause: string | undefined;
  readonly remediation: string | undefined;
  readonly context: unknown;
  readonly requestId: string | undefined;
}

/**
 * The fields of a public constructor of the class whose texts are `texts`
 * (the catch-all's for the base class; contract section 3): the code as
 * given (sanitized unless `options.trustedCode`; empty: the catch-all's),
 * and for every text left out or empty, that class's default. No other
 * code's texts or classification, and no status fallback, are reached, and
 * `options.headers` is not read, so a bundle of one class holds none of them.
 */
export function fillTexts(given: GivenTexts, status: number | undefined, options: FillOptions, texts: CodeTexts): CheckedFields {
  const m = new Members();
  m.code = given.code;
  m.message = given.message;
  m.cause = given.cause;
  m.remediation = given.remediation;
  m.context = given.context;
  m.requestId = given.requestId;
  const sent = typeof m.code === "string" ? m.code : "";
  const code = options.trustedCode === true ? sent : CONSTRUCTOR_PATH.sanitize(sent, options.forms ?? NO_FORMS, NO_FORMS);
  const own = texts === CATCH_ALL ? undefined : new Entry(texts, undefined);
  return fillWith(m, { code: code === "" ? CATCH_ALL.code : code, read: true, entry: own, defaults: own ?? NO_ENTRY }, status, options, CONSTRUCTOR_PATH);
}

/** The code of an error, whether its envelope's members are read, the entry of its class, and its defaults' entry. */
interface Picked {
  readonly code: string;
  readonly read: boolean;
  readonly entry: Entry | undefined;
  readonly defaults: Entry;
}

/** Steps 4 and 5 for a response (or `errorForCode`): the code as sent, its entry, the refines walk and the status fallback. */
function pickSent(m: Members, status: number | undefined, options: FillOptions): Picked {
  const { forms = NO_FORMS, bodyForms = NO_FORMS, trustedCode = false, byCode = false } = options;
  const entries = checked();
  // The code as sent: a catalogue code that sanitizes to itself is found by one lookup.
  let sent: string | undefined;
  let entry: Entry | undefined;
  if (typeof m.code === "string") {
    entry = entries.get(m.code);
    const asSent = trustedCode || (entry !== undefined && entry.code && !holdsAny(m.code, bodyForms));
    sent = asSent ? m.code : sanitizeField(m.code, forms, bodyForms);
    if (sent !== m.code) entry = entries.get(sent);
    if (sent === "" && !byCode) sent = undefined;
  }
  const code = sent ?? fallbackCode(status);
  if (sent === undefined) entry = entries.get(code);
  // An unknown code takes the class and texts of the first code it refines that the catalogue knows.
  else if (entry === undefined) entry = refinedEntry(m.refines, entries);
  // The defaults: the code's catalogue texts; for an unknown code, those of the status's fallback code.
  const defaults = entry ?? entries.get(fallbackCode(status)) ?? NO_ENTRY;
  return { code, read: sent !== undefined, entry, defaults };
}

function fillWith(m: Members, picked: Picked, status: number | undefined, options: FillOptions, path: FillPath): CheckedFields {
  const { headers, forms = NO_FORMS, bodyForms = NO_FORMS, delay } = options;
  const cause = options.cause === undefined ? undefined : safeCause(options.cause, forms, 0);
  const { code, entry, defaults } = picked;
  const sanitize = path.sanitize;
  let message = defaults.spec.message;
  let errorCause = defaults.spec.cause;
  let remediation = defaults.spec.remediation;
  let context = EMPTY_CONTEXT;
  if (picked.read) {
    message = cleanMember(m.message, forms, bodyForms, message, defaults.message, sanitize) ?? message;
    errorCause = cleanMember(m.cause, forms, bodyForms, errorCause, defaults.cause, sanitize) ?? errorCause;
    remediation = cleanMember(m.remediation, forms, bodyForms, remediation, defaults.remediation, sanitize) ?? remediation;
    context = buildContext(m.context, forms, bodyForms, path.trustedKeys(), sanitize);
  }
  // The header when it is not empty once sanitized, else the envelope's.
  // The delay: the caller's, else the context's retry_after_ms, else the headers'.
  let retryAfterMs = delay ?? contextDelay(context);
  let requestId: string | undefined;
  if (path.headers !== undefined) {
    const read: FromHeaders = path.headers(headers, forms, retryAfterMs);
    requestId = read.requestId;
    retryAfterMs = read.delay;
  }
  if (requestId === undefined && picked.read) {
    requestId = cleanMember(m.requestId, forms, bodyForms, "", false, sanitize);
  }
  return new CheckedFields(message, code, errorCause, remediation, status, context, retryAfterMs, requestId, cause, entry?.spec);
}
