/**
 * Filling an error's fields (docs/sdk-contract.md section 1, steps 5 to 7):
 * the code, the texts with their catalogue defaults, the context, the
 * request id and the retry delay, all sanitized. Both the parser
 * (parse.ts) and the public constructor (base.ts) fill fields here.
 *
 * @module
 */

import { CONTEXT_FIELDS, LIMITS, SPECS } from "./generated/catalogue.js";
import { sanitizeWithForms } from "./sanitize.js";
import { CATCH_ALL, CheckedFields, EMPTY_CONTEXT, NewContext, contextValue, fallbackCode, specOf } from "./spec.js";
import type { CodeSpec, ErrorContext } from "./types.js";

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

export function member(obj: JsonObject, key: string): unknown {
  const value = obj[key];
  // Own members only: a polluted Object.prototype adds nothing.
  return value !== undefined && Object.hasOwn(obj, key) ? value : undefined;
}

// --- text ---------------------------------------------------------------------

/** Catalogue strings and context field names that sanitize to themselves. */
let trustedText: Set<string> | undefined;

function trusted(): Set<string> {
  if (trustedText === undefined) {
    const candidates = new Set<string>();
    for (const s of SPECS) {
      for (const t of [s.code, s.message, s.cause, s.remediation, ...s.contextFields]) candidates.add(t);
    }
    trustedText = new Set([...candidates].filter((t) => sanitizeWithForms(t, []) === t));
  }
  return trustedText;
}

export function holdsAny(text: string, forms: readonly string[]): boolean {
  for (let i = 0; i < forms.length; i++) if (text.includes(forms[i]!)) return true;
  return false;
}

/**
 * Sanitize `text`. Trusted catalogue text (the catalogue's own `message`,
 * say, which servers send as is) only needs the token check; the result is
 * the same as sanitizing it.
 */
function clean(text: string, forms: readonly string[], plainForms: readonly string[], known: Set<string>): string {
  // Trusted text sanitizes to itself, so step 1 leaves it as it is: the plain forms do.
  if (known.has(text) && !holdsAny(text, plainForms)) return text;
  return sanitizeWithForms(text, forms, plainForms);
}

/** The sanitized text member, or undefined when it is not text or is empty once sanitized. */
function cleanMember(
  value: unknown,
  forms: readonly string[],
  plainForms: readonly string[],
  expected: string,
  known: Set<string>,
): string | undefined {
  if (typeof value !== "string") return undefined;
  const out =
    value === expected && known.has(expected) && !holdsAny(value, plainForms)
      ? value
      : sanitizeWithForms(value, forms, plainForms);
  return out === "" ? undefined : out;
}

export const NO_FORMS: readonly string[] = [];

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
  known: Set<string>,
): ErrorContext {
  if (!isObject(raw)) return EMPTY_CONTEXT;
  let keys = Object.keys(raw);
  if (keys.length === 0) return EMPTY_CONTEXT;
  if (keys.length > MAX_KEYS) {
    const fields = (catalogueFields ??= new Set(CONTEXT_FIELDS));
    keys = keys.filter((k) => fields.has(k));
  }
  const out = new NewContext();
  for (const key of keys) {
    if (key === "" || clean(key, forms, plainForms, known) !== key) continue;
    const value = raw[key];
    const kept = typeof value === "string" ? sanitizeWithForms(value, forms, plainForms) : contextValue(value);
    if (kept !== undefined) out[key] = kept;
  }
  return Object.freeze(out);
}

// --- headers --------------------------------------------------------------------

/** The three headers an error reads, by lower-case name. */
interface Picked {
  "x-request-id"?: string;
  "retry-after-ms"?: string;
  "retry-after"?: string;
}

const WANTED = new Set(["x-request-id", "retry-after-ms", "retry-after"]);

