/**
 * From a response body to a typed error, by the steps of
 * docs/sdk-contract.md section 1; the Python SDK takes the same steps.
 *
 * @module
 */

import { AgentRunError, adopt } from "./base.js";
import { fill, holdsAny, isObject, type HeadersLike, type JsonObject } from "./fields.js";
import { ERROR_BODY_MAX_BYTES, JSON_MAX_DEPTH } from "./generated/catalogue.js";
import type { Code } from "./generated/envelope.js";
import { ERROR_CLASSES, type ErrorClassOf } from "./generated/errors.js";
import { capLength, formsAreStable, NO_FORMS, tokenForms } from "./sanitize.js";
import { CheckedFields } from "./spec.js";
import type { CodeTexts } from "./types.js";

export type { HeadersLike };

/** Options of {@link errorFromBody}. */
export interface ErrorFromBodyOptions {
  /** The HTTP status of the response. */
  readonly status: number;
  /** The response headers (`x-request-id`, `Retry-After-Ms`, `Retry-After`). */
  readonly headers?: HeadersLike | undefined;
  /** The caller's credential: redacted wherever it is echoed. Never stored. */
  readonly token?: string | undefined;
}

/** Options of {@link errorForCode}. */
export interface ErrorForCodeOptions {
  /** The envelope `cause`; defaults to the catalogue's. */
  readonly errorCause?: string | undefined;
  /** The remediation; defaults to the catalogue's. */
  readonly remediation?: string | undefined;
  /** The HTTP status, if there was a response. */
  readonly status?: number | undefined;
  /** Structured context; filtered and sanitized like an envelope's. */
  readonly context?: Readonly<Record<string, unknown>> | undefined;
  /** The request id. */
  readonly requestId?: string | undefined;
  /** The retry delay in milliseconds; else read from the context and headers. */
  readonly retryAfterMs?: number | undefined;
  /** Response headers, for the request id and the retry delay. */
  readonly headers?: HeadersLike | undefined;
  /** The caller's credential: redacted from every text. Never stored. */
  readonly token?: string | undefined;
  /** The standard `Error.cause`: a lower-level error this one wraps (kept as a sanitized copy, contract section 4). */
  readonly cause?: unknown;
}

const BODY_CAP = ERROR_BODY_MAX_BYTES;
const MAX_DEPTH = JSON_MAX_DEPTH;

let classByCode: Map<string, typeof AgentRunError> | undefined;

/** The generated class of each catalogue code, indexed on first use (nothing runs at import). */
function classes(): Map<string, typeof AgentRunError> {
  return (classByCode ??= new Map<string, typeof AgentRunError>(ERROR_CLASSES.map((c) => [c.code, c])));
}

// --- lookup -----------------------------------------------------------------

/**
 * The class of a code: the generated class of a catalogue code, the base
 * class for any other string (`__proto__` and `toString` included).
 */
export function lookup<C extends Code>(code: C): ErrorClassOf[C];
export function lookup(code: string): typeof AgentRunError;
export function lookup(code: string): typeof AgentRunError {
  return (typeof code === "string" ? classes().get(code) : undefined) ?? AgentRunError;
}

/** Whether `code` is a code of the catalogue. */
export function isKnownCode(code: unknown): code is Code {
  return typeof code === "string" && classes().has(code);
}

function classOf(spec: CodeTexts | undefined): typeof AgentRunError {
  return (spec === undefined ? undefined : classes().get(spec.code)) ?? AgentRunError;
}

// --- body ---------------------------------------------------------------------

let codec: { decoder: TextDecoder; encoder: TextEncoder } | undefined;

/** The UTF-8 decoder (invalid sequences become U+FFFD, a BOM is kept) and encoder, made on first use. */
function utf8(): { decoder: TextDecoder; encoder: TextEncoder } {
  return (codec ??= { decoder: new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }), encoder: new TextEncoder() });
}

/** Whether `text` has no unpaired surrogate (without the ES2024 method: whether it has no surrogate at all). */
function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  if (typeof native === "function") return native.call(text);
  return !/[\ud800-\udfff]/.test(text);
}

