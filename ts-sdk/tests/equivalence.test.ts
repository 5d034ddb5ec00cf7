// The sanitizer's shortcuts against the contract written out step by step
// (tests/reference.ts): the trigger automaton and the rules it skips, the
// body-level token check, trusted catalogue text and the cached token forms
// must give exactly what running every step on every text gives.
import { test } from "node:test";
import assert from "node:assert/strict";

import { errorFromBody, errorForCode, sanitizeText } from "@mitos/errors";
import { FILTERED, REDACTION, SPECS, TRUNCATION_MARKER, FALLBACK, LIMITS } from "./support.js";
import { randomSource, referenceForms, referenceSanitize } from "./reference.js";

const BEARER_TOKEN = "mitos_live_Q2hhbmdlTWUxMjM0NTY3";

/** Tokens of every kind: plain, URL-reserved and non-ASCII, split by step 1, made of marker characters, tiny. */
const TOKENS: (string | undefined)[] = [
  undefined,
  BEARER_TOKEN,
  "abcdefgh",
  "tok/with+odd=chars~\u00fc",
  "abc\u200bdef",
  "D]]zz",
  "[RED",
  "ED]x",
  "RED",
  "d]",
  "ab cd",
  "token",
  "sb-7f3a",
  "sandbox",
  "x",
];

/** Pieces of text: triggers, secrets, markers, step-1 characters, and pieces of the tokens. */
const PIECES = [
  "a", "Z", " ", "\n", "\t", "\u0000", "\u007f", "\u200b", "\u202e", "\u0085", "\u2028", "\ud83d\ude00", "\ud800", "\u00e9",
  "\u212a", "\u0130", "=", ":", "@", "/", "//", "-", "_", "[", "]", "%", "+", "~",
  "Bearer ", "Basic ", "bearer", "password=", "token: ", "api_key=", "https://", "u:", "p@", "sk-", "abcdefghijklmnopqrstuvwx",
  "eyJabcd.efgh.", "mitos_live_", "mitos_test_", "12345678", "<|", "|>", "im_end", "[INST]", "<<SYS>>", "<system>", "ignore ",
  "previous ", "instructions", "-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----", "\u2026", "[truncated]",
  REDACTION, FILTERED, TRUNCATION_MARKER, "RED", "ACTED", "D]", "]zz", "zz", "ab", "cd", "def", "abc", "efgh",
  BEARER_TOKEN, BEARER_TOKEN.slice(0, 12), "Q2hhbmdlTWUx", Buffer.from(BEARER_TOKEN).toString("base64").replace(/=+$/, ""),
  "tok%2Fwith%2Bodd%3Dchars~%C3%BC", "tok%2fwith%2bodd%3dchars~%c3%bc", "sb-7f3a", "sandbox ", "retry_after_ms",
];

function randomText(random: (n: number) => number, maxPieces: number): string {
  let text = "";
  const n = random(maxPieces);
  for (let j = 0; j < n; j++) text += PIECES[random(PIECES.length)];
  return text;
}

test("sanitizeText gives what the steps give on texts dense with secrets (hundreds of covers, some overlapping)", () => {
  const random = randomSource(20261202);
  // The high bits of the generator: its low bits repeat with a short period.
  const pick = (n: number): number => Math.floor((random(1 << 30) / (1 << 30)) * n);
  // Secrets a few characters apart (more covers than a sort of them is worth), and chains of
  // prefixes whose rules cover the start of the next one.
  const dense = ["basic password=", "basic secret:", "Basic token=", "bearer basic api_key=", "Bearer abcdefgh ", "sk-", "=", " "];
  for (let i = 0; i < 60; i++) {
    const token = TOKENS[i % TOKENS.length];
    let text = "";
    // Within the cap, so that every cover shows in the result.
    const size = 300 + pick(LIMITS.textMaxChars - 400);
    while (text.length < size) text += pick(24) === 0 ? PIECES[pick(PIECES.length)] : dense[pick(8) === 0 ? pick(dense.length) : pick(3)];
    assert.equal(sanitizeText(text, { token }), referenceSanitize(text, token), JSON.stringify({ text: text.slice(0, 200), token }));
  }
});