function add(picked: Picked, key: string, value: unknown): void {
  const name = key.length >= 11 && key.length <= 14 ? key.toLowerCase() : "";
  if (!WANTED.has(name)) return;
  let text: string | undefined;
  if (typeof value === "string") text = value;
  else if (Array.isArray(value) && value.every((v) => typeof v === "string")) text = value.join(", ");
  if (text === undefined) return;
  const had = picked[name as keyof Picked];
  picked[name as keyof Picked] = had === undefined ? text : `${had}, ${text}`;
}

/**
 * The headers an error reads, in one pass: from a fetch `Headers` (its
 * values already joined), anything else with `get(name)`, or a plain
 * object (names compared case-insensitively; a name given more than once
 * has its values joined with ", ", in order). A throwing getter or proxy
 * reads as no headers.
 */
function pickHeaders(headers: HeadersLike | undefined): Picked | undefined {
  if (headers === undefined || headers === null || typeof headers !== "object") return undefined;
  const picked: Picked = {};
  try {
    if (typeof Headers === "function" && headers instanceof Headers) {
      headers.forEach((value, key) => add(picked, key, value));
      return picked;
    }
    const get = (headers as { get?: unknown }).get;
    if (typeof get === "function") {
      for (const name of WANTED) {
        const value: unknown = get.call(headers, name);
        if (typeof value === "string") picked[name as keyof Picked] = value;
      }
      return picked;
    }
    const record = headers as Readonly<Record<string, unknown>>;
    for (const key of Object.keys(record)) add(picked, key, record[key]);
    return picked;
  } catch {
    return undefined;
  }
}

