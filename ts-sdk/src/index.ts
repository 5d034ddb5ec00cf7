/**
 * `@mitos/errors`: the typed errors of the Mitos sandbox API, generated from
 * its error catalogue, with the runtime that builds them from responses.
 *
 * ```ts
 * import { raiseForStatus, RateLimitedError } from "@mitos/errors";
 *
 * try {
 *   await raiseForStatus(await fetch(url, init), { token });
 * } catch (err) {
 *   if (err instanceof RateLimitedError) await sleep(err.retryAfterMs ?? 1000);
 *   else throw err;
 * }
 * ```
 *
 * The classes: `AgentRunError` (any code; the class of unknown codes) and
 * one subclass per catalogue code, such as `RateLimitedError` for
 * `rate_limited`.
 *
 * @module
 */

export { AgentRunError } from "./base.js";
export { codeForGrpc, fallbackCode } from "./spec.js";
export type { CodeForGrpcOptions } from "./spec.js";
export type { AgentRunErrorInit, AgentRunErrorJSON } from "./base.js";
export * from "./generated/errors.js";
export type * from "./generated/envelope.js";
export { CONTRACT_VERSION, LIMITS } from "./generated/catalogue.js";
export { errorForCode, errorFromBody, isKnownCode, lookup } from "./parse.js";
export type { ErrorForCodeOptions, ErrorFromBodyOptions } from "./parse.js";
export type { HeadersLike } from "./fields.js";
export { parseHttpDate } from "./httpdate.js";
export { errorFromResponse, raiseForStatus } from "./response.js";
export type { ResponseLike, ResponseOptions } from "./response.js";
export * from "./generated/helpers.js";
export { envelopeBytes } from "./emit.js";
export type { EnvelopeBytes, EnvelopeOptions } from "./emit.js";
export { sanitizeText } from "./sanitize.js";
export type { SanitizeOptions } from "./sanitize.js";
export type { CodeSpec, CodeTexts, ContextValue, ErrorContext, Limits, SideEffects } from "./types.js";
export { errorFromFetchFailure, transportCodeOf, withTypedErrors } from "./transport.js";
export type { FetchLike, TransportCode, TypedFetchOptions } from "./transport.js";
