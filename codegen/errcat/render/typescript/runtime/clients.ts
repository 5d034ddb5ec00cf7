/**
 * Typed errors from the HTTP clients this package is embedded in, each in
 * its client's own idiom: an axios interceptor, a got hook, a ky hook.
 * undici needs none: `errorFromResponse` and `raiseForStatus` read its
 * `request()` result (and its `fetch` `Response`) as they are.
 *
 * Every body this module reads itself (ky's unread `Response`, an axios or
 * got stream) is read as `errorFromResponse` reads one: at most the body
 * cap, within the read deadline (docs/sdk-contract.md section 2c). A body
 * the client has already read in full (axios's and got's default) was read
 * under the client's own limits (axios's `maxContentLength` and `timeout`,
 * got's `timeout`), and no more than the cap of it is parsed. None of these
 * clients is imported: the objects they hand over are all that is read, and
 * the typed error never keeps them (its `cause` is a sanitized copy).
 *
 * The package's `/clients` entry point: it imports the main entry only, so
 * an error it gives is an instance of the classes the caller imports from
 * the package itself, and a caller who uses no adapter never loads it.
 *
 * @module
 */

import type { AgentRunError } from "./base.js";
import { errorFromBody, errorFromFetchFailure, errorFromResponse, type HeadersLike, type ResponseLike, type ResponseOptions } from "./index.js";

/** The members of an axios or got response this module reads. */
interface ClientResponse {
  readonly status?: unknown;
  readonly statusCode?: unknown;
  readonly headers?: unknown;
  readonly data?: unknown;
  readonly rawBody?: unknown;
  readonly body?: unknown;
}

/** Whether `value` is a body stream not read yet (a Node stream or any async iterable). */
function isStream(value: unknown): boolean {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null | undefined)?.[Symbol.asyncIterator] === "function";
}

/** An already-read body as `errorFromBody` takes it: text, bytes, or the value the client parsed. */
function readBody(value: unknown): string | Uint8Array | object {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (typeof value === "string" || (typeof value === "object" && value !== null)) return value;
  return "";
}

/**
 * The typed error of a failure of axios or got: the error of the response's
 * body when the server answered (a stream read bounded, a read body parsed
 * up to the cap), the transport error of a network failure, else none (a
 * programming error, left as it is).
 */
async function clientError(error: unknown, response: ClientResponse | undefined, options: ResponseOptions | undefined): Promise<AgentRunError | undefined> {
  const status = typeof response?.statusCode === "number" ? response.statusCode : response?.status;
  if (response === undefined || typeof status !== "number") return errorFromFetchFailure(error, { token: options?.token });
  const headers = (response.headers ?? {}) as HeadersLike;
  const body = response.rawBody ?? response.data ?? response.body; // got's bytes, axios's data, got's parsed body
  if (isStream(body)) return errorFromResponse({ statusCode: status, headers, body }, options);
  return errorFromBody(readBody(body), { status, headers, token: options?.token });
}

/**
 * An axios response interceptor (its rejection handler) that rejects with
 * the typed error of a failed request:
 * `instance.interceptors.response.use(undefined, axiosErrorInterceptor({ token }))`.
 * A response body axios streams (`responseType: "stream"`) is read at most
 * to the body cap within the read deadline, then destroyed; one it read in
 * full (its default, bounded by its `maxContentLength` and `timeout`) is
 * parsed up to the cap, whether text, bytes or the object axios parsed. A
 * network failure rejects with its transport error; anything else (a
 * request axios refused to send) as it was.
 */
export function axiosErrorInterceptor(options?: ResponseOptions): (error: unknown) => Promise<never> {
  return async (error: unknown): Promise<never> => {
    const response = (error as { response?: ClientResponse } | null | undefined)?.response;
    throw (await clientError(error, response, options)) ?? error;
  };
}

/** The hooks {@link gotErrorHooks} gives, for `got.extend({ hooks })`. */
export interface GotErrorHooks {
  readonly beforeError: ((error: Error) => Promise<Error>)[];
}

/**
 * got hooks that make every failed request reject with its typed error:
 * `got.extend({ hooks: gotErrorHooks({ token }) })`. got reads the whole body
 * before its hooks run (bound it with got's `timeout`); the SDK parses at
 * most the body cap of it. For a bounded read, use `got.stream` with
 * `throwHttpErrors: false` and give {@link errorFromResponse} its `response`
 * event's `statusCode` and `headers` with the stream as `body`. A network
 * failure gives its transport error; anything else is left as it was.
 */
export function gotErrorHooks(options?: ResponseOptions): GotErrorHooks {
  const beforeError = async (error: Error): Promise<Error> => {
    const response = (error as { response?: ClientResponse }).response;
    return (await clientError(error, response, options)) ?? error;
  };
  return { beforeError: [beforeError] };
}

/**
 * A ky `beforeError` hook that throws the typed error of a failed request:
 * `ky.create({ hooks: { beforeError: [kyErrorHook({ token })] } })`. ky hands
 * the hook the `Response` unread, so the body is read as
 * {@link errorFromResponse} reads it: at most the body cap, within the read
 * deadline. The typed error ends ky's own retries (retry on
 * `err.retryable` instead).
 */
export function kyErrorHook(options?: ResponseOptions): (error: { readonly response: ResponseLike }) => Promise<never> {
  return async (error: { readonly response: ResponseLike }): Promise<never> => {
    throw await errorFromResponse(error.response, options);
  };
}
