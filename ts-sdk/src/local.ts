/**
 * Errors the SDK raises itself, before or after a request
 * (docs/sdk-contract.md section 3).
 *
 * @module
 */

import { adopt, type AgentRunError } from "./base.js";
import { CATCH_ALL, CheckedFields, NewContext, contextValue, specOf } from "./spec.js";
import { LIMITS } from "./generated/catalogue.js";
import { lookup } from "./parse.js";
import { sanitizeWithForms, tokenForms } from "./sanitize.js";
import type { ContextValue, ErrorContext } from "./types.js";
import type { ErrorClassOf } from "./generated/errors.js";

/**
 * The error of code `C`: its class when the catalogue defines the code, else
 * the base class (this runtime serves any catalogue the generator renders).
 */
type ErrorOf<C extends string> = C extends keyof ErrorClassOf ? InstanceType<ErrorClassOf[C]> : AgentRunError;

/** Options of {@link validateTimeout}. */
export interface ValidateTimeoutOptions {
  /** The ceiling, in seconds; defaults to the catalogue's exec timeout ceiling. */
  readonly maxTimeoutS?: number | undefined;
}

/** Options of {@link errorForExit}. */
export interface ErrorForExitOptions {
  /** The timeout, in seconds, the command ran with. */
  readonly timeoutS?: number | undefined;
  /** What the command printed to standard output before it was stopped (text, or UTF-8 bytes). */
  readonly stdout?: string | Uint8Array | undefined;
  /** What the command printed to standard error before it was stopped (text, or UTF-8 bytes). */
  readonly stderr?: string | Uint8Array | undefined;
  /** The caller's credential: redacted from the output. Never stored. */
  readonly token?: string | undefined;
}

const EXIT_TIMEOUT = 124;

function context(entries: [string, ContextValue | undefined][]): ErrorContext {
  const out = new NewContext();
  for (const [k, v] of entries) if (v !== undefined) out[k] = v;
  return Object.freeze(out);
}

function sdkError<T extends AgentRunError>(code: string, entries: [string, ContextValue | undefined][]): T {
  const spec = specOf(code) ?? CATCH_ALL;
  const fields = new CheckedFields(spec.message, code, spec.cause, spec.remediation, undefined, context(entries), undefined, undefined, undefined, specOf(code));
  return adopt(new Error(spec.message), lookup(code), fields) as T;
}

/**
 * Check a requested timeout against the ceiling before any request: it is
 * honoured or rejected, never reduced.
 *
 * @param timeoutS - The requested timeout, in seconds.
 * @param options - `maxTimeoutS`: the ceiling (default: the catalogue's).
 * @returns `timeoutS`, unchanged, when it is a positive finite number at most the ceiling.
 * @throws {@link TimeoutTooLargeError} above the ceiling (context `requested_s`, `max_timeout_s`).
 * @throws {@link InvalidInputError} for zero, a negative number, NaN, an
 *   infinity or a non-number (context `requested_s` when it is a finite number).
 */
export function validateTimeout(timeoutS: number, options?: ValidateTimeoutOptions): number {
  const max = options?.maxTimeoutS ?? LIMITS.maxExecTimeoutS;
  if (typeof timeoutS !== "number" || !Number.isFinite(timeoutS)) {
    throw sdkError<ErrorOf<"invalid_input">>("invalid_input", []);
  }
  // The context keeps numbers by the contract's value rule (an integral one within ±(2^53 − 1)).
  if (timeoutS <= 0) {
    throw sdkError<ErrorOf<"invalid_input">>("invalid_input", [["requested_s", contextValue(timeoutS)]]);
  }
  if (timeoutS > max) {
    throw sdkError<ErrorOf<"timeout_too_large">>("timeout_too_large", [
      ["requested_s", contextValue(timeoutS)],
      ["max_timeout_s", contextValue(max)],
    ]);
  }
  return timeoutS;
}

/**
 * The error of a finished exec: exit code 124 (the conventional timeout
 * status) is the execution deadline; any other exit code is not an error.
 *
 * @param exitCode - The command's exit status.
 * @param options - `timeoutS` the command ran with; `stdout` and `stderr`
 *   it printed (sanitized and capped); `token` to redact from them.
 * @returns An {@link ExecutionDeadlineError} for 124 (not thrown), else undefined.
 */
export function errorForExit(exitCode: number, options?: ErrorForExitOptions): ErrorOf<"exec_timeout"> | undefined {
  if (exitCode !== EXIT_TIMEOUT) return undefined; // a number, and exactly 124
  const forms = tokenForms(options?.token);
  const entries: [string, ContextValue | undefined][] = [["exit_code", EXIT_TIMEOUT]];
  const timeoutS = options?.timeoutS;
  if (typeof timeoutS === "number") entries.push(["timeout_s", contextValue(timeoutS)]);
  // Always both streams, empty when not given, as the Python SDK does.
  for (const stream of ["stdout", "stderr"] as const) {
    const output = options?.[stream];
    const text = typeof output === "string" ? output : output instanceof Uint8Array ? new TextDecoder().decode(output) : "";
    entries.push([stream, sanitizeWithForms(text, forms)]);
  }
  return sdkError<ErrorOf<"exec_timeout">>("exec_timeout", entries);
}

