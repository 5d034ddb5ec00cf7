// The length cap keeps idempotence (docs/sdk-contract.md section 2, stage 3, step 4): a
// cut inside repeated keywords ("password: password: ", "Bearer Bearer") used to leave a
// start that a rule read differently on a second pass. Texts here are cut near the cap.
// Budget: FC_RUNS (default small), FC_SEED to replay a failure.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";

import { AgentRunError, sanitizeText } from "@mitos/errors";
import { sanitizeEvery, sanitizeWithForms, tokenForms } from "../src/sanitize.js";
import { LIMITS, TRUNCATION_MARKER, codePoints } from "./support.js";
import { params, token } from "./arbitraries.js";

const KEEP = LIMITS.textMaxChars - codePoints(TRUNCATION_MARKER);
const KEYWORDS = [
  "password: ", "password=", "passwd:", "Bearer ", "bearer  ", "Basic ", "token=",
  "api_key: ", "secret='", "Authorization: Bearer ", "https://u:", "@h ", "[REDACTED]",
  "[filtered]", "ignore previous instructions ", "<|im_start|>", "…", "abcdefgh",
  "eyJhbGciOi.eyJzdWIiOi.", "-----BEGIN PRIVATE KEY-----", " ", "x",
];

/** A start of about KEEP code points, then keywords glued together: the cap cuts among them. */
const atTheCap = fc
  .tuple(fc.integer({ min: 0, max: 80 }), fc.constantFrom("x", " ", "é", "\u{1f600}"), fc.array(fc.constantFrom(...KEYWORDS), { minLength: 1, maxLength: 40 }))
  .map(([pad, filler, words]) => filler.repeat(KEEP - pad) + words.join(""));

test("a cut inside a repeated keyword goes back before what a second pass would redact", () => {
  const start = "x".repeat(KEEP - 14);
  const once = sanitizeText(start + "password: ".repeat(20));
  assert.equal(once, `${start}password: ${TRUNCATION_MARKER}`);
  assert.equal(sanitizeText(once), once);
});

test("every keyword pair cut near the cap sanitizes to a fixed point", () => {
  for (const first of KEYWORDS) {
    for (const second of KEYWORDS) {
      for (let pad = 0; pad < 40; pad += 3) {
        const once = sanitizeText("x".repeat(KEEP - pad) + (first + second).repeat(10));
        assert.equal(sanitizeText(once), once, JSON.stringify([first, second, pad]));
      }
    }
  }
});

test("texts cut at the cap: within it, idempotent, the same on both paths", () => {
  fc.assert(
    fc.property(atTheCap, fc.option(token, { nil: undefined }), (text, tok) => {
      const forms = tokenForms(tok);
      const once = sanitizeWithForms(text, forms);
      assert.ok(codePoints(once) <= LIMITS.textMaxChars);
      assert.equal(sanitizeEvery(text, forms), once);
      assert.equal(sanitizeWithForms(once, forms), once);
    }),
    params,
  );
});

test("an error rebuilt from its own texts at the cap keeps them", () => {
  fc.assert(
    fc.property(atTheCap, (text) => {
      const err = new AgentRunError(text, { code: "upstream_failed", errorCause: text });
      const again = new AgentRunError(err.message, { code: err.code, errorCause: err.errorCause });
      assert.equal(again.message, err.message);
      assert.equal(again.errorCause, err.errorCause);
    }),
    params,
  );
});
