// `@mitos/errors/compat` against the Mitos TypeScript SDK's error surface
// (tests/mitos_ts/errors.d.ts, written from the observed API): its names and
// signatures are type-checked here, and the behaviours the Mitos SDK and its
// tests rely on are run, through both builds. What differs on purpose is in
// docs/migrating-from-mitos-run.md; the tests below pin those differences too.
import { test } from "node:test";
import assert from "node:assert/strict";

import * as compat from "@mitos/errors/compat";
import type * as Mitos from "./mitos_ts/errors.js";
import { cjs, esm, LIMITS, require, SPECS } from "./support.js";

const cjsCompat = require("@mitos/errors/compat") as typeof compat;

// --- the surface, checked by the type checker --------------------------------

/** Every value the Mitos SDK's errors module exports, each of the Mitos type. */
const surface: typeof Mitos = compat;
void surface;

/** A Mitos options object is a compat one, and a compat error is a Mitos error. */
type Holds<T extends true> = T;
export type SurfaceTypes = [
  Holds<Mitos.AgentRunErrorOptions extends compat.AgentRunErrorOptions ? true : false>,
  Holds<compat.AgentRunError extends Mitos.AgentRunError ? true : false>,
  Holds<compat.NotFoundError extends Mitos.NotFoundError ? true : false>,
  Holds<ReturnType<typeof compat.validateTimeout> extends void ? true : false>,
];

/** The names of the Mitos values, each listed once (the type checker rejects a missing or extra one). */
const MITOS_VALUES: Record<keyof typeof Mitos, true> = {
  AgentRunError: true,
  IdleTimeoutError: true,
  ExecutionDeadlineError: true,
  RequestCanceledError: true,
  RateLimitedError: true,
  NotFoundError: true,
  UnauthorizedError: true,
  TimeoutTooLargeError: true,
  errorForCode: true,
  MAX_EXEC_TIMEOUT_SECONDS: true,
  EXEC_TIMEOUT_EXIT_CODE: true,
  validateTimeout: true,
  redact: true,
};

type TypedName = Exclude<keyof typeof Mitos, "AgentRunError" | "errorForCode" | "validateTimeout" | "redact" | "MAX_EXEC_TIMEOUT_SECONDS" | "EXEC_TIMEOUT_EXIT_CODE">;

/** The Mitos typed classes and their codes. */
const TYPED: [string, TypedName][] = [
  ["idle_timeout", "IdleTimeoutError"],
  ["exec_timeout", "ExecutionDeadlineError"],
  ["canceled", "RequestCanceledError"],
  ["rate_limited", "RateLimitedError"],
  ["not_found", "NotFoundError"],
  ["unauthorized", "UnauthorizedError"],
  ["timeout_too_large", "TimeoutTooLargeError"],
];

function envelope(code: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ error: { code, message: `${code} seen`, cause: "at the call site", remediation: "do this", ...extra } });
}

test("both builds export exactly the Mitos SDK's values, so `export *` of them is the whole module", () => {
  for (const module of [compat, cjsCompat]) {
    assert.deepEqual(Object.keys(module).sort(), Object.keys(MITOS_VALUES).sort());
  }
});

// --- constructors ---------------------------------------------------------------

test("the Mitos constructor: cause is the call-site text (errorCause), never the standard Error.cause", () => {
  const err = new compat.AgentRunError("fork was rejected", {
    code: "fork_rejected",
    cause: "admission webhook said no",
    remediation: "Check the pool.",
    context: { fork: "f-1", count: 2, nested: { dropped: true } },
  });
  assert.equal(err.message, "fork was rejected");
  assert.equal(err.code, "fork_rejected");
  assert.equal(err.errorCause, "admission webhook said no");
  assert.equal(err.cause, undefined);
  assert.equal(err.remediation, "Check the pool.");
  assert.deepEqual({ ...err.context }, { fork: "f-1", count: 2 });
  assert.equal(err.name, "AgentRunError");
  assert.ok(err instanceof Error);
});