const DIGITS = /^[0-9]{1,15}$/;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), ([0-9]{2}) ([A-Z][a-z]{2}) ([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT$/;
const RFC850_DATE = /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), ([0-9]{2})-([A-Z][a-z]{2})-([0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT$/;
const ASCTIME_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ 0-9][0-9]) ([0-9]{2}):([0-9]{2}):([0-9]{2}) ([0-9]{4})$/;

/**
 * An HTTP-date (RFC 9110 section 5.6.7: IMF-fixdate, or the obsolete
 * RFC 850 and asctime forms) in milliseconds since the epoch, or undefined.
 */
export function parseHttpDate(value: string): number | undefined {
  let day: string, month: string, year: number, hh: string, mm: string, ss: string;
  let m = IMF_FIXDATE.exec(value);
  if (m !== null) {
    [, day, month, , hh, mm, ss] = m as unknown as string[] as [string, string, string, string, string, string, string];
    year = Number(m[3]);
  } else if ((m = RFC850_DATE.exec(value)) !== null) {
    [, day, month, , hh, mm, ss] = m as unknown as string[] as [string, string, string, string, string, string, string];
    // RFC 9110: a two-digit year more than 50 years in the future is in the past century.
    const now = new Date().getUTCFullYear();
    year = Number(m[3]) + now - (now % 100);
    if (year > now + 50) year -= 100;
  } else if ((m = ASCTIME_DATE.exec(value)) !== null) {
    [, month, day, hh, mm, ss] = m as unknown as string[] as [string, string, string, string, string, string];
    year = Number(m[6]);
  } else {
    return undefined;
  }
  const mon = MONTHS.indexOf(month.toLowerCase());
  if (mon === -1 || month !== month[0]!.toUpperCase() + month.slice(1).toLowerCase()) return undefined;
  const d = Number(day.trim());
  const [h, mi, s] = [Number(hh), Number(mm), Number(ss)];
  if (d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return undefined;
  const ms = Date.UTC(year, mon, d, h, mi, Math.min(s, 59));
  if (new Date(ms).getUTCDate() !== d) return undefined; // 31 Feb and friends
  return ms;
}

/** The retry delay: the context's `retry_after_ms`, else `Retry-After-Ms`, else `Retry-After`. */
function retryAfter(context: ErrorContext, headers: Picked | undefined): number | undefined {
  const fromContext = context["retry_after_ms"];
  if (typeof fromContext === "number" && Number.isInteger(fromContext) && fromContext >= 0) return fromContext;
  if (headers === undefined) return undefined;
  const ms = headers["retry-after-ms"];
  if (ms !== undefined && DIGITS.test(ms)) return Number(ms);
  const after = headers["retry-after"];
  if (after === undefined) return undefined;
  if (DIGITS.test(after)) return Number(after) * 1000;
  const date = parseHttpDate(after);
  return date === undefined ? undefined : Math.max(0, date - Date.now());
}

// --- filling ------------------------------------------------------------------------

/** What {@link fill} reads: the envelope's `error` object, or the caller's fields. */
export interface Sources {
  /** The envelope's `error` object; undefined for a body without an envelope. */
  readonly error: JsonObject | undefined;
  readonly status: number | undefined;
  readonly headers: HeadersLike | undefined;
  /** The token forms for text from headers and the caller. */
  readonly forms: readonly string[];
  /**
   * The token forms to look for in the body's strings that step 1 leaves
   * as they are (none when the unescaped body holds none); others get `forms`.
   */
  readonly bodyForms: readonly string[];
  /** The code is the caller's, trusted as given (a catalogue code). */
  readonly trustedCode: boolean;
  /** A retry delay the caller gave; else read from the context and headers. */
  readonly retryAfterMs: number | undefined;
  /** The standard `Error.cause` to set. */
  readonly cause: unknown;
}

/** The filled fields and the catalogue spec of the code (undefined for an unknown code). */
export interface Filled {
  readonly fields: CheckedFields;
  readonly spec: CodeSpec | undefined;
}

/**
 * Steps 4 to 7 of the contract: pick the code, fill and sanitize the
 * fields with their catalogue defaults. The caller picks the class from
 * `spec` (undefined: the base class, unless there was no code at all, when
 * the code is the status's fallback).
 */
export function fill(s: Sources): Filled {
  const known = trusted();
  const { error, status, headers, forms, bodyForms } = s;
  let sentCode: string | undefined;
  if (error !== undefined) {
    const raw = member(error, "code");
    if (typeof raw === "string") {
      sentCode = s.trustedCode ? raw : clean(raw, forms, bodyForms, known);
      if (sentCode === "") sentCode = undefined;
    }
  }
  const code = sentCode ?? fallbackCode(status);
  const spec = specOf(code);
  const defaults = spec ?? specOf(fallbackCode(status)) ?? CATCH_ALL;
  let message = defaults.message;
  let errorCause = defaults.cause;
  let remediation = defaults.remediation;
  let context = EMPTY_CONTEXT;
  let requestId: string | undefined;
  if (sentCode !== undefined && error !== undefined) {
    message = cleanMember(member(error, "message"), forms, bodyForms, defaults.message, known) ?? message;
    errorCause = cleanMember(member(error, "cause"), forms, bodyForms, defaults.cause, known) ?? errorCause;
    remediation = cleanMember(member(error, "remediation"), forms, bodyForms, defaults.remediation, known) ?? remediation;
    context = buildContext(member(error, "context"), forms, bodyForms, known);
  }
  // The header when it is not empty once sanitized, else the envelope's.
  const picked = pickHeaders(headers);
  const fromHeader = picked?.["x-request-id"];
  if (fromHeader !== undefined) requestId = sanitizeWithForms(fromHeader, forms) || undefined;
  if (requestId === undefined && sentCode !== undefined && error !== undefined) {
    requestId = cleanMember(member(error, "request_id"), forms, bodyForms, "", known);
  }
  let retryAfterMs = s.retryAfterMs;
  if (retryAfterMs === undefined) retryAfterMs = retryAfter(context, picked);
  const fields = new CheckedFields(message, code, errorCause, remediation, status, context, retryAfterMs, requestId, s.cause);
  return { fields, spec };
}
