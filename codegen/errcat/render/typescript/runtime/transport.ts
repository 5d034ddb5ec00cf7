/**
 * A `fetch` wrapper that types every failure of a call: failed responses and
 * failures of the transport.
 *
 * ```ts
 * const fetchTyped = withTypedErrors(fetch, { token });
 * const res = await fetchTyped(url, { signal: AbortSignal.timeout(10_000) });
 * ```
 *
 * - a 4xx or 5xx response throws the typed error of its envelope or status;
 * - a failure of the underlying fetch throws the code the catalogue's
 *   `sdk.transport` gives its role: `failed` (no server got the request:
 *   safe to resend; `connection_failed`, say), `lost` (the
 *   request may have arrived, the response did not arrive whole;
 *   `connection_lost`), `timed_out` (the caller's deadline passed;
 *   `response_timeout`) or `aborted` (the caller aborted; `canceled`); the
 *   original error's sanitized copy (name, message, code, stack; never its
 *   request or headers) is the typed error's `cause`. A failure whose role the
 *   catalogue gives no code (every one, without `sdk.transport`) is thrown
 *   unchanged.
 *
 * The body of a 2xx response is wrapped too, so a connection lost while it
 * is read rejects `res.json()` / `res.text()` with the typed error.
 *
 * @module
 */

import type { AgentRunError } from "./base.js";
import { errorForCode } from "./parse.js";
import { errorFromResponse } from "./response.js";
import { SDK_TRANSPORT } from "./generated/catalogue.js";

/** Options of {@link withTypedErrors}. */
export interface TypedFetchOptions {
  /** The caller's credential: redacted wherever a server or an error message echoes it. */
  readonly token?: string | undefined;
}

type Roles = NonNullable<typeof SDK_TRANSPORT>;

/** The codes of transport failures: those the catalogue's `sdk.transport` names. */
export type TransportCode = Exclude<Roles[keyof Roles], undefined>;

/** What a transport failure says about the request: a role of the catalogue's `sdk.transport`. */
type Role = keyof Roles;

/** A function with the signature of `fetch`. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const FAILED: Role = "failed";
const LOST: Role = "lost";
const TIMEOUT: Role = "timedOut";
const ABORTED: Role = "aborted";

/**
 * Node's (undici's) error codes, by what they say about the request. A code
 * that does not say which phase failed gets the role `lost` (side effects
 * unknown), never `failed`.
 */
export const UNDICI_ROLES: Readonly<Record<string, Role>> = /* @__PURE__ */ Object.freeze({
  ECONNREFUSED: FAILED,
  ENOTFOUND: FAILED,
  EAI_AGAIN: FAILED,
  EAI_FAIL: FAILED,
  EHOSTUNREACH: FAILED,
  ENETUNREACH: FAILED,
  EHOSTDOWN: FAILED,
  EADDRNOTAVAIL: FAILED,
  UND_ERR_CONNECT_TIMEOUT: FAILED,
  ERR_INVALID_URL: FAILED,
  ERR_TLS_CERT_ALTNAME_INVALID: FAILED,
  DEPTH_ZERO_SELF_SIGNED_CERT: FAILED,
  SELF_SIGNED_CERT_IN_CHAIN: FAILED,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: FAILED,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: FAILED,
  CERT_HAS_EXPIRED: FAILED,
  CERT_NOT_YET_VALID: FAILED,
  ERR_SSL_WRONG_VERSION_NUMBER: FAILED,
  UND_ERR_HEADERS_TIMEOUT: TIMEOUT,
  UND_ERR_BODY_TIMEOUT: TIMEOUT,
  ETIMEDOUT: LOST, // a socket timeout after the connection was open, too
  UND_ERR_SOCKET: LOST,
  UND_ERR_CLOSED: LOST,
  ECONNRESET: LOST,
  EPIPE: LOST,
  ECONNABORTED: LOST,
  UND_ERR_INFO: LOST,
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: LOST,
  UND_ERR_RES_EXCEEDED_MAX_SIZE: LOST,
  ERR_HTTP2_STREAM_ERROR: LOST,
  ERR_HTTP2_SESSION_ERROR: LOST,
  ERR_HTTP2_GOAWAY_SESSION: LOST,
  ERR_HTTP2_STREAM_CANCEL: LOST,
  ERR_STREAM_PREMATURE_CLOSE: LOST,
});

/**
 * Certificate checks and Node's TLS errors: the handshake failed, nothing was
 * sent. (OpenSSL's `ERR_SSL_` codes can also come from an open connection, so
 * they are `connection_lost` unless listed above.)
 */
const TLS_CODE = /^(?:ERR_TLS_|CERT_|UNABLE_TO_)/;

/** A member of an object read without invoking a getter that throws. */
function member(value: unknown, name: string): unknown {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}