test("the compat base class built with a catalogue code is classified as that code; the package's own is not", () => {
  for (const spec of SPECS) {
    const opts = { code: spec.code, cause: "c", remediation: "r" };
    const err = new compat.AgentRunError("m", opts);
    const typed = esm.lookup(spec.code).prototype;
    assert.equal(err.retryable, spec.retryable, spec.code);
    assert.equal(err.isAuthFailure, spec.isAuthFailure, spec.code);
    assert.equal(err.isCancelled, spec.isCancelled, spec.code);
    assert.equal(err.origin, spec.origin, spec.code);
    assert.equal(err.sideEffects, spec.sideEffects, spec.code);
    assert.deepEqual(err.recovery, typed.recovery, spec.code);
    assert.equal(err.toJSON().retryable, spec.retryable, spec.code);
    // The class stays the base class, and the texts the caller's.
    assert.equal(err.name, "AgentRunError");
    assert.equal(err.errorCause, "c");
    assert.ok(!(err instanceof esm.lookup(spec.code)), spec.code);
  }
  const retryable = SPECS.find((s) => s.retryable);
  assert.ok(retryable, "the catalogue has a retryable code");
  const own = new esm.AgentRunError("m", { code: retryable.code });
  assert.equal(own.retryable, false, "the package's base class keeps the catch-all's classification");
  const unknown = new compat.AgentRunError("m", { code: "made_up_code" });
  assert.equal(unknown.retryable, new esm.AgentRunError("m", { code: "made_up_code" }).retryable);
  assert.equal(unknown.origin, esm.AgentRunError.prototype.origin);
});

test("a typed compat class takes its own code, and is the package's class of that code", () => {
  for (const [code, name] of TYPED) {
    const Cls = compat[name];
    const err = new Cls(`${code} here`, { code, cause: "why" });
    assert.equal(err.code, code);
    assert.equal(err.errorCause, "why");
    assert.equal(err.name, name);
    assert.equal(Cls.name, name);
    assert.ok(err instanceof esm.lookup(code) && err instanceof cjs.lookup(code), name);
    assert.ok(err instanceof compat.AgentRunError && err instanceof cjsCompat.AgentRunError, name);
    assert.ok(err instanceof esm.AgentRunError, name);
    assert.equal(Cls.fromResponse, compat.AgentRunError.fromResponse);
  }
  assert.throws(() => new compat.NotFoundError("m", { code: "rate_limited" }), TypeError);
});

test("instanceof holds both ways between the compat classes and the package's, across builds", () => {
  const fromPackage = esm.errorFromBody(envelope("not_found"), { status: 404 });
  assert.ok(fromPackage instanceof compat.NotFoundError && fromPackage instanceof cjsCompat.NotFoundError);
  assert.ok(fromPackage instanceof compat.AgentRunError && fromPackage instanceof cjsCompat.AgentRunError);
  assert.ok(!(fromPackage instanceof compat.RateLimitedError));
  const other = cjs.errorFromBody(envelope("ready_timeout"), { status: 504 });
  assert.ok(other instanceof compat.AgentRunError && !(other instanceof compat.IdleTimeoutError));
  assert.ok(!(new Error("plain") instanceof compat.AgentRunError));
  assert.ok(!({ code: "not_found" } instanceof compat.NotFoundError));
  const built = new cjsCompat.AgentRunError("m", { code: "x_y" });
  assert.ok(built instanceof esm.AgentRunError && built instanceof compat.AgentRunError);
  assert.ok(!(built instanceof compat.NotFoundError));
});

test("a subclass of a compat class keeps the ordinary instanceof", () => {
  class MineError extends compat.AgentRunError {}
  const mine = new MineError("m", { code: "not_found" });
  assert.ok(mine instanceof MineError && mine instanceof compat.AgentRunError && mine instanceof esm.AgentRunError);
  assert.ok(!(esm.errorFromBody(envelope("not_found"), { status: 404 }) instanceof MineError));
  assert.equal(mine.retryable, SPECS.find((s) => s.code === "not_found")?.retryable);
  class MineTypedError extends compat.NotFoundError {}
  const typed = new MineTypedError("m", { code: "not_found", cause: "c" });
  assert.ok(typed instanceof MineTypedError && typed instanceof compat.NotFoundError && typed instanceof cjs.NotFoundError);
  assert.ok(!(esm.errorFromBody(envelope("not_found"), { status: 404 }) instanceof MineTypedError));
  assert.equal(typed.errorCause, "c");
});

