// A body a client already parsed (axios's `response.data`) gives the error of its bytes
// (docs/sdk-contract.md section 1, input forms); a hostile value never throws and lets the
// status decide.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";

import { AgentRunError, QuotaExceededError, RateLimitedError, errorFromBody } from "@mitos/errors";
import { ERROR_BODY_MAX_BYTES, JSON_MAX_DEPTH } from "../src/generated/catalogue.js";
import { hostileBody, params, token } from "./arbitraries.js";

const ENVELOPE = { error: { code: "quota_exceeded", message: "over quota", cause: "the plan's limit" } };

function same(a: AgentRunError, b: AgentRunError): void {
  assert.equal(a.constructor, b.constructor);
  assert.deepEqual(a.toJSON(), b.toJSON());
}

test("a parsed envelope keeps its class and the server's texts", () => {
  const err = errorFromBody(JSON.parse(JSON.stringify(ENVELOPE)) as object, { status: 429, headers: { "x-request-id": "req-7" } });
  assert.ok(err instanceof QuotaExceededError);
  assert.equal(err.message, "over quota");
  assert.equal(err.errorCause, "the plan's limit");
  assert.equal(err.requestId, "req-7");
});

test("a parsed body gives the error of its bytes", () => {
  const decoder = new TextDecoder();
  fc.assert(
    fc.property(fc.option(token, { nil: undefined }).chain((tok) => hostileBody(tok).map((body) => [tok, body] as const)), ([tok, body]) => {
      const text = typeof body === "string" ? body : decoder.decode(body);
      // Re-escaped, a parsed value is longer than its bytes: near the cap the two may be cut differently.
      if (text.length * 6 >= ERROR_BODY_MAX_BYTES) return;
      // A duplicate key can drop a part nested too deep: then the bytes are not JSON, the value is.
      if ((text.match(/[[{]/g) ?? []).length > JSON_MAX_DEPTH) return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return;
      }
      if (typeof value !== "object" || value === null) return;
      const options = { status: 429, headers: { "x-request-id": "req-7" }, token: tok };
      same(errorFromBody(value as object, options), errorFromBody(body, options));
    }),
    params,
  );
});

function cycle(): object {
  const value: Record<string, unknown> = { error: { code: "quota_exceeded" } };
  value["self"] = value;
  return value;
}

function deep(levels: number): object {
  let value: unknown = { error: { code: "quota_exceeded" } };
  for (let i = 0; i < levels; i++) value = [value];
  return value as object;
}

const throwing = Object.defineProperty({}, "error", {
  enumerable: true,
  get(): never {
    throw new Error("a member throws as it is read");
  },
});

const hostile: [string, object][] = [
  ["cycle", cycle()],
  ["NaN", { error: { code: "quota_exceeded", n: Number.NaN } }],
  ["undefined member", { error: { code: "quota_exceeded", u: undefined } }],
  ["class instance", { error: { code: "quota_exceeded", at: new Date(0) } }],
  ["throwing getter", throwing],
  ["throwing proxy", new Proxy({}, { ownKeys: () => { throw new Error("no keys"); } })],
  ["deep", deep(100_000)],
  ["sparse", Object.assign(new Array(2 ** 32 - 1), { 0: ENVELOPE })],
  ["past the cap", [ENVELOPE, ...Array.from({ length: 10_000 }, () => "x".repeat(1000))]],
];

for (const [name, value] of hostile) {
  test(`a hostile parsed value never throws and the status decides: ${name}`, () => {
    const err = errorFromBody(value, { status: 429 });
    assert.ok(err instanceof RateLimitedError, name);
  });
}

for (const number of ["1e400", "-1e400", "1.5", "12345678901234567890", "-0"]) {
  test(`a parsed number past the double range is read as its bytes are: ${number}`, () => {
    const body = `{"error":{"code":"quota_exceeded","context":{"sandbox":"s","n":${number}}}}`;
    same(errorFromBody(JSON.parse(body) as object, { status: 429 }), errorFromBody(body, { status: 429 }));
  });
}
