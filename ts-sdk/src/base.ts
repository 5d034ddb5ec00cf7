/**
 * The base class of every error, and the one helper the generated classes
 * call to declare themselves.
 *
 * The tree: `Error` > `AgentRunError` (any code; the class of unknown codes)
 * > one generated class per catalogue code (generated/errors.ts).
 *
 * @module
 */

import { fill } from "./fields.js";
import { BASE_CLASS_NAME, PACKAGE_NAME } from "./generated/catalogue.js";
import type { Recovery } from "./generated/envelope.js";
import { CATCH_ALL, specOf, type CheckedFields } from "./spec.js";
import type { CodeSpec, ErrorContext, SideEffects } from "./types.js";

/**
 * The catalogue spec of a class, kept on its prototype. The key is shared by
 * every copy of this package (the ESM and the CommonJS build, or two
 * installed copies): the spec's class name brands the class, so that
 * `instanceof` holds across copies.
 */
const SPEC: unique symbol = Symbol.for(`${PACKAGE_NAME}#spec`);

/** What an error is built from; every member is optional. */
export interface AgentRunErrorInit {
  /**
   * The code: required by the base class (the class of codes the catalogue
   * does not define); a generated class has its own and accepts no other.
   */
  readonly code?: string | undefined;
  /** The envelope `cause`; empty or left out: the catalogue's. */
  readonly errorCause?: string | undefined;
  /** The remediation; empty or left out: the catalogue's. */
  readonly remediation?: string | undefined;
  /** The HTTP status of the response, if there was one (an integer). */
  readonly status?: number | undefined;
  /** Structured context; keeps text, finite numbers, booleans and null. */
  readonly context?: Readonly<Record<string, unknown>> | undefined;
  /** How long to wait before retrying, in milliseconds (an integer ≥ 0); else the context's `retry_after_ms`. */
  readonly retryAfterMs?: number | undefined;
  /** The request id of the failed call. */
  readonly requestId?: string | undefined;
  /** The standard `Error.cause`: a lower-level error this one wraps. */
  readonly cause?: unknown;
}

/** The fields of a public constructor call, sanitized and filled; throws TypeError on misuse. */
function publicFields(spec: CodeSpec, className: string, message: unknown, init: AgentRunErrorInit | undefined): CheckedFields {
  const i: AgentRunErrorInit = init ?? {};
  let code = i.code;
  if (spec !== CATCH_ALL) {
    if (code !== undefined && code !== spec.code) throw new TypeError(`${className} has code ${spec.code}, not ${String(code)}`);
    code = spec.code;
  } else if (typeof code !== "string" || code === "") {
    throw new TypeError(`${className} needs a code`);
  }
  if (i.status !== undefined && !Number.isInteger(i.status)) throw new TypeError("status must be an integer");
  const delay = i.retryAfterMs;
  if (delay !== undefined && !(Number.isSafeInteger(delay) && delay >= 0)) {
    throw new TypeError("retryAfterMs must be an integer of at least 0");
  }
  const text = (value: unknown): string | undefined => (value === undefined || value === null ? undefined : String(value));
  const error = {
    code,
    message: text(message),
    cause: text(i.errorCause),
    remediation: text(i.remediation),
    context: i.context,
    request_id: text(i.requestId),
  };
  return fill(error, i.status, { trustedCode: spec !== CATCH_ALL, delay, cause: i.cause });
}

/**
 * The base of every error of this package, and the class of a code the
 * catalogue does not define (its `code` is kept as sent).
 *
 * Branch on the class (`err instanceof RateLimitedError`) or on `code`, never
 * on `message`. `errorCause` is the envelope's `cause`; the standard
 * `Error.cause` keeps its meaning (a wrapped lower-level error). The
 * classification (`retryable`, `recovery`, `sideEffects`, `isAuthFailure`,
 * `isCancelled`) comes from the catalogue entry of the class.
 *
 * `instanceof` works across the ESM and CommonJS builds of the package.
 */
export class AgentRunError extends Error {
  /** The code of the class; none for the base class. */
  declare static readonly code: string | undefined;
  /** The HTTP status servers send this class with; none for the base class. */
  declare static readonly httpStatus: number | undefined;
  /** The gRPC status this class maps to; none for the base class. */
  declare static readonly grpcStatus: string | undefined;

  /** The stable machine code, such as `rate_limited`. */
  declare readonly code: string;
  /** The envelope's `cause`: one sentence of call-site detail. */
  declare readonly errorCause: string;
  /** The next action that fixes or works around the error. */
  declare readonly remediation: string;
  /** The HTTP status of the response; none for an error the SDK raised itself. */
  declare readonly status: number | undefined;
  /** Structured context: read-only, and nothing inherited (no `Object.prototype`). */
  declare readonly context: ErrorContext;
  /** How long to wait before retrying, in milliseconds, when the response said. */
  declare readonly retryAfterMs: number | undefined;
  /** The request id of the failed call, when the response carried one. */
  declare readonly requestId: string | undefined;
  declare private readonly [SPEC]: CodeSpec;

  /**
   * Build an error. Every text is sanitized on the way in (without a token:
   * prefer {@link errorForCode}, which takes one); an empty or missing text
   * takes the catalogue's.
   *
   * @param message - The one-line summary.
   * @param init - The other fields; the base class needs `code`.
   * @throws TypeError when the base class gets no code, a generated class
   *   another code than its own, or `status`/`retryAfterMs` are not integers.
   */
  constructor(message?: string, init?: AgentRunErrorInit) {
    const f = publicFields(new.target.prototype[SPEC], new.target.prototype.name, message, init);
    super(f.message, f.cause !== undefined ? { cause: f.cause } : undefined);
    this.code = f.code;
    this.errorCause = f.errorCause;
    this.remediation = f.remediation;
    this.status = f.status;
    this.context = f.context;
    this.retryAfterMs = f.retryAfterMs;
    this.requestId = f.requestId;
  }

