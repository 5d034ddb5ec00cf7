// Property tests (fast-check): hostile texts, bodies and headers through the public API.
// Invariants of docs/sdk-contract.md: nothing throws; no removed or spacing character is
// left; every text is within the cap; sanitizing is idempotent; no form of the token and
// no secret is visible on any surface. That the results equal the contract's one reference
// is tests/conformance/test_shortcuts.py's part (it asks this package through its testee).
// Budget: FC_RUNS (default small), FC_SEED to replay a failure.
import { test } from "node:test";
import assert from "node:assert/strict";
import util from "node:util";
import fc from "fast-check";

import { AgentRunError, RateLimitedError, errorFromBody, sanitizeText, parseHttpDate } from "@mitos/errors";
import { sanitizeEvery, sanitizeWithForms, tokenForms } from "../src/sanitize.js";
import { cleanCharacters, compiledRules } from "../src/covers.js";
import { triggeredRules } from "../src/generated/sanitizer-rules.js";
import { FILTERED, LIMITS, REDACTION, TRUNCATION_MARKER, codePoints } from "./support.js";
import {
  asctime, dateFields, hostileBody, hostileText, imf, params, realToken, removeRe, retryAfter, rfc850, secret, toSpaceRe, token,
} from "./arbitraries.js";

const MARKERS = [REDACTION, FILTERED, TRUNCATION_MARKER];
const masked = (text: string): string => MARKERS.reduce((t, m) => t.split(m).join("\u0000"), text);
const MARKER_CHARS = new Set([...REDACTION, ...FILTERED, ...TRUNCATION_MARKER]);
const plainToken = (t: string): boolean => ![...t].some((c) => MARKER_CHARS.has(c));

function assertClean(text: string, what: string): void {
  assert.ok(!removeRe.test(text), `${what} keeps a removed character: ${JSON.stringify(text)}`);
  assert.ok(!toSpaceRe.test(text), `${what} keeps a line break: ${JSON.stringify(text)}`);
  assert.ok(codePoints(text) <= LIMITS.textMaxChars, `${what} is over the cap`);
}

function assertNoForm(text: string, tok: string, what: string): void {
  const visible = masked(text);
  for (const form of tokenForms(tok)) assert.ok(!visible.includes(form), `${what} shows ${JSON.stringify(form)}: ${JSON.stringify(text)}`);
}

const withToken = fc.oneof(fc.constant(undefined), token).chain((tok) => fc.tuple(fc.constant(tok), hostileText(tok)));

test("the generated pre-filter sets the bit of every rule that matches the cleaned text", () => {
  const rules = compiledRules().rules;
  fc.assert(
    fc.property(hostileText(undefined), (raw) => {
      const text = cleanCharacters(raw);
      const mask = triggeredRules(text);
      rules.forEach((rule, i) => {
        if (i >= 31) return;
        const re = rule.prefix ?? rule.pattern;
        re.lastIndex = 0;
        const found = rule.prefix === undefined ? re.test(text) : new RegExp(rule.prefix.source + rule.pattern.source, "u").test(text);
        re.lastIndex = 0;
        if (found) assert.notEqual(mask & (1 << i), 0, `rule ${i} matches ${JSON.stringify(text)}`);
      });
    }),
    params,
  );
});

test("every rule without the pre-filter (the constructors' path) gives what the pre-filter's path gives", () => {
  fc.assert(
    fc.property(withToken, ([tok, text]) => {
      const forms = tokenForms(tok);
      const every = sanitizeEvery(text, forms);
      assert.equal(every, sanitizeWithForms(text, forms));
    }),
    params,
  );
});

test("a constructor sanitizes every text it is given as sanitizeText does", () => {
  fc.assert(
    fc.property(hostileText(undefined), hostileText(undefined), hostileText(undefined), (message, cause, key) => {
      const clean = (t: string): string => sanitizeText(t);
      const e = new RateLimitedError(message, { errorCause: cause, context: { [key]: message, retry_after_ms: 5 } });
      const base = new AgentRunError(message, { code: `x_${key}` });
      if (clean(message) !== "") assert.equal(e.message, clean(message));
      if (clean(cause) !== "") assert.equal(e.errorCause, clean(cause));
      if (key !== "" && clean(key) === key) assert.equal(e.context[key], clean(message));
      else assert.ok(!Object.hasOwn(e.context, key) || key === "retry_after_ms");
      assert.equal(base.code, clean(`x_${key}`));
    }),
    params,
  );
});

test("sanitizeText: total, clean, capped, idempotent, no token form left", () => {
  fc.assert(
    fc.property(withToken, ([tok, text]) => {
      const out = sanitizeText(text, { token: tok });
      assertClean(out, "sanitizeText");
      if (tok !== undefined) assertNoForm(out, tok, "sanitizeText");
      if (tok === undefined || plainToken(tok)) assert.equal(sanitizeText(out, { token: tok }), out, "not idempotent");
    }),
    params,
  );
});

