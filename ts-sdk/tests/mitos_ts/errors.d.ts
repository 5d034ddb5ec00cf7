// The public error surface of the Mitos TypeScript SDK (`@mitos/sdk`,
// sdk/typescript/src/errors.ts of the Mitos monorepo), as its callers and
// its own modules use it: written here from reading that SDK, not copied
// from it. tests/compat.test.ts holds `@mitos/errors/compat` to it.
//
// Where the compat layer is deliberately narrower or wider, this file
// states what a caller of the Mitos SDK can rely on, not the Mitos source's
// literal types: the two constants are numbers (their values are the
// catalogue's), and `context` is read, never written, by callers.

/** The second argument of the error constructors and of `errorForCode`. */
export interface AgentRunErrorOptions {
  code: string;
  /** Call-site detail, read back as `errorCause`. */
  cause?: string;
  remediation?: string;
  context?: Record<string, unknown>;
}

export declare class AgentRunError extends Error {
  readonly code: string;
  readonly errorCause?: string;
  readonly remediation?: string;
  readonly context: Readonly<Record<string, unknown>>;
  constructor(message: string, opts: AgentRunErrorOptions);
  /** The error of a non-2xx response, its body redacted of `token`. */
  static fromResponse(status: number, bodyText: string, token?: string): AgentRunError;
}

/** `idle_timeout` */
export declare class IdleTimeoutError extends AgentRunError {}
/** `exec_timeout` */
export declare class ExecutionDeadlineError extends AgentRunError {}
/** `canceled` */
export declare class RequestCanceledError extends AgentRunError {}
/** `rate_limited` */
export declare class RateLimitedError extends AgentRunError {}
/** `not_found` */
export declare class NotFoundError extends AgentRunError {}
/** `unauthorized` */
export declare class UnauthorizedError extends AgentRunError {}
/** `timeout_too_large` */
export declare class TimeoutTooLargeError extends AgentRunError {}

/** The class of `opts.code` (the base class for a code without one). */
export declare function errorForCode(message: string, opts: AgentRunErrorOptions): AgentRunError;

/** The exec timeout ceiling, in seconds. */
export declare const MAX_EXEC_TIMEOUT_SECONDS: number;

/** The exit status of a command stopped at its deadline. */
export declare const EXEC_TIMEOUT_EXIT_CODE: number;

/** Throws a `TimeoutTooLargeError` above the ceiling; returns nothing. */
export declare function validateTimeout(timeoutSeconds: number): void;

/** `text` with `token` replaced by `[REDACTED]`. */
export declare function redact(text: string, token?: string): string;
