/**
 * The headers an error reads from a response (docs/sdk-contract.md section
 * 1, step 6): the request id and the retry delay (`Retry-After-Ms`, else
 * `Retry-After` in seconds or as an HTTP date). Only the response path
 * (fill) reads them; a public constructor never does, so a bundle that
 * only builds or tests errors holds none of this.
 *
 * @module
 */

import { parseHttpDate } from "./httpdate.js";
import { formsAreStable, NO_FORMS, sanitizeField } from "./sanitize.js";
import { boundedDelay } from "./spec.js";

/**
 * Response headers: a fetch `Headers`, anything with a `get(name)` method,
 * or a plain object (names looked up case-insensitively; a name given in
 * several cases gets its values joined with ", ", as `Headers.get` does).
 */
export type HeadersLike =
  | { get(name: string): string | null | undefined }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** A delay header's value: all ASCII digits, at most 15. */
const DIGITS = /^[0-9]{1,15}$/;

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

/** The retry delay from the headers: `Retry-After-Ms`, else `Retry-After` (seconds or an HTTP-date); at most the ceiling. */
function headerDelay(headers: Picked | undefined): number | undefined {
  if (headers === undefined) return undefined;
  const ms = headers.retryAfterMs;
  if (ms !== undefined && DIGITS.test(ms)) return boundedDelay(Number(ms));
  const after = headers.retryAfter;
  if (after === undefined) return undefined;
  if (DIGITS.test(after)) return boundedDelay(Number(after) * 1000);
  const now = Date.now(); // read once: the two-digit-year window and the delay use the same now
  const date = parseHttpDate(after, now);
  return date === undefined ? undefined : boundedDelay(Math.max(0, date - now));
}

/** What the headers of a response give an error. */
export interface FromHeaders {
  /** The `x-request-id` header, sanitized; undefined when absent or empty once sanitized. */
  readonly requestId: string | undefined;
  /** The delay already known, else the one the retry headers give. */
  readonly delay: number | undefined;
}

/**
 * The request id (sanitized with the token's `forms`) and, when `known` is
 * undefined, the retry delay the headers give.
 */
export function fromHeaders(headers: HeadersLike | undefined, forms: readonly string[], known: number | undefined): FromHeaders {
  const picked = headers === undefined ? undefined : pickHeaders(headers, known === undefined);
  const fromHeader = picked?.requestId;
  const requestId = fromHeader === undefined ? undefined : sanitizeField(fromHeader, forms, plainForms(fromHeader, forms)) || undefined;
  return { requestId, delay: known ?? headerDelay(picked) };
}

/**
 * The forms to look for in `text` when step 1 leaves it as it is: none when
 * it holds none of `forms` and they are stable (see formsAreStable), for
 * then no step can make one; else all of them. The request id is most often
 * such a text, and its token step then costs one search per form.
 */
function plainForms(text: string, forms: readonly string[]): readonly string[] {
  if (forms.length === 0 || !formsAreStable(forms)) return forms;
  for (let i = 0; i < forms.length; i++) if (text.includes(forms[i]!)) return forms;
  return NO_FORMS;
}