/** Steps 1 and 2: keep the first body-cap bytes, decode them as UTF-8, drop one BOM. */
function decodeBody(body: unknown): string {
  let text: string;
  if (typeof body === "string") {
    // Each UTF-16 unit gives at least one UTF-8 byte, three at most.
    if (body.length * 3 <= BODY_CAP && isWellFormed(body)) text = body;
    else {
      const { decoder, encoder } = utf8();
      text = decoder.decode(encoder.encode(body.slice(0, BODY_CAP + 1)).subarray(0, BODY_CAP));
    }
  } else if (ArrayBuffer.isView(body)) {
    const bytes = new Uint8Array(body.buffer, body.byteOffset, Math.min(body.byteLength, BODY_CAP));
    text = utf8().decoder.decode(bytes);
  } else if (body instanceof ArrayBuffer) {
    text = utf8().decoder.decode(new Uint8Array(body, 0, Math.min(body.byteLength, BODY_CAP)));
  } else if (typeof body === "object" && body !== null) {
    text = textOfParsed(body);
  } else {
    text = "";
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Thrown inside {@link textOfParsed} when a value has no JSON text, or its text passes the cap. */
const NO_TEXT = Symbol("no JSON text");

/** A JSON string with every character outside printable ASCII escaped, as Python's `json` writes it. */
export function asciiJson(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The compact JSON text of a body a client already parsed (axios's
 * `response.data`), every non-ASCII character escaped, written no further
 * than the body cap (contract section 1, step 1). A value no JSON text parses
 * to (a cycle, NaN, `undefined`, a function, a class
 * instance), one nested past the depth limit, one whose text passes the cap,
 * or one whose members throw as they are read gives the empty text: the
 * status decides, as for a body that is not JSON.
 */
function textOfParsed(value: object): string {
  const parts: string[] = [];
  let size = 0;
  const put = (piece: string): void => {
    size += piece.length;
    if (size > BODY_CAP) throw NO_TEXT;
    parts.push(piece);
  };
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === "string") put(asciiJson(v));
    else if (typeof v === "number") {
      // A number past the double range parses to an infinity: write one back so.
      if (Number.isNaN(v)) throw NO_TEXT;
      put(v === Infinity ? "1e400" : v === -Infinity ? "-1e400" : JSON.stringify(v));
    } else if (typeof v === "boolean" || v === null) put(String(v));
    else if (typeof v !== "object" || depth >= MAX_DEPTH) throw NO_TEXT;
    else if (Array.isArray(v)) {
      put("[");
      for (let i = 0; i < v.length; i++) {
        if (i > 0) put(",");
        walk(v[i], depth + 1);
      }
      put("]");
    } else {
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) throw NO_TEXT;
      put("{");
      let first = true;
      for (const key of Object.keys(v)) {
        if (!first) put(",");
        first = false;
        put(asciiJson(key));
        put(":");
        walk((v as Record<string, unknown>)[key], depth + 1);
      }
      put("}");
    }
  };
  try {
    walk(value, 0);
  } catch {
    return "";
  }
  return parts.join("");
}

/** Whether arrays and objects nest deeper than the limit (strings skipped, so exact for JSON). */
function tooDeep(text: string): boolean {
  // Depth is at most the number of opening brackets: count them first, cheaply.
  let opening = 0;
  for (let i = text.indexOf("{"); i !== -1 && opening <= MAX_DEPTH; i = text.indexOf("{", i + 1)) opening++;
  for (let i = text.indexOf("["); i !== -1 && opening <= MAX_DEPTH; i = text.indexOf("[", i + 1)) opening++;
  if (opening <= MAX_DEPTH) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_DEPTH) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** Step 3: the parsed body, or undefined when it is not a JSON object text. */
