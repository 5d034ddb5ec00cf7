// Lookups and contexts are safe for any string: no crash, no pollution.
import { test } from "node:test";
import assert from "node:assert/strict";

import { AgentRunError, errorFromBody, errorForCode, isKnownCode, lookup } from "@mitos/errors";

const HOSTILE = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "prototype", "__defineGetter__", "", " "];

test("lookup: __proto__, constructor, toString and friends are unknown codes", () => {
  for (const code of HOSTILE) {
    assert.equal(lookup(code), AgentRunError, code);
    assert.equal(isKnownCode(code), false, code);
  }
  assert.equal(lookup(42 as unknown as string), AgentRunError);
});

test("envelopes with hostile codes give the base class, the code kept", () => {
  for (const code of HOSTILE.filter((c) => c.trim() !== "")) {
    const err = errorFromBody(JSON.stringify({ error: { code } }), { status: 400 });
    assert.equal(err.constructor, AgentRunError, code);
    assert.equal(err.code, code);
    assert.equal(err.retryable, false);
    const made = errorForCode(code, "m");
    assert.equal(made.constructor, AgentRunError);
  }
});

test("a context carrying __proto__ pollutes nothing and keeps the key as data", () => {
  const body = '{"error":{"code":"not_found","context":{"__proto__":{"polluted":true},"constructor":"c","toString":"t","x":"__proto__"},"__proto__":{"polluted":true}},"__proto__":{"polluted":true}}';
  const err = errorFromBody(body, { status: 404 });
  assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
  assert.equal((Object.prototype as Record<string, unknown>)["polluted"], undefined);
  assert.equal(Object.getPrototypeOf(err.context)?.polluted, undefined);
  assert.deepEqual(Object.keys(err.context), ["constructor", "toString", "x"], "the object value of __proto__ is dropped");
  const scalar = errorFromBody('{"error":{"code":"not_found","context":{"__proto__":"x"}}}', { status: 404 });
  assert.deepEqual(Object.keys(scalar.context), ["__proto__"]);
  assert.equal(scalar.context["__proto__"], "x");
  assert.equal(Object.getPrototypeOf(Object.getPrototypeOf(scalar.context)), null);
});

test("the context is frozen and errors built from the same body are independent", () => {
  const body = '{"error":{"code":"not_found","context":{"sandbox":"sb-1"}}}';
  const a = errorFromBody(body, { status: 404 });
  const b = errorFromBody(body, { status: 404 });
  assert.ok(Object.isFrozen(a.context));
  assert.throws(() => {
    "use strict";
    (a.context as Record<string, unknown>)["sandbox"] = "other";
  }, TypeError);
  assert.notEqual(a.context, b.context);
  assert.equal(b.context["sandbox"], "sb-1");
});

test("a polluted Object.prototype does not leak into errors", () => {
  const proto = Object.prototype as Record<string, unknown>;
  try {
    proto["error"] = { code: "rate_limited" };
    proto["code"] = "rate_limited";
    proto["retry_after_ms"] = 5;
    const err = errorFromBody("{}", { status: 404 });
    assert.equal(err.code, "not_found");
    assert.equal(err.retryAfterMs, undefined);
    const env = errorFromBody('{"error":{}}', { status: 404 });
    assert.equal(env.code, "not_found");
  } finally {
    delete proto["error"];
    delete proto["code"];
    delete proto["retry_after_ms"];
  }
});
