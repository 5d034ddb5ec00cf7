// The token's base64 cores (docs/sdk-contract.md section 2): a token of one or two UTF-8 bytes
// has cores of one or two characters, which base64 text holds by chance, so none is looked for;
// a longer token is still hidden inside base64 text at any offset. Budget: FC_RUNS, FC_SEED.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";

import { sanitizeText } from "@mitos/errors";
import { tokenForms } from "../src/sanitize.js";
import { REDACTION } from "./support.js";
import { params } from "./arbitraries.js";

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const b64 = (bytes: Uint8Array, url = false): string => Buffer.from(bytes).toString(url ? "base64url" : "base64");

/** The token, its percent-encodings and its whole base64 forms: every form but the cores. */
function ownForms(token: string): Set<string> {
  const raw = new TextEncoder().encode(token);
  const pct = (upper: boolean): string =>
    [...raw].map((b) => (b < 0x80 && UNRESERVED.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, "0")[upper ? "toUpperCase" : "toLowerCase"]()}`)).join("");
  const whole = b64(raw).replace(/=+$/, "");
  return new Set([token, pct(true), pct(false), whole, whole.replace(/\+/g, "-").replace(/\//g, "_")]);
}

const shortToken = fc
  .string({ unit: "grapheme", minLength: 1, maxLength: 2 })
  .filter((t) => {
    const n = new TextEncoder().encode(t).length;
    return n >= 1 && n <= 2 && t.trim() === t && !/[\p{Cc}\p{Cf}\p{Cs}]/u.test(t);
  });

test("a token of one or two bytes has no core among its forms", () => {
  assert.deepEqual(tokenForms("b"), ["Yg", "b"]); // base64 "Yg==": its core "Y" is not a form
  fc.assert(
    fc.property(shortToken, (token) => {
      const own = ownForms(token);
      for (const form of tokenForms(token)) assert.ok(own.has(form), `${JSON.stringify(token)}: ${form}`);
    }),
    params,
  );
});

test("base64 text without a short token's own forms is left as it would be without the token", () => {
  fc.assert(
    fc.property(shortToken, fc.uint8Array({ minLength: 600, maxLength: 3000 }), (token, blob) => {
      const text = b64(blob);
      fc.pre(![...ownForms(token)].some((form) => text.includes(form)));
      assert.equal(sanitizeText(text, { token }), sanitizeText(text));
    }),
    params,
  );
});

test("a token of three bytes or more is hidden inside base64 at every offset", () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 3, maxLength: 24 }), fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ maxLength: 8 }), fc.boolean(), (tokenBytes, before, after, url) => {
      const token = b64(tokenBytes);
      const raw = new TextEncoder().encode(token);
      const text = b64(new Uint8Array([...before, ...raw, ...after]), url);
      const out = sanitizeText(text, { token });
      assert.ok(out.includes(REDACTION));
      const k = before.length % 3;
      const core = b64(new Uint8Array([...new Uint8Array(k), ...raw, 0, 0]), url).slice(Math.ceil((8 * k) / 6), Math.floor((8 * k + 8 * raw.length) / 6));
      assert.ok(!out.split(REDACTION).join("\u0000").includes(core), `${core} in ${out}`);
    }),
    params,
  );
});