test("sanitizeText gives what the steps, run one after another, give", () => {
  const random = randomSource(20261130);
  for (let i = 0; i < 6000; i++) {
    const token = TOKENS[i % TOKENS.length];
    let text = randomText(random, 30);
    if (i % 25 === 0) text = "y".repeat(LIMITS.textMaxChars - random(40)) + text;
    assert.equal(sanitizeText(text, { token }), referenceSanitize(text, token), JSON.stringify({ text, token }));
  }
});

test("alternating tokens: the cached forms are always the current token's", () => {
  const text = `a ${BEARER_TOKEN} b abcdefgh c D]]zz d`;
  for (let i = 0; i < 50; i++) {
    for (const token of TOKENS) assert.equal(sanitizeText(text, { token }), referenceSanitize(text, token), String(token));
  }
});

/** The texts a body holds as they are, with no JSON escape: no quote, backslash or control character below U+0020. */
function rawSafe(text: string): string {
  return text.replace(/["\\\u0000-\u001f]/g, "").replace(/[\ud800-\udfff]/g, (c, i: number, s: string) => {
    const code = c.charCodeAt(0);
    const pairHigh = code <= 0xdbff && /[\udc00-\udfff]/.test(s[i + 1] ?? "");
    const pairLow = code >= 0xdc00 && /[\ud800-\udbff]/.test(s[i - 1] ?? "");
    return pairHigh || pairLow ? c : "";
  });
}

function specOf(code: string): (typeof SPECS)[number] | undefined {
  return SPECS.find((s) => s.code === code);
}

function fallback(status: number): string {
  const exact = FALLBACK.byStatus.find(([s]) => s === status);
  if (exact !== undefined) return exact[1];
  if (status >= 400 && status <= 499) return FALLBACK.clientError;
  if (status >= 500 && status <= 599) return FALLBACK.serverError;
  return FALLBACK.default;
}

test("errorFromBody: every field is the reference's, whichever shortcut the body allows", () => {
  const random = randomSource(7);
  const codes = ["internal", "rate_limited", "not_found", "brand_new", "sk-abcdefghijklmnopqrstu"];
  for (let i = 0; i < 2500; i++) {
    const token = TOKENS[i % TOKENS.length];
    // Half the bodies hold their strings as they are (the body-level token check applies),
    // half go through JSON.stringify (escapes: the check does not apply).
    const raw = i % 2 === 0;
    const pick = (): string => (raw ? rawSafe(randomText(random, 12)) : randomText(random, 12));
    const code = random(4) === 0 ? pick() : codes[random(codes.length)]!;
    const s = specOf(code);
    const fields = {
      code,
      message: random(5) === 0 && s !== undefined ? s.message : pick(),
      cause: pick(),
      remediation: random(5) === 0 && s !== undefined ? s.remediation : pick(),
      context: { [random(3) === 0 ? pick() : "sandbox"]: pick(), retry_after_ms: 5, other: pick() },
      request_id: pick(),
    };
    const body = raw
      ? `{"error":{"code":"${fields.code}","message":"${fields.message}","cause":"${fields.cause}",` +
        `"remediation":"${fields.remediation}","context":{${Object.entries(fields.context)
          .map(([k, v]) => `"${k}":${typeof v === "string" ? `"${v}"` : v}`)
          .join(",")}},"request_id":"${fields.request_id}"}}`
      : JSON.stringify({ error: fields });
    if (raw) assert.ok(!body.includes("\\"), body);
    const header = random(3) === 0 ? pick() : undefined;
    const status = [429, 404, 500, 418][random(4)]!;
    const headers = header === undefined ? undefined : new Headers([["x-request-id", header.replace(/[^\x20-\x7e]/g, "")]]);
    const asBytes = random(4) === 0;
    const err = errorFromBody(asBytes ? Buffer.from(body) : body, { status, headers, token });
    const what = JSON.stringify({ body, token, status, header });

    // The expected error, field by field, from the parsed body and the reference sanitizer.
    const parsed = JSON.parse(asBytes ? new TextDecoder().decode(Buffer.from(body)) : body).error as typeof fields;
    const sentCode = referenceSanitize(parsed.code, token);
    const expectedCode = sentCode === "" ? fallback(status) : sentCode;
    assert.equal(err.code, expectedCode, what);
    const defaults = specOf(expectedCode) ?? specOf(fallback(status))!;
    const text = (value: string, fallbackText: string): string => referenceSanitize(value, token) || fallbackText;
    if (sentCode !== "") {
      assert.equal(err.message, text(parsed.message, defaults.message), what);
      assert.equal(err.errorCause, text(parsed.cause, defaults.cause), what);
      assert.equal(err.remediation, text(parsed.remediation, defaults.remediation), what);
      const context: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(parsed.context)) {
        if (k === "" || referenceSanitize(k, token) !== k) continue;
        context[k] = typeof v === "string" ? referenceSanitize(v, token) : v;
      }
      assert.deepEqual({ ...err.context }, context, what);
    }
    const fromHeader = headers === undefined ? "" : referenceSanitize(headers.get("x-request-id") ?? "", token);
    const fromBody = sentCode === "" ? "" : referenceSanitize(parsed.request_id, token);
    assert.equal(err.requestId, fromHeader || fromBody || undefined, what);
  }
});