  /** Whether sending the same request again later may succeed. The SDK never retries on its own. */
  get retryable(): boolean {
    return this[SPEC].retryable;
  }

  /** What to do next: `action`, `same_arguments`, `guidance`. */
  get recovery(): Readonly<Recovery> {
    return this[SPEC].recovery;
  }

  /** Whether the failed call may have changed something. */
  get sideEffects(): SideEffects {
    return this[SPEC].sideEffects;
  }

  /** Whether the credential is missing, invalid or not permitted. */
  get isAuthFailure(): boolean {
    return this[SPEC].isAuthFailure;
  }

  /** Whether the caller cancelled the request. */
  get isCancelled(): boolean {
    return this[SPEC].isCancelled;
  }

  /**
   * The error as JSON, for logs: the envelope fields and the
   * classification, under the same names and in the same order as the
   * Python SDK's `to_dict()`. It holds nothing the error does not show.
   */
  toJSON(): AgentRunErrorJSON {
    return {
      type: this.name,
      code: this.code,
      message: this.message,
      cause: this.errorCause,
      remediation: this.remediation,
      context: this.context,
      status: this.status ?? null,
      request_id: this.requestId ?? null,
      retry_after_ms: this.retryAfterMs ?? null,
      retryable: this.retryable,
      is_auth_failure: this.isAuthFailure,
      is_cancelled: this.isCancelled,
      recovery: this.recovery,
      side_effects: this.sideEffects,
    };
  }

  /**
   * `instanceof` that also recognises errors made by another copy of this
   * package (the other of its ESM and CommonJS builds): a value is an
   * instance of a class of this package when its prototype chain holds a
   * class of the same name from any copy.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    if (typeof value !== "object" || value === null || typeof this !== "function") return false;
    const own = this.prototype as unknown as Record<symbol, unknown>;
    if (!Object.hasOwn(own, SPEC)) return false; // a user's subclass: the ordinary check above decides
    const brand = brandOf(own[SPEC]);
    for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
      if (Object.hasOwn(proto, SPEC) && brandOf(proto[SPEC]) === brand) return true;
    }
    return false;
  }
}

/** The JSON form of an error ({@link AgentRunError.toJSON}); the names are the wire's. */
export interface AgentRunErrorJSON {
  /** The class name. */
  type: string;
  code: string;
  message: string;
  cause: string;
  remediation: string;
  context: ErrorContext;
  status: number | null;
  request_id: string | null;
  retry_after_ms: number | null;
  retryable: boolean;
  is_auth_failure: boolean;
  is_cancelled: boolean;
  recovery: Readonly<Recovery>;
  side_effects: SideEffects;
}

/** The members an error stores besides `message`, `stack` and `cause`. */
type Stored = "code" | "errorCause" | "remediation" | "status" | "context" | "retryAfterMs" | "requestId";

/**
 * Make `error`, a plain `Error` just constructed with the message (and
 * `cause`) of `fields`, an instance of `cls` holding `fields`: the same
 * object and stack as `new cls()`, for less
 * (docs/benchmarks-typescript.md, "How errors are built").
 */
export function adopt(error: Error, cls: typeof AgentRunError, fields: CheckedFields): AgentRunError {
  const e = error as Error & { -readonly [K in Stored]: AgentRunError[K] };
  // Stored before the prototype changes: one chain of hidden classes for every class.
  e.code = fields.code;
  e.errorCause = fields.errorCause;
  e.remediation = fields.remediation;
  e.status = fields.status;
  e.context = fields.context;
  e.retryAfterMs = fields.retryAfterMs;
  e.requestId = fields.requestId;
  return Object.setPrototypeOf(e, cls.prototype) as AgentRunError;
}

/** The brand of a spec: the name of the class it belongs to. */
function brandOf(spec: unknown): unknown {
  return typeof spec === "object" && spec !== null ? (spec as { className?: unknown }).className : undefined;
}

function declareClass(cls: typeof AgentRunError, name: string, spec: CodeSpec): void {
  // Plain assignment for the statics: it costs a third of defineProperty at import time.
  const statics = cls as unknown as Record<string, unknown>;
  statics["code"] = spec === CATCH_ALL ? undefined : spec.code;
  statics["httpStatus"] = spec.httpStatus;
  statics["grpcStatus"] = spec.grpcStatus;
  Object.defineProperty(cls.prototype, "name", { value: name, writable: true, configurable: true });
  Object.defineProperty(cls.prototype, SPEC, { value: spec });
}

declareClass(AgentRunError, BASE_CLASS_NAME, CATCH_ALL);

/**
 * Declare a generated class: its name (for `name` and stack traces, safe
 * from minifiers), its code, statuses and classification from the catalogue
 * spec, and its cross-build brand. Called once for each generated class.
 *
 * @throws TypeError when `code` is not in the catalogue (a generator bug).
 */
export function defineErrorClass(cls: typeof AgentRunError, name: string, code: string): void {
  const spec = specOf(code);
  if (spec === undefined) throw new TypeError(`${name}: code ${code} is not in the catalogue`);
  declareClass(cls, name, spec);
}
