/**
 * The catalogue as the runtime reads it: the spec of a code, the fallback
 * code of a status, the catch-all of an unknown code, and context values.
 *
 * @module
 */

import { CATCH_ALL, CODES, FALLBACK, GRPC_GATEWAY, RETRY_AFTER_MAX_MS, SPECS } from "./generated/catalogue.js";
import type { CodeSpec, CodeTexts, ContextValue, ErrorContext } from "./types.js";

// Nothing here runs at import: the tables are built on first use, so that a
// bundler keeps only what its user's code reaches.

/** The spec of the base class: the catch-all of a code the catalogue does not define (generated). */
export { CATCH_ALL };

// Every error of a code shares its spec (and its recovery advice): the
// generated specs are frozen, so none can change another's.
let specByCode: Map<string, CodeSpec> | undefined;

/** The spec of `code` in the catalogue, or undefined for an unknown code (safe for any string). */
export function specOf(code: string): CodeSpec | undefined {
  return (specByCode ??= new Map(SPECS.map((specOfCode) => {
    const spec = specOfCode();
    return [spec.code, spec];
  }))).get(code);
}

let codeSet: Set<string> | undefined;

/** Whether `code` is a code of the catalogue, by its name alone (no spec or text is reached). */
export function isCatalogueCode(code: string): boolean {
  return (codeSet ??= new Set(CODES)).has(code);
}

let fallbackByStatus: Map<number, string> | undefined;

/**
 * The code a response of `status` without an envelope gets: the exact
 * status, else its class (400-499, 500-599), else the default.
 */
export function fallbackCode(status: number | undefined): string {
  if (status === undefined || !Number.isInteger(status)) return FALLBACK.default;
  const exact = (fallbackByStatus ??= new Map(FALLBACK.byStatus)).get(status);
  if (exact !== undefined) return exact;
  if (status >= 400 && status <= 499) return FALLBACK.clientError;
  if (status >= 500 && status <= 599) return FALLBACK.serverError;
  return FALLBACK.default;
}

let grpcNames: Map<string | number, string> | undefined;
let grpcCodes: Map<string, string> | undefined;
let grpcChannels: Map<string, Map<string, string>> | undefined;

/** Options of {@link codeForGrpc}. */
export interface CodeForGrpcOptions {
  /** The channel the status came over (`"mtls"`), whose own answers come first. */
  readonly channel?: string | undefined;
}

/**
 * The code a gateway answers for a gRPC status: the catalogue's
 * `grpc_gateway` map. `status` is the status number (`5`, or `"5"` as the
 * `grpc-status` trailer carries it) or its name (`"NotFound"`, or
 * `"NOT_FOUND"` as the protocol spells it); anything else, and a status the
 * map does not list (`OK` among them), gets the map's default.
 *
 * @throws RangeError when `options.channel` is not a channel the catalogue defines.
 */
export function codeForGrpc(status: string | number, options?: CodeForGrpcOptions): string {
  let overrides: Map<string, string> | undefined;
  const channel = options?.channel;
  if (channel !== undefined) {
    grpcChannels ??= new Map(GRPC_GATEWAY.channels.map(([name, o]) => [name, new Map(o)]));
    overrides = typeof channel === "string" ? grpcChannels.get(channel) : undefined;
    if (overrides === undefined) {
      const known = [...grpcChannels.keys()].sort().join(", ") || "none";
      throw new RangeError(`unknown gRPC channel ${JSON.stringify(String(channel))}; the catalogue defines: ${known}`);
    }
  }
  if (grpcNames === undefined) {
    grpcNames = new Map();
    GRPC_GATEWAY.statusNames.forEach((name, n) => {
      for (const key of [n, String(n), name, GRPC_GATEWAY.protoNames[n] ?? name]) grpcNames?.set(key, name);
    });
  }
  // Only numbers and strings name a status (a Map compares keys by SameValueZero: -0 is 0).
  const name = typeof status === "number" || typeof status === "string" ? grpcNames.get(status) : undefined;
  if (name === undefined) return GRPC_GATEWAY.default;
  return overrides?.get(name) ?? (grpcCodes ??= new Map(GRPC_GATEWAY.byStatus)).get(name) ?? GRPC_GATEWAY.default;
}

/**
 * Fields already sanitized and checked; the error constructor takes them as
 * they are. `spec` is the catalogue entry (texts or spec) of the code (undefined for a code
 * the catalogue does not define), which picks the class; the error does not
 * keep it. The members are assigned in the constructor, in one order, with no
 * class-field initializers, so that every instance has one shape.
 */
export class CheckedFields {
  declare readonly message: string;
  declare readonly code: string;
  declare readonly errorCause: string;
  declare readonly remediation: string;
  declare readonly status: number | undefined;
  declare readonly context: ErrorContext;
  declare readonly retryAfterMs: number | undefined;
  declare readonly requestId: string | undefined;
  declare readonly cause: unknown;
  declare readonly spec: CodeTexts | undefined;
  constructor(
    message: string,
    code: string,
    errorCause: string,
    remediation: string,
    status: number | undefined,
    context: ErrorContext,
    retryAfterMs: number | undefined,
    requestId: string | undefined,
    cause: unknown,
    spec: CodeTexts | undefined,
  ) {
    this.message = message;
    this.code = code;
    this.errorCause = errorCause;
    this.remediation = remediation;
    this.status = status;
    this.context = context;
    this.retryAfterMs = retryAfterMs;
    this.requestId = requestId;
    this.cause = cause;
    this.spec = spec;
  }
}

/**
 * A new, empty context object. Its prototype is a frozen empty object with
 * no prototype, so nothing is inherited (no `toString`, no `__proto__`
 * setter: a key `__proto__` is an ordinary own key), and it stays a fast
 * object, which `Object.create(null)` is not. Freeze it once filled.
 */
export const NewContext = /* @__PURE__ */ (() => {
  // Built by a pure call, so that a bundle that makes no context drops it.
  const Context = function Context(this: Record<string, ContextValue>) {} as unknown as {
    new (): Record<string, ContextValue>;
    prototype: Record<string, ContextValue>;
  };
  Context.prototype = Object.freeze(Object.create(null) as object) as Record<string, ContextValue>;
  return Context;
})();

/** The frozen empty context. */
export const EMPTY_CONTEXT: ErrorContext = /* @__PURE__ */ Object.freeze(/* @__PURE__ */ new NewContext());

/**
 * A delay the context or a header gave (an integer ≥ 0), cut to the
 * catalogue's `RETRY_AFTER_MAX_MS` (at most 2^31 - 1, so `setTimeout` waits it).
 */
export function boundedDelay(ms: number): number {
  return Math.min(ms, RETRY_AFTER_MAX_MS);
}

/**
 * A context value as kept (the contract's value rule), or undefined when it
 * is dropped: text (not sanitized here), a boolean, null, or a finite number
 * that, if integral, is within ±(2^53 − 1).
 */
export function contextValue(value: unknown): ContextValue | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) return undefined;
      if (Number.isInteger(value) && Math.abs(value) > Number.MAX_SAFE_INTEGER) return undefined;
      return value + 0; // -0 becomes 0, as Python's int(-0.0) does
    default:
      return value === null ? null : undefined;
  }
}
