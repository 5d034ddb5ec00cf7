// Errors the SDK raises itself: timeouts honoured or rejected, never
// reduced; exit code 124 (docs/sdk-contract.md section 3).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";

import {
  AgentRunError,
  ExecutionDeadlineError,
  InvalidInputError,
  LIMITS,
  TimeoutTooLargeError,
  errorForCode,
  errorForExit,
  validateTimeout,
} from "@mitos/errors";
import { TRUNCATION_MARKER, REDACTION, spec } from "./support.js";

test("a valid timeout is returned unchanged, up to and including the ceiling", () => {
  for (const t of [0.001, 1, 30, 59.5, LIMITS.maxExecTimeoutS]) assert.equal(validateTimeout(t), t);
  assert.equal(validateTimeout(100, { maxTimeoutS: 100 }), 100);
});

test("a timeout above the ceiling raises TimeoutTooLargeError with requested_s and max_timeout_s", () => {
  const err = (() => {
    try {
      validateTimeout(LIMITS.maxExecTimeoutS + 1);
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  assert.ok(err instanceof TimeoutTooLargeError);
  assert.equal(err.code, "timeout_too_large");
  assert.deepEqual({ ...err.context }, { requested_s: LIMITS.maxExecTimeoutS + 1, max_timeout_s: LIMITS.maxExecTimeoutS });
  assert.equal(err.status, undefined);
  assert.equal(err.message, spec("timeout_too_large").message);
  assert.equal(err.remediation, spec("timeout_too_large").remediation);
  assert.throws(() => validateTimeout(101, { maxTimeoutS: 100 }), (e: unknown) => e instanceof TimeoutTooLargeError && e.context["max_timeout_s"] === 100);
  assert.throws(() => validateTimeout(1e300), (e: unknown) => e instanceof TimeoutTooLargeError && !("requested_s" in e.context));
});

test("zero, negative, NaN, infinite and non-numeric timeouts raise InvalidInputError", () => {
  const cases: [unknown, Record<string, unknown>][] = [
    [0, { requested_s: 0 }],
    [-0, { requested_s: 0 }],
    [-5, { requested_s: -5 }],
    [NaN, {}],
    [Infinity, {}],
    [-Infinity, {}],
    ["30", {}],
    [null, {}],
    [undefined, {}],
    [true, {}],
    [30n, {}],
  ];
  for (const [value, context] of cases) {
    assert.throws(
      () => validateTimeout(value as number),
      (e: unknown) => {
        assert.ok(e instanceof InvalidInputError, String(value));
        assert.deepEqual({ ...e.context }, context, String(value));
        assert.equal(e.status, undefined);
        return true;
      },
    );
  }
});

test("exit code 124 gives ExecutionDeadlineError keeping the partial output, sanitized", () => {
  const err = errorForExit(124, { timeoutS: 30, stdout: "partial\u202e output\n", stderr: "Bearer abcdefghijk", token: "xyz" });
  assert.ok(err instanceof ExecutionDeadlineError && err instanceof AgentRunError);
  assert.equal(err.code, "exec_timeout");
  assert.deepEqual({ ...err.context }, { exit_code: 124, timeout_s: 30, stdout: "partial output ", stderr: `Bearer ${REDACTION}` });
  assert.equal(err.status, undefined);
  const bare = errorForExit(124);
  assert.deepEqual({ ...bare?.context }, { exit_code: 124, stdout: "", stderr: "" });
  const long = errorForExit(124, { stdout: "x".repeat(100_000) });
  assert.ok(String(long?.context["stdout"]).endsWith(TRUNCATION_MARKER));
  const bytes = errorForExit(124, { stdout: new TextEncoder().encode("caf\u00e9") });
  assert.equal(bytes?.context["stdout"], "caf\u00e9");
});

test("any other exit code is not an error", () => {
  for (const code of [0, 1, 2, 123, 125, 137, -1, 124.5, NaN]) assert.equal(errorForExit(code, { stdout: "x" }), undefined);
  assert.equal(errorForExit("124" as unknown as number), undefined);
});

test("a code empty once sanitized gives the base class with the caller's texts, whatever the status", () => {
  // Contract section 3: a code the catalogue does not define; the status picks texts, never the class.
  const invisible = fc.constantFrom("\u200b", "\u0000", "\u200e", "\u2066", "\ufeff", "\u0007");
  const code = fc.array(invisible, { maxLength: 4 }).map((parts) => parts.join(""));
  const message = fc.string({ unit: fc.constantFrom(..."abcdefXYZ _-"), minLength: 1, maxLength: 20 }).filter((m) => m.trim() === m && m !== "");
  const status = fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined });
  fc.assert(
    fc.property(code, message, status, fc.integer({ min: -1000, max: 1000 }), (c, m, s, value) => {
      const err = errorForCode(c, m, { status: s, context: { sandbox_id: value } });
      assert.equal(err.constructor, AgentRunError);
      assert.deepEqual([err.code, err.message, err.status, err.retryable], ["", m, s, false]);
      assert.deepEqual({ ...err.context }, { sandbox_id: value });
    }),
    { numRuns: 200 },
  );
});
