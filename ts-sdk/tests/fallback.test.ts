// Total parsing: a body without an envelope, whatever it is, gives the
// status's fallback code from the catalogue and never throws.
import { test } from "node:test";
import assert from "node:assert/strict";

import { AgentRunError, errorFromBody, lookup } from "@mitos/errors";
import { FALLBACK, LIMITS, spec } from "./support.js";

const encoder = new TextEncoder();

const BODIES: [string, string | Uint8Array][] = [
  ["HTML from a proxy", "<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>"],
  ["plain text", "upstream connect error or disconnect/reset before headers"],
  ["empty", ""],
  ["empty bytes", new Uint8Array(0)],
  ["whitespace", " \r\n\t"],
  ["invalid JSON", '{"error": {"code": "rate_limited",'],
  ["a list", '[{"error": {"code": "rate_limited"}}]'],
  ["an error string", '{"error": "rate_limited"}'],
  ["a numeric code", '{"error": {"code": 429}}'],
  ["a null code", '{"error": {"code": null}}'],
  ["a code object", '{"error": {"code": {"code": "rate_limited"}}}'],
  ["an error list", '{"error": [{"code": "rate_limited"}]}'],
  ["no error member", '{"code": "rate_limited"}'],
  ["deep nesting", '{"a":' + "[".repeat(100_000) + "]".repeat(100_000) + "}"],
  ["deep nesting around an envelope", "[".repeat(70) + '{"error":{"code":"rate_limited"}}' + "]".repeat(70)],
  ["non-UTF-8 bytes", new Uint8Array([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x80, 0x7d])],
  ["a 5,000-digit number", '{"error": ' + "9".repeat(5000) + "}"],
  ["NaN", '{"error": {"code": "rate_limited", "context": {"n": NaN}}}'],
  ["Infinity", '{"error": {"code": "rate_limited", "context": {"n": Infinity}}}'],
  ["-Infinity", '{"error": {"code": "rate_limited", "context": {"n": -Infinity}}}'],
  ["a JSON string", '"rate_limited"'],
  ["a JSON number", "429"],
  ["null", "null"],
  ["a lone surrogate", "\ud800{"],
];

function expectedCode(status: number): string {
  const exact = FALLBACK.byStatus.find(([s]) => s === status);
  if (exact !== undefined) return exact[1];
  if (status >= 400 && status <= 499) return FALLBACK.clientError;
  if (status >= 500 && status <= 599) return FALLBACK.serverError;
  return FALLBACK.default;
}

const STATUSES = [...FALLBACK.byStatus.map(([s]) => s), 402, 418, 451, 501, 505, 599, 200, 302, 600, 0, -1];

test("every status of the fallback map, and the classes and the default, for every kind of bare body", () => {
  for (const status of STATUSES) {
    for (const [what, body] of BODIES) {
      const err = errorFromBody(body, { status });
      const code = expectedCode(status);
      const s = spec(code);
      assert.equal(err.code, code, `${status} ${what}`);
      assert.equal(err.constructor, lookup(code), `${status} ${what}`);
      assert.equal(err.message, s.message);
      assert.equal(err.errorCause, s.cause);
      assert.equal(err.remediation, s.remediation, "status-derived remediation");
      assert.equal(err.status, status);
      assert.deepEqual(Object.keys(err.context), []);
    }
  }
});

test("the fallback map covers at least the statuses of the design", () => {
  const required = [400, 401, 403, 404, 408, 409, 410, 413, 429, 499, 500, 502, 503, 504];
  const mapped = new Set(FALLBACK.byStatus.map(([s]) => s));
  assert.deepEqual(required.filter((s) => !mapped.has(s)), []);
});

test("nesting up to json_max_depth is JSON; one more level is not", () => {
  const depth = LIMITS.jsonMaxDepth;
  const wrap = (levels: number): string => '{"error":{"code":"not_found","context":{"a":' + "[".repeat(levels - 3) + "]".repeat(levels - 3) + "}}}";
  assert.equal(errorFromBody(wrap(depth), { status: 500 }).code, "not_found");
  assert.equal(errorFromBody(wrap(depth + 1), { status: 500 }).code, "internal");
  // Brackets inside strings do not count.
  const inString = envelope("[".repeat(200));
  assert.equal(errorFromBody(inString, { status: 500 }).code, "not_found");
  function envelope(message: string): string {
    return JSON.stringify({ error: { code: "not_found", message } });
  }
});