// --- fromResponse and errorForCode --------------------------------------------------

test("fromResponse: the envelope's code, cause, remediation and context; its class; the token redacted", () => {
  const token = "tok-5f1d2e";
  const err = compat.AgentRunError.fromResponse(500, envelope("file_failed", { cause: `open failed for ${token}`, context: { path: "/w" } }), token);
  assert.equal(err.code, "file_failed");
  assert.equal(err.errorCause, "open failed for [REDACTED]");
  assert.equal(err.remediation, "do this");
  assert.deepEqual({ ...err.context }, { path: "/w" });
  for (const [code, name] of TYPED) {
    const typed = compat.AgentRunError.fromResponse(400, envelope(code));
    assert.ok(typed instanceof compat[name] && typed instanceof compat.AgentRunError, code);
    for (const [otherCode, otherName] of TYPED) {
      if (otherCode !== code) assert.ok(!(typed instanceof compat[otherName]), `${code} is not ${otherName}`);
    }
  }
  const unknown = compat.AgentRunError.fromResponse(500, envelope("brand_new_code"));
  assert.equal(unknown.code, "brand_new_code");
  assert.ok(unknown instanceof compat.AgentRunError && !(unknown instanceof compat.IdleTimeoutError));
});

test("fromResponse without an envelope: the catalogue's fallback code and texts, an empty context", () => {
  const notFound = compat.AgentRunError.fromResponse(404, "");
  assert.ok(notFound instanceof compat.NotFoundError);
  const proxy = compat.AgentRunError.fromResponse(503, "upstream gateway error");
  assert.equal(proxy.code, "unavailable");
  assert.notEqual(proxy.remediation, "");
  assert.ok(!proxy.errorCause.includes("upstream gateway error"), "the body of a response without an envelope is not the cause");
  assert.deepEqual({ ...proxy.context }, {});
});

test("errorForCode(message, opts) gives the class of every catalogue code, and the base class otherwise", () => {
  for (const spec of SPECS) {
    const err = compat.errorForCode("m", { code: spec.code, cause: "here" });
    assert.ok(err instanceof esm.lookup(spec.code), spec.code);
    assert.equal(err.errorCause, "here");
    assert.equal(err.retryable, spec.retryable);
  }
  const unknown = compat.errorForCode("m", { code: "not_in_catalogue", cause: "c" });
  assert.equal(unknown.code, "not_in_catalogue");
  assert.equal(Object.getPrototypeOf(unknown), esm.AgentRunError.prototype);
});

// --- local helpers -------------------------------------------------------------------

test("the constants are the catalogue's", () => {
  assert.equal(compat.MAX_EXEC_TIMEOUT_SECONDS, LIMITS.maxExecTimeoutS);
  const deadline = esm.errorForExit(compat.EXEC_TIMEOUT_EXIT_CODE);
  assert.ok(deadline instanceof compat.ExecutionDeadlineError, "the exit status is the one the package reads as the deadline");
});

test("validateTimeout returns nothing at or under the ceiling and throws TimeoutTooLargeError over it", () => {
  const max = compat.MAX_EXEC_TIMEOUT_SECONDS;
  for (const ok of [max, 1, 0.5, 0, -1]) assert.equal(compat.validateTimeout(ok), undefined, String(ok));
  for (const over of [max + 1, max + 0.5]) {
    assert.throws(
      () => compat.validateTimeout(over),
      (e: unknown) => e instanceof compat.TimeoutTooLargeError && e.context["max_timeout_s"] === max && e.context["requested_s"] !== undefined,
    );
  }
});

test("redact replaces every form of the token, and sanitizes without one", () => {
  const token = "s3cr3t-token-value";
  assert.equal(compat.redact(`a ${token} b`, token), "a [REDACTED] b");
  assert.ok(!compat.redact(`a ${encodeURIComponent(token + "/")} b`, token + "/").includes(token));
  assert.equal(compat.redact("plain text"), "plain text");
  assert.equal(compat.redact("a\u202eb"), "ab");
});
