// envelopeBytes (contract section 6): every emit vector, then properties (fast-check) on
// random codes, contexts and causes: it never throws, the body is pure ASCII compact JSON
// with the members in order, every object's keys sorted by code point, and it parses back
// to the values given (numbers as the same doubles). That the bytes equal the contract's
// oracle on random input is tests/conformance/test_emit_properties.py's part.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";

import { lookup } from "@mitos/errors";
import { envelopeBytes } from "@mitos/errors/server";
import { CODES, CONTEXT_MAX_KEYS, ERROR_BODY_MAX_BYTES, SPECS } from "../src/generated/catalogue.js";
import { hostileText, params } from "./arbitraries.js";
import { REPO_DIR } from "./support.js";

interface EmitVector {
  name: string;
  input: {
    code: string | null;
    surface: string | null;
    message: string | null;
    remediation: string | null;
    cause: string;
    context: Record<string, unknown>;
    request_id: string | null;
    token: string | null;
  };
  expected: { status: number; headers: [string, string][]; body: string };
}

const VECTORS = (
  JSON.parse(readFileSync(join(REPO_DIR, "tests/conformance/vectors/emit.json"), "utf8")) as { vectors: EmitVector[] }
).vectors;
const ORDER = ["code", "message", "cause", "remediation", "context", "request_id", "refines"];
const opt = <T>(value: T | null): T | undefined => (value === null ? undefined : value);
const text = (body: Uint8Array): string => Buffer.from(body).toString("latin1");

test("envelopeBytes sends every emit vector byte for byte", () => {
  assert.ok(VECTORS.length > 50);
  for (const v of VECTORS) {
    const i = v.input;
    const sent = envelopeBytes(i.code ?? new Error(i.cause), {
      surface: opt(i.surface),
      message: opt(i.message),
      remediation: opt(i.remediation),
      cause: i.cause,
      context: i.context,
      requestId: opt(i.request_id),
      token: opt(i.token),
    });
    assert.equal(sent.status, v.expected.status, v.name);
    assert.deepEqual(sent.headers, v.expected.headers, v.name);
    assert.equal(text(sent.body), v.expected.body, v.name);
  }
});

test("an error of the SDK gives its code; another error gives internal without its text", () => {
  const NotFound = lookup("not_found");
  const own = envelopeBytes(new NotFound("gone"), { cause: "c" });
  assert.equal(own.status, 404);
  assert.match(text(own.body), /^\{"error":\{"code":"not_found",/);
  const other = envelopeBytes(new Error("postgres://u:secret@db"), { cause: "secret", context: { a: 1 } });
  assert.equal(other.status, 500);
  assert.doesNotMatch(text(other.body), /secret|"context"|"cause"/);
});

const byCodePoint = (a: string, b: string): number => {
  const [x, y] = [[...a].map((c) => c.codePointAt(0)!), [...b].map((c) => c.codePointAt(0)!)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
};

function assertSorted(value: unknown): void {
  if (Array.isArray(value)) value.forEach(assertSorted);
  else if (typeof value === "object" && value !== null) {
    // JSON.parse keeps integer-like keys first: compare the others' order, and the set.
    const keys = Object.keys(value).filter((k) => !/^(0|[1-9]\d*)$/.test(k));
    assert.deepEqual(keys, [...keys].sort(byCodePoint));
    Object.values(value).forEach(assertSorted);
  }
}

/** Whether a parsed value is the value given, as the writer holds it (numbers as doubles, -0 as 0). */
function sameValue(written: unknown, given: unknown): boolean {
  if (typeof given === "number") return written === (Object.is(given, -0) ? 0 : given);
  if (Array.isArray(given)) return Array.isArray(written) && written.length <= given.length;
  if (typeof given === "object" && given !== null) {
    return typeof written === "object" && written !== null && Object.entries(written).every(([k, v]) => sameValue(v, (given as Record<string, unknown>)[k]));
  }
  return typeof given === "string" ? typeof written === "string" : written === given;
}

const keys = fc.oneof(fc.constantFrom("sandbox", "retry_after_ms", "b", "a", "Z", "10", "9", "\u00e9", "\u{1f600}", "\uff61"), fc.string({ maxLength: 6 }));
const numbers = fc.oneof(fc.double({ noNaN: true }), fc.integer(), fc.constantFrom(30, 30.5, 1e-7, 1e21, -0, 2 ** 53 + 1, 0.1 + 0.2, 5e-324));
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    numbers,
    fc.string({ maxLength: 20 }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(keys, tie("value"), { maxKeys: 5 }),
  ),
})).value;

test("random inputs: never throws, canonical ASCII JSON that parses to the values given", () => {
  const codes = fc.oneof(fc.constantFrom(...CODES), fc.constant("no_such_code"), fc.constant(null));
  fc.assert(
    fc.property(codes, hostileText(undefined), fc.dictionary(keys, values, { maxKeys: 8 }), fc.option(fc.string({ maxLength: 20 })), (code, cause, context, requestId) => {
      const sent = envelopeBytes(code ?? new Error(cause), { cause, context, requestId: requestId ?? undefined });
      const body = text(sent.body);
      assert.match(body, /^[\x20-\x7e]*$/);
      assert.ok(body.length <= ERROR_BODY_MAX_BYTES);
      const error = (JSON.parse(body) as { error: Record<string, unknown> }).error;
      assert.deepEqual(Object.keys(error), ORDER.filter((k) => k in error));
      const spec = SPECS.map((specOfCode) => specOfCode()).find((s) => s.code === error["code"]);
      assert.equal(sent.status, spec?.httpStatus);
      assert.equal(spec?.emittedBy, "server");
      const written = (error["context"] ?? {}) as Record<string, unknown>;
      assertSorted(written);
      assert.ok(Object.keys(written).length <= CONTEXT_MAX_KEYS);
      for (const [key, value] of Object.entries(written)) assert.ok(sameValue(value, context[key]), key);
    }),
    params,
  );
});
