/**
 * The base class of every error.
 *
 * The tree: `Error` > `AgentRunError` (any code; the class of unknown codes)
 * > one generated class per catalogue code (generated/errors.ts).
 *
 * @module
 */

import { fillTexts } from "./fields.js";
import type { Origin, Recovery } from "./generated/envelope.js";
import { CATCH_ALL, isCatalogueCode, type CheckedFields } from "./spec.js";
import type { CodeSpec, ErrorContext, SideEffects } from "./types.js";

/** What an error is built from; every member is optional. */
export interface AgentRunErrorInit {
  /**
   * The code: required by the base class (the class of codes the catalogue
   * does not define), which keeps any code as given (sanitized) and still
   * describes itself: the catch-all's texts and classification, never those
   * of the code (use {@link errorForCode} for a code's class); a generated
   * class has its own, and also takes a code the catalogue does not define
   * (a finer code refining its own).
   */
  readonly code?: string | undefined;
  /** The envelope `cause`; empty or left out: the class's catalogue text (none for the base class). */
  readonly errorCause?: string | undefined;
  /** The remediation; empty or left out: the class's catalogue text (none for the base class). */
  readonly remediation?: string | undefined;
  /** The HTTP status of the response, if there was one (an integer). */
  readonly status?: number | undefined;
  /** Structured context; keeps text, finite numbers, booleans and null. */
  readonly context?: Readonly<Record<string, unknown>> | undefined;
  /** How long to wait before retrying, in milliseconds (an integer ≥ 0); else the context's `retry_after_ms`. */
  readonly retryAfterMs?: number | undefined;
  /** The request id of the failed call. */
  readonly requestId?: string | undefined;
  /** The standard `Error.cause`: a lower-level error this one wraps (kept as a sanitized copy, contract section 4). */
  readonly cause?: unknown;
}

/**
 * The fields of a public constructor call, sanitized and filled from the
 * class's own spec only (the catch-all's for the base class, whatever its
 * code and status); throws TypeError on misuse.
 */
function publicFields(spec: CodeSpec, className: string, message: unknown, init: AgentRunErrorInit | undefined): CheckedFields {
  const i: AgentRunErrorInit = init ?? {};
  let code = i.code;
  const generated = spec !== CATCH_ALL;
  const own = generated && (code === undefined || code === spec.code);
  const wrongCode = (): TypeError => new TypeError(`${className} has code ${spec.code}, not ${String(code)}`);
  if (generated) {
    // A generated class also takes a code the catalogue does not know (checked once
    // sanitized, below): a finer code that refines its own.
    if (!own && typeof code !== "string") throw wrongCode();
    code ??= spec.code;
  } else if (typeof code !== "string") {
    throw new TypeError(`${className} needs a code`);
  }
  if (i.status !== undefined && !Number.isInteger(i.status)) throw new TypeError("status must be an integer");
  const delay = i.retryAfterMs;
  if (delay !== undefined && !(Number.isSafeInteger(delay) && delay >= 0)) {
    throw new TypeError("retryAfterMs must be an integer of at least 0");
  }
  const text = (value: unknown): string | undefined => (value === undefined || value === null ? undefined : String(value));
  const given = {
    code,
    message: text(message),
    cause: text(i.errorCause),
    remediation: text(i.remediation),
    context: i.context,
    requestId: text(i.requestId),
  };
  const fields = fillTexts(given, i.status, { trustedCode: own, delay, cause: i.cause }, spec);
  // A finer code is one the catalogue does not define, once sanitized.
  if (generated && !own && (fields.code === "" || isCatalogueCode(fields.code))) throw wrongCode();
  return fields;
}

/**
 * The base of every error of this package, and the class of a code the
 * catalogue does not define (its `code` is kept as sent) when no code of
 * the envelope's `refines` chain is one it does.
 *
 * Branch on the class (`err instanceof RateLimitedError`) or on `code`, never
 * on `message`. `errorCause` is the envelope's `cause`; the standard
 * `Error.cause` keeps its meaning (a wrapped lower-level error), as a
 * sanitized copy that holds only its name, message, code and stack, never
 * the original object (an HTTP client's error holds the request's
 * credentials; docs/sdk-contract.md section 4). The
 * classification (`retryable`, `recovery`, `sideEffects`, `origin`,
 * `isAuthFailure`, `isCancelled`) comes from the catalogue entry of the class.
 *
 * `instanceof` works across the ESM and CommonJS builds of the package.
 */