test("a form that a replacement makes (a token of marker characters) is redacted, even when the body did not hold it", () => {
  // The secrets step turns "Bearer abcdefg]zz" into "Bearer [REDACTED]]zz", which holds "D]]zz":
  // the token step, which comes after, redacts it. The body held no form, so a body-level
  // "no token here" shortcut would be wrong for such a token.
  const token = "D]]zz";
  const body = '{"error":{"code":"internal","message":"Bearer abcdefg]zz","context":{"k":"Bearer abcdefg]zz"}}}';
  const expected = referenceSanitize("Bearer abcdefg]zz", token);
  assert.equal(expected, "Bearer [REDACTE" + REDACTION);
  const err = errorFromBody(body, { status: 500, token });
  assert.equal(err.message, expected);
  assert.equal(err.context["k"], expected);
  // A filtered marker can make one too.
  const filtered = "<|im_start|>x";
  assert.equal(referenceSanitize(filtered, "d]x"), "[filtere" + REDACTION);
  assert.equal(errorFromBody(`{"error":{"code":"internal","cause":"${filtered}"}}`, { status: 500, token: "d]x" }).errorCause, "[filtere" + REDACTION);
});

test("errorForCode sanitizes every given text as the reference does, with its token", () => {
  const random = randomSource(99);
  for (let i = 0; i < 1500; i++) {
    const token = TOKENS[i % TOKENS.length];
    const [message, cause, remediation, value, requestId] = [0, 1, 2, 3, 4].map(() => randomText(random, 10)) as [string, string, string, string, string];
    const err = errorForCode("not_found", message, { errorCause: cause, remediation, context: { sandbox: value }, requestId, token });
    const s = specOf("not_found")!;
    assert.equal(err.message, referenceSanitize(message, token) || s.message);
    assert.equal(err.errorCause, referenceSanitize(cause, token) || s.cause);
    assert.equal(err.remediation, referenceSanitize(remediation, token) || s.remediation);
    const keyKept = referenceSanitize("sandbox", token) === "sandbox";
    assert.deepEqual({ ...err.context }, keyKept ? { sandbox: referenceSanitize(value, token) } : {});
    assert.equal(err.requestId, referenceSanitize(requestId, token) || undefined);
  }
});

test("the reference's forms are the contract's: the token, its percent-encodings, base64 and base64url", () => {
  assert.deepEqual(referenceForms("a/b"), ["a%2Fb", "a%2fb", "YS9i", "a/b"]);
  assert.deepEqual(referenceForms("\u200b"), []);
  assert.deepEqual(referenceForms("RED"), ["UkVE"], "a form inside a marker is skipped");
});