test("sanitizeText: a secret among hostile text never stays visible, with invisible characters inside it too", () => {
  fc.assert(
    fc.property(hostileText(undefined, { glued: false }), secret, hostileText(undefined, { glued: false }), (before, [text, part], after) => {
      const out = sanitizeText(`${before} ${text} ${after}`);
      assert.ok(!out.includes(part), `${JSON.stringify(part)} visible in ${JSON.stringify(out)}`);
    }),
    params,
  );
});

function surfaces(err: Error & Record<string, unknown>): [string, string][] {
  const ctx = err["context"] as Record<string, unknown>;
  return [
    ["String()", String(err)],
    ["JSON.stringify", JSON.stringify(err)],
    ["util.inspect", util.inspect(err, { depth: 5, showHidden: true })],
    ["stack", String(err.stack)],
    ["context", JSON.stringify(ctx)],
  ];
}

test("errorFromBody: hostile bodies and headers never throw; every text is clean and capped; no token on any surface", () => {
  const input = realToken.chain((tok) => fc.tuple(fc.constant(tok), hostileBody(tok), hostileText(tok), retryAfter, fc.integer({ min: 0, max: 999 })));
  fc.assert(
    fc.property(input, ([tok, body, requestId, after, status]) => {
      const headers = { "x-request-id": requestId, "retry-after": after };
      const err = errorFromBody(body, { status, headers, token: tok }) as unknown as Error & Record<string, unknown>;
      assert.ok(err instanceof Error);
      for (const key of ["message", "code", "errorCause", "remediation"]) assertClean(String(err[key]), key);
      if (err["requestId"] !== undefined) assertClean(String(err["requestId"]), "requestId");
      for (const [k, v] of Object.entries(err["context"] as Record<string, unknown>)) {
        assertClean(k, "context key");
        if (typeof v === "string") assertClean(v, "context value");
      }
      const delay = err["retryAfterMs"];
      assert.ok(delay === undefined || (Number.isSafeInteger(delay) && (delay as number) >= 0), String(delay));
      for (const [what, text] of surfaces(err)) assertNoForm(text, tok, what);
    }),
    params,
  );
});

test("HTTP dates: the three forms of one instant parse alike, from year 0000, as the calendar says", () => {
  fc.assert(
    fc.property(dateFields, (f) => {
      const valid = f.day >= 1 && f.hour <= 23 && f.minute <= 59 && f.second <= 60 && f.day <= new Date(Date.UTC(2000, f.month + 1, 0)).getUTCDate();
      const expected = new Date(0);
      expected.setUTCFullYear(f.year, f.month, f.day);
      // Whether the day exists is read before the time is set: 23:59:60 (a leap
      // second) is the next day's 00:00:00, and that does not make the day invalid.
      const exists = valid && expected.getUTCDate() === f.day && expected.getUTCMonth() === f.month;
      expected.setUTCHours(f.hour, f.minute, f.second, 0);
      const want = exists ? expected.getTime() : undefined;
      assert.equal(parseHttpDate(imf(f)), want, imf(f));
      assert.equal(parseHttpDate(asctime(f)), want, asctime(f));
    }),
    params,
  );
});

test("HTTP dates: an RFC 850 year is the latest with its two digits not more than 50 years after now", () => {
  const now = fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2400, 0, 1) });
  fc.assert(
    fc.property(dateFields, now, (f, at) => {
      const got = parseHttpDate(rfc850(f), at);
      if (got === undefined) return;
      const d = new Date(got);
      assert.equal(d.getUTCFullYear() % 100, f.year % 100);
      const limit = new Date(at);
      limit.setUTCFullYear(limit.getUTCFullYear() + 50);
      // Not after the limit (comparing the calendar fields), and 100 years later would be.
      const fields = (x: Date): number[] => [x.getUTCFullYear(), x.getUTCMonth(), x.getUTCDate(), x.getUTCHours(), x.getUTCMinutes(), x.getUTCSeconds()];
      const cmp = (a: number[], b: number[]): number => a.findIndex((v, i) => v !== b[i]) === -1 ? 0 : Math.sign(a[a.findIndex((v, i) => v !== b[i])]! - b[a.findIndex((v, i) => v !== b[i])]!);
      const lim = [new Date(at).getUTCFullYear() + 50, ...fields(new Date(at)).slice(1)];
      assert.ok(cmp(fields(d), lim) <= 0, `${rfc850(f)} read as ${d.toISOString()} at ${new Date(at).toISOString()}`);
      assert.ok(cmp([fields(d)[0]! + 100, ...fields(d).slice(1)], lim) > 0);
    }),
    params,
  );
});