export class AgentRunError extends Error {
  // Only accessors (methods) here and in each generated class, and nothing
  // outside the class: a bundler drops the class when nothing uses it, and
  // defining a class runs no field initializer at import (each would be a
  // function V8 compiles; docs/benchmarks-typescript.md, "Import").
  /**
   * @internal The catalogue spec of the class (frozen; the catch-all for
   * the base class), inherited by a user's subclass. Its class name, with
   * the package of the catch-all at the root of the class's chain, brands
   * the class so that `instanceof` holds across copies of the package.
   */
  static get spec(): CodeSpec {
    return CATCH_ALL;
  }

  /** The code of the class; none for the base class (a generated class narrows it to its literal). */
  static get code(): string | undefined {
    return ownSpec(this)?.code;
  }

  /** The HTTP status servers send this class with; none for the base class. */
  static get httpStatus(): number | undefined {
    return ownSpec(this)?.httpStatus;
  }

  /** The gRPC status this class maps to; none for the base class. */
  static get grpcStatus(): string | undefined {
    return ownSpec(this)?.grpcStatus;
  }

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

  /**
   * Build an error. Every text is sanitized on the way in (without a token:
   * prefer {@link errorForCode}, which takes one); an empty or missing text
   * takes the catalogue's text of the class (a constructor describes its own
   * class: the base class has the catch-all's, empty, whatever `code` and
   * `status` it is given).
   *
   * @param message - The one-line summary.
   * @param init - The other fields; the base class needs `code`.
   * @throws TypeError when the base class gets no code, a generated class
   *   another catalogue code (or one that is one, or empty, once sanitized),
   *   or `status`/`retryAfterMs` are not integers.
   */
  constructor(message?: string, init?: AgentRunErrorInit) {
    const f = publicFields(new.target.spec, new.target.prototype.name, message, init);
    super(f.message, f.cause !== undefined ? { cause: f.cause } : undefined);
    this.code = f.code;
    this.errorCause = f.errorCause;
    this.remediation = f.remediation;
    this.status = f.status;
    this.context = f.context;
    this.retryAfterMs = f.retryAfterMs;
    this.requestId = f.requestId;
  }

  /**
   * The class name (for messages and stack traces, safe from minifiers):
   * the catalogue's name of the class. Assigning it gives this object (or
   * prototype) a `name` of its own, as assigning an inherited data property does.
   */
  override get name(): string {
    return classSpec(this).className;
  }

  override set name(value: string) {
    Object.defineProperty(this, "name", { value, writable: true, enumerable: true, configurable: true });
  }

  /** Whether sending the same request again later may succeed. The SDK never retries on its own. */
  get retryable(): boolean {
    return classSpec(this).retryable;
  }

  /** What to do next: `action`, `same_arguments`, `guidance`. */
  get recovery(): Readonly<Recovery> {
    return classSpec(this).recovery;
  }

  /** Whether the failed call may have changed something. */
  get sideEffects(): SideEffects {
    return classSpec(this).sideEffects;
  }

  /** Where the failure arose (`validation`, `transport`...); `runtime` for an unknown code. */
  get origin(): Origin {
    return classSpec(this).origin;
  }

  /** Whether the credential is missing, invalid or not permitted. */
  get isAuthFailure(): boolean {
    return classSpec(this).isAuthFailure;
  }

  /** Whether the caller cancelled the request. */
  get isCancelled(): boolean {
    return classSpec(this).isCancelled;
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
      origin: this.origin,
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
    const brand = brandOf(this);
    if (brand === undefined) return false; // a user's subclass: the ordinary check above decides
    for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
      if (Object.hasOwn(proto, "constructor") && brandOf(proto.constructor) === brand) return true;
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
  origin: Origin;
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

/** The spec of a class, unless it is the catch-all's (the base class's, or a user's subclass of it). */
function ownSpec(cls: typeof AgentRunError): CodeSpec | undefined {
  const spec = cls.spec;
  return spec === CATCH_ALL ? undefined : spec;
}

/** The spec of an error (or of a class's prototype): its class's. */
function classSpec(error: object): CodeSpec {
  const spec = (error.constructor as { spec?: unknown } | undefined)?.spec;
  return typeof spec === "object" && spec !== null ? (spec as CodeSpec) : CATCH_ALL;
}

/**
 * The brand of a class of a copy of this package: its package (kept by the
 * catch-all spec of the base class at the root of its chain) and its class
 * name; undefined for anything else, a user's subclass included (it has no
 * spec of its own).
 */
function brandOf(cls: unknown): string | undefined {
  if (typeof cls !== "function" || !Object.hasOwn(cls, "spec")) return undefined;
  const name = (cls as { spec?: { className?: unknown } }).spec?.className;
  for (let c: unknown = cls; typeof c === "function"; c = Object.getPrototypeOf(c)) {
    const pkg = Object.hasOwn(c, "spec") ? (c as { spec?: { package?: unknown } }).spec?.package : undefined;
    if (typeof pkg === "string") return `${pkg}#${String(name)}`;
  }
  return undefined;
}