/** The error and the errors it wraps (`cause`, an AggregateError's `errors`), at most a few deep. */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && out.length < 8) {
    const next = queue.shift();
    if (next === undefined || next === null || out.includes(next)) continue;
    out.push(next);
    queue.push(member(next, "cause"));
    const errors = member(next, "errors");
    if (Array.isArray(errors)) queue.push(...errors.slice(0, 4));
  }
  return out;
}

/** The role of an undici error code, or of a TLS error code; none for another. */
function roleOfErrorCode(code: unknown): Role | undefined {
  if (typeof code !== "string") return undefined;
  if (Object.hasOwn(UNDICI_ROLES, code)) return UNDICI_ROLES[code];
  return TLS_CODE.test(code) ? FAILED : undefined;
}

/** The role of what a fetch rejected with, or none when it is not a transport failure. */
function roleOf(error: unknown): Role | undefined {
  const errors = chain(error);
  for (const e of errors) {
    const name = member(e, "name");
    if (name === "AbortError") return ABORTED;
    if (name === "TimeoutError") return TIMEOUT;
  }
  for (const e of errors) {
    const role = roleOfErrorCode(member(e, "code"));
    if (role !== undefined) return role;
  }
  return error instanceof TypeError ? LOST : undefined;
}

/**
 * The transport code of what a fetch rejected with, or none when it is not a
 * transport failure (a programming error such as an invalid header).
 *
 * `AbortError` is the caller's abort; `TimeoutError` (`AbortSignal.timeout`)
 * is the caller's deadline; undici's codes are read from the error and the
 * errors it wraps; a bare `TypeError` (a browser's "Failed to fetch", which
 * says nothing more) is `lost`. The code is the one the catalogue's
 * `sdk.transport` gives that role; none when it gives none.
 */
export function transportCodeOf(error: unknown): TransportCode | undefined {
  const role = roleOf(error);
  return role === undefined ? undefined : SDK_TRANSPORT?.[role];
}

/** `Name: message` of an error and of the errors it wraps, for the typed error's cause (sanitized later). */
function describe(error: unknown): string {
  const parts: string[] = [];
  for (const e of chain(error)) {
    const name = member(e, "name");
    const code = member(e, "code");
    const message = member(e, "message");
    let part = typeof name === "string" ? name : "Error";
    if (typeof code === "string") part += ` ${code}`;
    if (typeof message === "string" && message !== "") part += `: ${message}`;
    parts.push(part);
  }
  return parts.join(" <- ");
}

/**
 * The typed error of a fetch failure, or none when `error` is not one.
 *
 * @param error - What `fetch` (or a body read) rejected with.
 * @param options - `token`: the caller's credential, kept out of the cause.
 * @returns The typed error, its `cause` a sanitized copy of the original; its status none.
 */
export function errorFromFetchFailure(error: unknown, options?: TypedFetchOptions): AgentRunError | undefined {
  const code = transportCodeOf(error);
  if (code === undefined) return undefined;
  return errorForCode(code, undefined, { errorCause: describe(error), token: options?.token, cause: error });
}

function typed(error: unknown, options: TypedFetchOptions | undefined): unknown {
  return errorFromFetchFailure(error, options) ?? error;
}

/** `res` with a body whose read failures are typed errors. */
function typedBody(res: Response, options: TypedFetchOptions | undefined): Response {
  const body = res.body;
  // No body (204, 304, HEAD), or one already read: nothing can fail later.
  if (body === null || res.bodyUsed || body.locked) return res;
  const reader = body.getReader();
  const wrapped = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(typed(error, options));
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const out = new Response(wrapped, { status: res.status, statusText: res.statusText, headers: res.headers });
  // The fetch Response's own facts, which the constructor cannot set.
  for (const name of ["url", "redirected", "type"] as const) {
    Object.defineProperty(out, name, { value: res[name], enumerable: true });
  }
  return out;
}

/**
 * Wrap a `fetch` so that every failure of a call is a typed error.
 *
 * @param fetchImpl - The fetch to wrap; `globalThis.fetch` when left out.
 * @param options - `token`: the caller's credential, redacted everywhere.
 * @returns A function with `fetch`'s signature. It resolves with the
 *   response for a status below 400 and throws an {@link AgentRunError}
 *   subclass otherwise.
 */
export function withTypedErrors(fetchImpl: FetchLike = globalThis.fetch, options?: TypedFetchOptions): FetchLike {
  const token = options?.token;
  const opts: TypedFetchOptions = { token };
  return async function typedFetch(input, init) {
    let res: Response;
    try {
      res = await fetchImpl(input, init);
    } catch (error) {
      throw typed(error, opts);
    }
    if (res.status >= 400) throw await errorFromResponse(res, opts);
    return typedBody(res, opts);
  };
}
