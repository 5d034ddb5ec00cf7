/**
 * `@mitos/errors/compat`: the error names of the Mitos TypeScript SDK
 * (`@mitos/sdk`, its `src/errors.ts`), built on this package's one runtime.
 *
 * Moving over is one line in place of the body of that file:
 *
 * ```ts
 * export * from "@mitos/errors/compat";
 * ```
 *
 * Every class here is a class of this package under the Mitos constructor
 * `(message, { code, cause, remediation, context })`, where `cause` is the
 * call-site text (the error's `errorCause`, not the standard `Error.cause`).
 * `instanceof` holds both ways: an error of this package is an instance of
 * the compat class of its code and of the compat `AgentRunError`, and an
 * error built here is an instance of the package's own classes. What a
 * caller can see change is listed in docs/migrating-from-mitos-run.md.
 *
 * This entry point imports the package's main entry, never a copy of it:
 * one runtime, one set of classes.
 *
 * @module
 */

import * as errors from "../index.js";

/** The options of the Mitos constructor and of {@link errorForCode}. */
export interface AgentRunErrorOptions {
  /** The code: a catalogue code, or any other (kept as given, sanitized). */
  code: string;
  /** One sentence of call-site detail: the error's `errorCause` (sanitized). */
  cause?: string | undefined;
  /** The next action; left out: the catalogue's for a typed class, none for the base class. */
  remediation?: string | undefined;
  /** Structured context (text, finite numbers, booleans and null are kept). */
  context?: Record<string, unknown> | undefined;
}

/** The package's fields of the Mitos options: `cause` is the error's `errorCause`. */
function fieldsOf(opts: AgentRunErrorOptions): errors.AgentRunErrorInit & errors.ErrorForCodeOptions {
  return { code: opts.code, errorCause: opts.cause, remediation: opts.remediation, context: opts.context };
}

/** The ordinary `instanceof` (the prototype chain), which a class's own `Symbol.hasInstance` replaces. */
function inChain(cls: object, value: unknown): boolean {
  return Function.prototype[Symbol.hasInstance].call(cls, value);
}

/**
 * The prototype whose catalogue entry classifies `error`: the class of its
 * code. The compat base class is classified by its code, as the Mitos SDK
 * constructs it with catalogue codes (`new AgentRunError(msg, { code:
 * "ready_timeout", ... })` is retryable); the package's own base class keeps
 * the catch-all's classification (docs/sdk-contract.md section 3).
 */
function classifier(error: errors.AgentRunError): errors.AgentRunError {
  return errors.lookup(error.code).prototype;
}

/**
 * The Mitos SDK's base error: every error of this package is an instance
 * (`err instanceof AgentRunError` catches them all), and every instance is
 * one of the package's `AgentRunError`.
 *
 * Built with a catalogue code it is classified as that code (`retryable`,
 * `recovery`, `sideEffects`, `origin`, `isAuthFailure`, `isCancelled`); its
 * class stays the base class, as in the Mitos SDK (use {@link errorForCode}
 * for the code's class).
 */
export class AgentRunError extends errors.AgentRunError {
  /**
   * @param message - The one-line summary.
   * @param opts - `code` (required), `cause` (the call-site text),
   *   `remediation`, `context`.
   */
  constructor(message: string, opts: AgentRunErrorOptions) {
    super(message, fieldsOf(opts));
  }

  /**
   * The error of a non-2xx response: its envelope's code and texts, or the
   * catalogue's fallback code of `status` for a body that is no envelope.
   * Every text is sanitized and `token` redacted in every form.
   */
  static fromResponse(status: number, bodyText: string, token?: string): AgentRunError {
    return errors.errorFromBody(bodyText, { status, token });
  }

