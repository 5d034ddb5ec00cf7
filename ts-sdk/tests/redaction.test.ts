// The caller's token never reaches an error, however the server echoes it,
// and secret-like strings are redacted (docs/sdk-contract.md sections 2 and 4).
import { test } from "node:test";
import assert from "node:assert/strict";
import util, { inspect } from "node:util";
import fc from "fast-check";

import { AgentRunError as BaseError, InternalError, errorFromBody, errorForCode, errorForExit, errorFromFetchFailure, sanitizeText, type AgentRunError } from "@mitos/errors";
import { FILTERED, LIMITS, REDACTION, TRUNCATION_MARKER } from "./support.js";
import { realToken } from "./arbitraries.js";

const TOKEN = "mitos_live_Tok3n/with+odd=chars~ü";

function echoes(token: string): Record<string, string> {
  const utf8 = Buffer.from(token, "utf8");
  const pct = (lower: boolean): string =>
    [...utf8].map((b) => (/[A-Za-z0-9._~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : "%" + b.toString(16).padStart(2, "0")[lower ? "toLowerCase" : "toUpperCase"]())).join("");
  return {
    verbatim: `invalid token ${token} for sandbox`,
    "URL-encoded (upper)": `GET /x?token=${pct(false)} failed`,
    "URL-encoded (lower)": `GET /x?token=${pct(true)} failed`,
    "encodeURIComponent": `GET /x?t=${encodeURIComponent(token)}`,
    base64: `blob ${utf8.toString("base64").replace(/=+$/, "")} end`,
    base64url: `blob ${utf8.toString("base64url")} end`,
    "Basic credential": `Authorization: Basic ${Buffer.from(`user:${token}`).toString("base64")}`,
    "Bearer credential": `Authorization: Bearer ${token}`,
    "split by a zero-width space": `token ${token.slice(0, 5)}\u200b${token.slice(5)} rejected`,
    "split by a bidi control": `token ${token.slice(0, 9)}\u202e${token.slice(9)}`,
    "split by DEL": `token ${token.slice(0, 4)}\u007f${token.slice(4)}`,
  };
}

/** Every way an error can be turned into text. */
function surfaces(err: AgentRunError): string[] {
  const out = [String(err), err.stack ?? "", JSON.stringify(err), inspect(err, { depth: null, showHidden: true }), err.toString()];
  for (let cause: unknown = err.cause; cause !== undefined; cause = (cause as { cause?: unknown }).cause) {
    out.push(inspect(cause, { depth: null }));
  }
  return out;
}

function assertNoToken(err: AgentRunError, token: string, what: string): void {
  const utf8 = Buffer.from(token, "utf8");
  const forms = [token, encodeURIComponent(token), utf8.toString("base64").replace(/=+$/, ""), utf8.toString("base64url")];
  for (const text of surfaces(err)) {
    for (const form of forms) assert.ok(!text.includes(form), `${what}: token form ${form} in ${text.slice(0, 200)}`);
  }
}

test("the token never appears, whichever way the server echoes it, in any field", () => {
  for (const [how, text] of Object.entries(echoes(TOKEN))) {
    const body = JSON.stringify({
      error: { code: "unauthorized", message: text, cause: text, remediation: text, context: { [text]: text, nested: text }, request_id: text },
    });
    const err = errorFromBody(body, { status: 401, headers: { "x-request-id": text, "retry-after": text }, token: TOKEN });
    assertNoToken(err, TOKEN, how);
    assert.ok(err.errorCause.includes(REDACTION), `${how}: redacted, not dropped: ${err.errorCause}`);
  }
});

test("the token is redacted from an unknown code and from bytes bodies", () => {
  const body = Buffer.from(JSON.stringify({ error: { code: `code_${TOKEN}`, message: "m" } }));
  const err = errorFromBody(body, { status: 400, token: TOKEN });
  assert.equal(err.code, `code_${REDACTION}`);
  assertNoToken(err, TOKEN, "code");
});

test("JSON escapes cannot hide the token from the body-level check", () => {
  const escaped = [...TOKEN].map((c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")).join("");
  const body = `{"error":{"code":"internal","message":"t=${escaped}"}}`;
  const err = errorFromBody(body, { status: 500, token: TOKEN });
  assert.equal(err.message, `t=${REDACTION}`);
});

test("secret-like strings are redacted even without a token", () => {
  const secrets = [
    "Bearer abcdefghijklmnop",
    "sk-proj-abcdefghijklmnopqrstuvwxyz",
    "ghp_0123456789abcdefghijklmnopqrstuvwxyz",
    "AKIAIOSFODNN7EXAMPLE",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sflKxwRJSMeKKF2QT4fw",
    "postgres://admin:s3cr3tpass@db.internal/app",
    "password=correct-horse-battery",
    "mitos_test_abcdefghij",
  ];
  for (const secret of secrets) {
    const err = errorFromBody(JSON.stringify({ error: { code: "internal", cause: `leaked ${secret} here` } }), { status: 500 });
    assert.ok(err.errorCause.includes(REDACTION), secret);
    const hidden = secret.includes("://") ? "s3cr3tpass" : secret.replace(/^(Bearer |password=)/, "");
    for (const text of surfaces(err)) assert.ok(!text.includes(hidden), `${secret} in ${text.slice(0, 120)}`);
  }
});

test("the token never appears in errorForCode, errorForExit or sanitizeText output", () => {
  const text = echoes(TOKEN).verbatim ?? "";
  assertNoToken(errorForCode("not_found", text, { errorCause: text, remediation: text, context: { k: text }, requestId: text, token: TOKEN }), TOKEN, "errorForCode");
  const exit = errorForExit(124, { stdout: text, stderr: text, token: TOKEN });
  assert.ok(exit !== undefined);
  assertNoToken(exit, TOKEN, "errorForExit");
  assert.ok(!sanitizeText(text, { token: TOKEN }).includes(TOKEN));
});

test("a token that is a piece of a marker is not redacted inside markers (idempotence)", () => {
  const once = sanitizeText("Bearer abcdefghij and RED", { token: "RED" });
  assert.equal(once, `Bearer ${REDACTION} and RED`);
  assert.equal(sanitizeText(once, { token: "RED" }), once);
});

test("a token of marker characters is never left visible, though sanitizing it twice may differ", () => {
  // Such a token can be found again across the end of a marker the first pass wrote
  // ("D]]zz" in "[REDACTED]]zz"): the contract promises idempotence only for tokens
  // without marker characters. What it does promise for every token: no occurrence of
  // any of its forms is left in the text the sanitizer returns except where one
  // overlaps a marker (a form made of the marker's own characters and the text after it).
  // The rewrite writes "[REDACTED]" before "]zz", which makes "D]]zz" again: stage 3, step 2
  // redacts it too.
  const once = sanitizeText("D]]zz]zz", { token: "D]]zz" });
  assert.equal(once, `[REDACTE${REDACTION}`);
  assert.ok(!once.includes("D]]zz"));
  const markers = [REDACTION, FILTERED, TRUNCATION_MARKER];
  const tokens = ["D]]zz", "ED]", "[RED", "d]x", "]", "[", "…x", "ted]", "[filt", "D]D", "x…[", "zz]"];
  const pieces = ["D", "]", "[", "zz", "x", "ED", "RED", "…", "t", "ed", "Bearer ", "abcdefgh", "<|im_end|>", "password=", " ", REDACTION, FILTERED, ...tokens];
  let seed = 7;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let i = 0; i < 5000; i++) {
    const token = tokens[i % tokens.length]!;
    let text = "";
    for (let j = random(25); j > 0; j--) text += pieces[random(pieces.length)];
    if (i % 20 === 0) text = "y".repeat(LIMITS.textMaxChars - random(20)) + text;
    let masked = sanitizeText(text, { token });
    for (const marker of markers) masked = masked.split(marker).join("\u0000");
    for (const form of [token, encodeURIComponent(token), Buffer.from(token).toString("base64").replace(/=+$/, ""), Buffer.from(token).toString("base64url")]) {
      if (markers.some((m) => m.includes(form))) continue; // a form inside a marker is not redacted (contract, step 4)
      assert.ok(!masked.includes(form), JSON.stringify({ text, token, form, masked }));
    }
  }
});

test("errors hold no reference to the token, the response or the headers", () => {
  const headers = new Headers({ "x-request-id": "r1", authorization: `Bearer ${TOKEN}` });
  const err = errorFromBody(JSON.stringify({ error: { code: "unauthorized" } }), { status: 401, headers, token: TOKEN });
  const seen = new Set<unknown>();
  const walk = (value: unknown): void => {
    if (value === null || (typeof value !== "object" && typeof value !== "function") || seen.has(value)) {
      if (typeof value === "string") assert.ok(!value.includes(TOKEN));
      return;
    }
    seen.add(value);
    assert.notEqual(value, headers);
    for (const key of Reflect.ownKeys(value as object)) {
      const desc = Object.getOwnPropertyDescriptor(value, key);
      if (desc && "value" in desc) walk(desc.value);
    }
  };
  walk(err);
});

test("a token split by a raw DEL in an ASCII body is joined by step 1, then redacted", () => {
  // JSON allows a raw U+007F inside a string, so the body need not escape it;
  // the body-level "no token here" shortcut must not skip such a string.
  const token = "plain4token9value";
  const body = `{"error":{"code":"internal","message":"id ${token.slice(0, 5)}\u007f${token.slice(5)} rejected"}}`;
  assert.equal(errorFromBody(body, { status: 500, token }).message, `id ${REDACTION} rejected`);
  assert.equal(errorFromBody(Buffer.from(body), { status: 500, token }).message, `id ${REDACTION} rejected`);
});

/** The characters of base64 `encoded` whose six bits all come from bytes `start` to `start + length`. */
function ownCharacters(encoded: string, start: number, length: number): string {
  return encoded.slice(Math.ceil((8 * start) / 6), Math.floor((8 * (start + length)) / 6));
}

test("a token inside base64 text is found at every alignment (Basic credentials without the scheme word)", () => {
  const printable = fc.string({ unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~+/=:@ é€😀"), minLength: 8, maxLength: 40 });
  const bytes = fc.uint8Array({ maxLength: 11 });
  fc.assert(
    fc.property(printable, bytes, bytes, fc.boolean(), fc.boolean(), (token, before, after, urlSafe, padded) => {
      const raw = Buffer.from(token, "utf8");
      let encoded = Buffer.concat([before, raw, after]).toString("base64");
      if (urlSafe) encoded = encoded.replace(/\+/g, "-").replace(/\//g, "_");
      if (!padded) encoded = encoded.replace(/=+$/, "");
      const own = ownCharacters(encoded, before.length, raw.length);
      fc.pre(own.length >= 8);
      const out = sanitizeText(`echo ${encoded} end`, { token });
      assert.ok(!out.includes(own), `alignment ${before.length % 3}: ${out}`);
    }),
    { numRuns: 300 },
  );
});

/** An error as axios or got makes it: the request's config and headers, the request, the response. */
class ClientError extends Error {
  readonly isAxiosError = true;
  readonly config: Record<string, unknown>;
  readonly request: Record<string, unknown>;
  readonly response: Record<string, unknown>;
  readonly code: string;
  constructor(message: string, token: string, code: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "AxiosError";
    this.code = code;
    const headers = { Authorization: `Bearer ${token}`, "x-api-key": token };
    this.config = { url: `https://api.example/v1/x?api_key=${encodeURIComponent(token)}`, headers, auth: { username: "u", password: token } };
    this.request = { _header: `GET /v1/x HTTP/1.1\r\nAuthorization: Bearer ${token}\r\n`, headers, [Symbol("kHeaders")]: headers };
    this.response = { status: 401, data: { error: { code: "unauthorized", message: `bad token ${token}` } }, config: this.config };
  }
}

/** Every string reachable from `root`: own properties (non-enumerable and symbol-keyed too) at any depth, and prototypes. */
function reachableStrings(root: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const stop = new Set<unknown>([Object.prototype, Error.prototype, Function.prototype]);
  const queue: unknown[] = [root];
  while (queue.length > 0) {
    const v = queue.pop();
    if (typeof v === "string") out.push(v);
    if ((typeof v !== "object" && typeof v !== "function") || v === null || seen.has(v) || stop.has(v)) continue;
    seen.add(v);
    if (typeof v !== "function") queue.push(Object.getPrototypeOf(v));
    for (const key of Reflect.ownKeys(v)) {
      if (typeof key === "string") out.push(key);
      const d = Object.getOwnPropertyDescriptor(v, key)!;
      queue.push("value" in d ? d.value : d.get?.call(v));
    }
  }
  return out;
}

test("nothing reachable from an error built on a client's error holds the token, at any depth", () => {
  const chainOf = fc.array(fc.constantFrom("ECONNRESET", "ERR_BAD_REQUEST", "ETIMEDOUT"), { minLength: 1, maxLength: 12 });
  fc.assert(
    fc.property(realToken, chainOf, fc.boolean(), (token, codes, inMessage) => {
      // A chain of client errors, each holding the request's headers (and, maybe, the token in its message).
      let cause: unknown = undefined;
      for (const code of codes) {
        const message = inMessage ? `Request failed: Authorization: Bearer ${token} (${token})` : `Request failed with ${code}`;
        cause = new ClientError(message, token, code, cause === undefined ? undefined : { cause });
      }
      const built = [
        errorForCode("unauthorized", "denied", { cause, token }),
        new InternalError("wrapped", { cause: inMessage ? new ClientError("Request failed", token, "X") : cause }),
        new BaseError("wrapped", { code: "x", cause: inMessage ? new ClientError("Request failed", token, "X") : cause }),
      ];
      const fetchFailure = errorFromFetchFailure(Object.assign(new TypeError("fetch failed"), { cause }), { token });
      if (fetchFailure !== undefined) built.push(fetchFailure);
      const encoded = encodeURIComponent(token);
      for (const err of built) {
        assert.ok(err.cause instanceof Error, "the cause is kept as an error");
        const shown = [
          ...reachableStrings(err),
          util.inspect(err, { depth: 10 }),
          util.inspect(err, { depth: Infinity, showHidden: true }),
          String(err.stack),
          JSON.stringify(err),
        ];
        for (const text of shown) {
          assert.ok(!text.includes(token) && !text.includes(encoded), `${err.name} shows the token: ${text.slice(0, 300)}`);
        }
      }
    }),
    { numRuns: 60 },
  );
});
