/**
 * Errors the SDK raises itself, before or after a request
 * (docs/sdk-contract.md section 3).
 *
 * @module
 */

import { adopt, type AgentRunError } from "./base.js";
import { CATCH_ALL, CheckedFields, NewContext, contextValue, specOf } from "./spec.js";
import { LIMITS, SDK_EXEC_DEADLINE, SDK_VALIDATION } from "./generated/catalogue.js";
import { lookup } from "./parse.js";
import { sanitizeWithForms, tokenForms } from "./sanitize.js";
import type { ContextValue, ErrorContext } from "./types.js";
import type { ErrorClassOf } from "./generated/errors.js";

/**
 * The error of code `C`: its class when the catalogue defines the code, else
 * the base class (this runtime serves any catalogue the generator renders).
 */
type ErrorOf<C extends string> = C extends keyof ErrorClassOf ? InstanceType<ErrorClassOf[C]> : AgentRunError;

// The codes of these errors and the deadline's exit status are the catalogue's
// (its `sdk` section); a catalogue that declares no validation, or no exec
// deadline, has no `validateTimeout`, or no `errorForExit`, in its package
// (generated/helpers.ts exports each only when declared).
type Validation = NonNullable<typeof SDK_VALIDATION>;
type Deadline = NonNullable<typeof SDK_EXEC_DEADLINE>;

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
  const codes = SDK_VALIDATION;
  if (codes === undefined) throw new Error("validateTimeout needs the catalogue's sdk.validation codes");
  // The ceiling, limits.max_exec_timeout_s, is a limit only some APIs have: a catalogue with
  // sdk.validation has it (errcat checks), but the type of LIMITS names it only when it does.
  const ceiling = (LIMITS as unknown as { readonly maxExecTimeoutS?: number }).maxExecTimeoutS;
  const max = options?.maxTimeoutS ?? ceiling ?? Infinity;
  if (typeof timeoutS !== "number" || !Number.isFinite(timeoutS)) {
    throw sdkError<ErrorOf<Validation["invalid"]>>(codes.invalid, []);
  }
  // The context keeps numbers by the contract's value rule (an integral one within ±(2^53 − 1)).
  if (timeoutS <= 0) {
    throw sdkError<ErrorOf<Validation["invalid"]>>(codes.invalid, [["requested_s", contextValue(timeoutS)]]);
  }
  if (timeoutS > max) {
    throw sdkError<ErrorOf<Validation["tooLarge"]>>(codes.tooLarge, [
      ["requested_s", contextValue(timeoutS)],
      ["max_timeout_s", contextValue(max)],
    ]);
  }
  return timeoutS;
}

/**
 * The error of a finished exec: the exit status of the catalogue's
 * `sdk.exec_deadline` (124, `timeout(1)`'s) is the
 * execution deadline; any other exit code is not an error.
 *
 * @param exitCode - The command's exit status.
 * @param options - `timeoutS` the command ran with; `stdout` and `stderr`
 *   it printed (sanitized and capped); `token` to redact from them.
 * @returns The error of the deadline's code (an instance of the
 *   code's class; not thrown) for the deadline's status, else undefined.
 */
export function errorForExit(exitCode: number, options?: ErrorForExitOptions): ErrorOf<Deadline["code"]> | undefined {
  const deadline = SDK_EXEC_DEADLINE;
  if (deadline === undefined) throw new Error("errorForExit needs the catalogue's sdk.exec_deadline");
  if (exitCode !== deadline.exitStatus) return undefined; // a number, and exactly that status
  const forms = tokenForms(options?.token);
  const entries: [string, ContextValue | undefined][] = [["exit_code", deadline.exitStatus]];
  const timeoutS = options?.timeoutS;
  if (typeof timeoutS === "number") entries.push(["timeout_s", contextValue(timeoutS)]);
  // Always both streams, empty when not given, as the Python SDK does.
  for (const stream of ["stdout", "stderr"] as const) {
    const output = options?.[stream];
    const text = typeof output === "string" ? output : output instanceof Uint8Array ? new TextDecoder().decode(output) : "";
    entries.push([stream, sanitizeWithForms(text, forms)]);
  }
  return sdkError<ErrorOf<Deadline["code"]>>(deadline.code, entries);
}