function parseBody(text: string): unknown {
  let i = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
  }
  if (text.charCodeAt(i) !== 0x7b || tooDeep(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function statusOf(status: unknown): number | undefined {
  return typeof status === "number" && Number.isInteger(status) ? status : undefined;
}

/**
 * Turn an error response body into a typed error. Total: it never throws.
 *
 * The body is read up to the catalogue's byte cap, decoded as UTF-8 and
 * parsed as JSON when it is an object; an envelope (`{"error": {"code":
 * ...}}`) selects the code's class (the base class for an unknown code,
 * kept as sent). Anything else (HTML from a proxy, plain text, a list,
 * invalid JSON, an empty body) gets a code from the status through the
 * catalogue's fallback map. Every server text is sanitized, and `token`
 * is redacted wherever it is echoed.
 *
 * @param body - The response body, as text or bytes, or the value a client
 *   already parsed it to (axios's `response.data`: an object or an array),
 *   read as its compact JSON text, no more than the body cap of it written.
 * @param options - `status` of the response; `headers` (a `Headers` or a
 *   plain object); `token`, the caller's credential.
 * @returns The error; never throws.
 */
export function errorFromBody(body: string | Uint8Array | object, options: ErrorFromBodyOptions): AgentRunError {
  // The Error is constructed here, so that its stack starts at this function
  // and then its caller; see adopt() in base.ts.
  const fields = fieldsFromBody(body, options);
  return adopt(new Error(fields.message), classOf(fields.spec), fields);
}

/**
 * {@link errorFromBody} for a body whose read was stopped by its deadline
 * (docs/sdk-contract.md section 2c): `note` is appended to the cause, and
 * the whole capped.
 */
export function errorFromCutBody(body: Uint8Array, options: ErrorFromBodyOptions, note: string): AgentRunError {
  const f = fieldsFromBody(body, options);
  const cause = capLength(f.errorCause + note);
  const fields = new CheckedFields(f.message, f.code, cause, f.remediation, f.status, f.context, f.retryAfterMs, f.requestId, f.cause, f.spec);
  return adopt(new Error(fields.message), classOf(fields.spec), fields);
}

/** The fields of {@link errorFromBody}. Total: it never throws. */
function fieldsFromBody(body: unknown, options: ErrorFromBodyOptions | undefined): CheckedFields {
  let status: number | undefined;
  try {
    let headers: HeadersLike | undefined;
    let token: string | undefined;
    if (options !== undefined && options !== null) {
      status = statusOf(options.status);
      headers = options.headers;
      token = options.token;
    }
    const text = decodeBody(body);
    const parsed = parseBody(text);
    let error: JsonObject | undefined;
    if (isObject(parsed)) {
      const found = parsed["error"];
      // Own members only: a polluted Object.prototype adds nothing.
      if (isObject(found) && Object.hasOwn(parsed, "error")) error = found;
    }
    const forms = tokenForms(token);
    // Without escapes, every string of the body is a piece of its text: when
    // no form of the token is in the text, none is in any of its strings, nor
    // can the injection and secret steps make one when the forms are stable
    // (see formsAreStable), unless step 1 joins a token split by a removed
    // character (then every form is looked for: see sanitizeWithForms).
    const bodyForms =
      forms.length === 0 ||
      (error !== undefined && formsAreStable(forms) && text.indexOf("\\") === -1 && !holdsAny(text, forms))
        ? NO_FORMS
        : forms;
    return fill(error, status, { headers, forms, bodyForms });
  } catch {
    // Unreachable by design; a last guard so that parsing stays total.
    return fill(undefined, status);
  }
}

/**
 * Build the error of `code` as if a server had sent it in an envelope:
 * a catalogue code gives its class, any other code the base class (the
 * code sanitized; a code empty once sanitized, such as `""` or `"\u200b"`,
 * too: the status never picks the class). Every text is sanitized and `token` redacted; a text
 * left out (or empty) takes the catalogue's default, which for an unknown
 * code is that of the status's fallback code. Never throws.
 *
 * @param code - The error code.
 * @param message - The one-line summary; the catalogue's when empty.
 * @param options - Other fields, the status, headers and the caller's token.
 * @returns The error (not thrown).
 */
export function errorForCode<C extends Code>(code: C, message?: string, options?: ErrorForCodeOptions): InstanceType<ErrorClassOf[C]>;
export function errorForCode(code: string, message?: string, options?: ErrorForCodeOptions): AgentRunError;
export function errorForCode(code: string, message?: string, opts?: ErrorForCodeOptions): AgentRunError {
  const options: ErrorForCodeOptions = opts ?? {};
  const error: JsonObject = {
    code,
    message,
    cause: options.errorCause,
    remediation: options.remediation,
    context: options.context,
    request_id: options.requestId,
  };
  const forms = tokenForms(options.token);
  const delay = options.retryAfterMs;
  const fields = fill(error, statusOf(options.status), {
    headers: options.headers,
    forms,
    bodyForms: forms,
    // A catalogue code is trusted as given; any other is sanitized like server text.
    trustedCode: isKnownCode(code),
    byCode: true,
    delay: typeof delay === "number" && Number.isSafeInteger(delay) && delay >= 0 ? delay : undefined,
    cause: options.cause,
  });
  return adopt(new Error(fields.message, fields.cause !== undefined ? { cause: fields.cause } : undefined), classOf(fields.spec), fields);
}