test("a leading BOM is dropped; bytes and text give the same error", () => {
  const body = '{"error":{"code":"rate_limited","message":"caf\u00e9 \ud83d\ude00"}}';
  const fromText = errorFromBody("\ufeff" + body, { status: 429 });
  const fromBytes = errorFromBody(Uint8Array.of(0xef, 0xbb, 0xbf, ...encoder.encode(body)), { status: 429 });
  assert.equal(fromText.code, "rate_limited");
  assert.equal(fromText.message, "caf\u00e9 \ud83d\ude00");
  assert.deepEqual(fromBytes.toJSON(), fromText.toJSON());
  // Two BOMs: only one is dropped, and the second makes it not JSON.
  assert.equal(errorFromBody("\ufeff\ufeff" + body, { status: 429 }).message, spec("rate_limited").message);
  assert.equal(errorFromBody(Buffer.from(body), { status: 429 }).message, "caf\u00e9 \ud83d\ude00");
});

test("only the first error_body_max_bytes bytes are read, of text and of bytes", () => {
  const cap = LIMITS.errorBodyMaxBytes;
  const head = '{"error":{"code":"not_found","message":"';
  const tail = '"}}';
  const fits = head + "x".repeat(cap - head.length - tail.length) + tail;
  assert.equal(encoder.encode(fits).length, cap);
  assert.equal(errorFromBody(fits, { status: 404 }).message.length, LIMITS.textMaxChars);
  const over = head + "x".repeat(cap - head.length - tail.length + 1) + tail;
  assert.equal(errorFromBody(over, { status: 500 }).code, "internal");
  assert.equal(errorFromBody(encoder.encode(over), { status: 500 }).code, "internal");
  // Multi-byte text: the cap counts UTF-8 bytes, not UTF-16 units.
  const room = cap - head.length - tail.length;
  const wide = head + "x".repeat(room % 2) + "\u00e9".repeat(Math.floor(room / 2)) + tail;
  assert.equal(encoder.encode(wide).length, cap);
  assert.equal(errorFromBody(wide, { status: 404 }).code, "not_found");
  assert.equal(errorFromBody(wide + " ", { status: 404 }).code, "not_found", "trailing whitespace past the cap is not read");
  assert.equal(errorFromBody(head + "\u00e9" + wide.slice(head.length), { status: 500 }).code, "internal");
});

test("a 50 MB body is bounded and does not throw", () => {
  const big = '{"error":{"code":"rate_limited","message":"' + "a".repeat(50 * 1024 * 1024) + '"}}';
  const started = performance.now();
  const err = errorFromBody(big, { status: 429 });
  assert.equal(err.code, "rate_limited", "not JSON once cut: the status's code");
  const bytes = errorFromBody(encoder.encode(big), { status: 503 });
  assert.equal(bytes.code, "unavailable");
  assert.ok(performance.now() - started < 2000, "bounded work");
});

test("never throws, whatever the arguments", () => {
  const odd: unknown[] = [undefined, null, 42, {}, [], new ArrayBuffer(3), Symbol("x"), () => 1];
  for (const body of odd) {
    const err = errorFromBody(body as string, { status: 500 });
    assert.ok(err instanceof AgentRunError);
    assert.equal(err.code, "internal");
  }
  for (const status of [NaN, Infinity, "404", undefined, null, 404.5]) {
    const err = errorFromBody("", { status } as unknown as { status: number });
    assert.equal(err.code, FALLBACK.default, String(status));
  }
  const throwing = { get(): string { throw new Error("boom"); } };
  assert.equal(errorFromBody("", { status: 404, headers: throwing }).code, "not_found");
  assert.equal(errorFromBody("", undefined as unknown as { status: number }).code, FALLBACK.default);
  const hostile = new Proxy({}, { ownKeys() { throw new Error("no"); } });
  assert.equal(errorFromBody("{}", { status: 404, headers: hostile }).code, "not_found");
});
