// The refines walk (docs/sdk-contract.md section 1, step 5): a code this
// SDK does not know, sent with the chain of codes it refines, gets the class
// of the first code of the chain the catalogue knows, keeping the code as sent.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";

import { AgentRunError, IdleTimeoutError, NotFoundError, RateLimitedError, errorFromBody, lookup } from "@mitos/errors";
import { SPECS, envelope } from "./support.js";
import { hostileText, params } from "./arbitraries.js";

const KNOWN = SPECS.map((s) => s.code);
const REFINES_MAX = 16;

/** The model of the walk: the first of the first 16 entries that is a string naming a catalogue code. */
function expectedClass(chain: unknown): typeof AgentRunError {
  if (!Array.isArray(chain)) return AgentRunError;
  const found = chain.slice(0, REFINES_MAX).find((e): e is string => typeof e === "string" && KNOWN.includes(e));
  return found === undefined ? AgentRunError : lookup(found);
}

const entry = fc.oneof(
  fc.constantFrom(...KNOWN),
  fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/).filter((c) => !KNOWN.includes(c)),
  hostileText(undefined),
  fc.constantFrom<unknown>(null, 7, true, {}, ["idle_timeout"], { code: "not_found" }, "__proto__", "constructor", "x".repeat(5000)),
);
const chain = fc.oneof(
  { weight: 5, arbitrary: fc.array(entry, { maxLength: 24 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>("idle_timeout", 5, null, { 0: "not_found", length: 1 }) },
);
const unknownCode = fc.stringMatching(/^zz_[a-z0-9_]{1,20}$/);

test("an unknown code gets the class of the first known code of its chain (at most 16 read), keeping the code", () => {
  fc.assert(
    fc.property(unknownCode, chain, fc.integer({ min: 400, max: 599 }), (code, refines, status) => {
      const err = errorFromBody(envelope({ code, refines }), { status });
      const cls = expectedClass(refines);
      assert.equal(err.constructor, cls);
      assert.equal(err.code, code);
      // Its classification is its class's, and its texts that class's code's defaults.
      const s = SPECS.find((x) => x.className === err.name);
      if (cls !== AgentRunError) {
        assert.ok(s !== undefined);
        assert.equal(err.retryable, s.retryable);
        assert.deepEqual(err.recovery, s.recovery);
        assert.equal(err.message, s.message);
        assert.equal(err.remediation, s.remediation);
      }
    }),
    params,
  );
});

test("a known code ignores the chain; the walk reads the chain nearest first", () => {
  const known = errorFromBody(envelope({ code: "rate_limited", refines: ["idle_timeout"] }), { status: 429 });
  assert.ok(known instanceof RateLimitedError);
  const walked = errorFromBody(envelope({ code: "sandbox_reaped", refines: ["sandbox_gone", "idle_timeout", "not_found"] }), { status: 410 });
  assert.ok(walked instanceof IdleTimeoutError && !(walked instanceof NotFoundError));
  assert.equal(walked.code, "sandbox_reaped");
  assert.equal(walked.remediation, SPECS.find((s) => s.code === "idle_timeout")!.remediation);
});

test("a generated class takes a code the catalogue does not know, and no other catalogue code", () => {
  const finer = new IdleTimeoutError("reaped", { code: "sandbox_reaped" });
  assert.equal(finer.code, "sandbox_reaped");
  assert.equal(finer.errorCause, SPECS.find((s) => s.code === "idle_timeout")!.cause);
  assert.equal(finer.retryable, IdleTimeoutError.spec.retryable);
  assert.throws(() => new IdleTimeoutError("x", { code: "not_found" }), TypeError);
  assert.throws(() => new IdleTimeoutError("x", { code: "not\u200b_found" }), TypeError);
  assert.throws(() => new IdleTimeoutError("x", { code: "\u200b" }), TypeError);
  assert.throws(() => new IdleTimeoutError("x", { code: 7 as unknown as string }), TypeError);
  assert.equal(new IdleTimeoutError("x", { code: "idle_timeout" }).code, "idle_timeout");
});