  /** Any error of this package, for this class; the prototype chain, for a subclass of it. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return this === AgentRunError ? value instanceof errors.AgentRunError : inChain(this, value);
  }

  override get retryable(): boolean {
    return classifier(this).retryable;
  }

  override get recovery(): errors.AgentRunError["recovery"] {
    return classifier(this).recovery;
  }

  override get sideEffects(): errors.SideEffects {
    return classifier(this).sideEffects;
  }

  override get origin(): errors.AgentRunError["origin"] {
    return classifier(this).origin;
  }

  override get isAuthFailure(): boolean {
    return classifier(this).isAuthFailure;
  }

  override get isCancelled(): boolean {
    return classifier(this).isCancelled;
  }
}

/** A typed class of the package under the Mitos constructor and with `fromResponse`. */
type MitosClass<C extends abstract new (...args: never[]) => errors.AgentRunError> = (new (
  message: string,
  opts: AgentRunErrorOptions,
) => InstanceType<C>) &
  Omit<C, "prototype"> & { readonly prototype: InstanceType<C>; readonly fromResponse: typeof AgentRunError.fromResponse };

/**
 * The compat class of a typed class of the package: a subclass taking the
 * Mitos constructor (its `code` must be the class's own, or a finer code the
 * catalogue does not define), of which every instance of `base` is an
 * instance too.
 */
function mitosClass<C extends typeof errors.AgentRunError>(base: C): MitosClass<C> {
  const typed: typeof errors.AgentRunError = base;
  class Compat extends typed {
    constructor(message: string, opts: AgentRunErrorOptions) {
      super(message, fieldsOf(opts));
    }

    static fromResponse = AgentRunError.fromResponse;

    static override [Symbol.hasInstance](value: unknown): boolean {
      return this === Compat ? value instanceof base : inChain(this, value);
    }
  }
  Object.defineProperty(Compat, "name", { value: base.name });
  return Compat as unknown as MitosClass<C>;
}

/** The sandbox was reaped after its idle timeout (`idle_timeout`). */
export const IdleTimeoutError = mitosClass(errors.IdleTimeoutError);
export type IdleTimeoutError = errors.IdleTimeoutError;
/** A command ran past its execution deadline (`exec_timeout`). */
export const ExecutionDeadlineError = mitosClass(errors.ExecutionDeadlineError);
export type ExecutionDeadlineError = errors.ExecutionDeadlineError;
/** The caller cancelled the request (`canceled`). */
export const RequestCanceledError = mitosClass(errors.RequestCanceledError);
export type RequestCanceledError = errors.RequestCanceledError;
/** The request rate limit was exceeded (`rate_limited`). */
export const RateLimitedError = mitosClass(errors.RateLimitedError);
export type RateLimitedError = errors.RateLimitedError;
/** No such sandbox (`not_found`). */
export const NotFoundError = mitosClass(errors.NotFoundError);
export type NotFoundError = errors.NotFoundError;
/** The bearer token is missing or invalid (`unauthorized`). */
export const UnauthorizedError = mitosClass(errors.UnauthorizedError);
export type UnauthorizedError = errors.UnauthorizedError;
/** A requested timeout is over the ceiling; rejected, never reduced (`timeout_too_large`). */
export const TimeoutTooLargeError = mitosClass(errors.TimeoutTooLargeError);
export type TimeoutTooLargeError = errors.TimeoutTooLargeError;

/**
 * The error of `opts.code`, as if a server had sent it: the class of a
 * catalogue code (every catalogue code has one, not only the seven above),
 * the base class for any other code. A text left out or empty takes the
 * catalogue's. Never throws.
 */
export function errorForCode(message: string, opts: AgentRunErrorOptions): AgentRunError {
  return errors.errorForCode(opts.code, message, fieldsOf(opts));
}

/** The exec and run_code timeout ceiling, in seconds: the catalogue's. */
export const MAX_EXEC_TIMEOUT_SECONDS: number = errors.LIMITS.maxExecTimeoutS;

/**
 * The exit status of a command stopped at its execution deadline (that of
 * `timeout(1)`): the Mitos SDK's name for the status the package's
 * `errorForExit` reads as the deadline (tests/compat.test.ts holds the two
 * equal; this entry imports nothing but the package's public API).
 */
export const EXEC_TIMEOUT_EXIT_CODE: number = 124;

/**
 * Reject a timeout over {@link MAX_EXEC_TIMEOUT_SECONDS} with a
 * {@link TimeoutTooLargeError} (context `requested_s`, `max_timeout_s`);
 * never reduce it. Any other value passes, as in the Mitos SDK (the server
 * judges zero and negative timeouts).
 */
export function validateTimeout(timeoutSeconds: number): void {
  if (timeoutSeconds > MAX_EXEC_TIMEOUT_SECONDS) errors.validateTimeout(timeoutSeconds);
}

/**
 * `text` sanitized: every form of `token` (as given, URL-encoded, base64)
 * and secret-like strings replaced by `[REDACTED]`, control and invisible
 * characters removed, the length capped. The Mitos SDK replaced only the
 * literal token, and left the text alone without one.
 */
export function redact(text: string, token?: string): string {
  return errors.sanitizeText(text, { token });
}
