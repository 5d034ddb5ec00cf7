// Bounds at the edges (issue 20): every retry delay an error derives (the
// context's retry_after_ms, Retry-After-Ms, Retry-After in seconds or as an
// HTTP date) is at most the catalogue's retry_after_max_ms, so
// `setTimeout(retry, err.retryAfterMs)` waits it instead of overflowing and
// firing at once (docs/sdk-contract.md section 1, step 6); and a header name
// repeated many times is read whole. Budget: FC_RUNS, FC_SEED to replay.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";

import { errorFromBody, sanitizeText } from "@mitos/errors";
import { LIMITS, envelope } from "./support.js";
import { params } from "./arbitraries.js";

const CEILING = LIMITS.retryAfterMaxMs;
const TIMER_MAX = 2 ** 31 - 1; // the longest delay setTimeout waits; past it, it fires at once

/** Delays at, around and far past the ceiling, up to the 15 digits a header may hold. */
const delays = fc.oneof(
  fc.integer({ min: CEILING - 2, max: CEILING + 2 }),
  fc.integer({ min: 0, max: 2 * CEILING }),
  fc.integer({ min: CEILING, max: 10 ** 15 - 1 }),
);

test("the ceiling is a delay every timer can wait", () => {
  assert.ok(Number.isSafeInteger(CEILING) && CEILING >= 1000 && CEILING <= TIMER_MAX, String(CEILING));
});

test("Retry-After-Ms past the ceiling is cut to it", () => {
  fc.assert(
    fc.property(delays, (ms) => {
      const err = errorFromBody("", { status: 503, headers: { "Retry-After-Ms": String(ms) } });
      assert.equal(err.retryAfterMs, Math.min(ms, CEILING));
    }),
    params,
  );
});

test("Retry-After seconds past the ceiling are cut to it, 15 digits included", () => {
  const seconds = fc.oneof(fc.integer({ min: CEILING / 1000 - 2, max: CEILING / 1000 + 2 }), fc.integer({ min: 0, max: 10 ** 15 - 1 }));
  fc.assert(
    fc.property(seconds, (s) => {
      const err = errorFromBody("", { status: 503, headers: new Headers({ "Retry-After": String(s) }) });
      assert.equal(err.retryAfterMs, Math.min(s * 1000, CEILING));
      assert.ok(err.retryAfterMs !== undefined && err.retryAfterMs <= TIMER_MAX);
    }),
    params,
  );
});

test("an HTTP date ahead is the time until then, at most the ceiling", () => {
  const SLACK_S = 120; // the test's clock and the SDK's are read a moment apart
  const ahead = fc.oneof(
    fc.integer({ min: 0, max: CEILING / 1000 - SLACK_S }),
    fc.integer({ min: CEILING / 1000 + SLACK_S, max: 80 * 365 * 86400 }),
  );
  fc.assert(
    fc.property(ahead, (s) => {
      const date = new Date(Math.floor(Date.now() / 1000) * 1000 + s * 1000).toUTCString();
      const got = errorFromBody("", { status: 503, headers: { "retry-after": date } }).retryAfterMs;
      assert.ok(got !== undefined, date);
      if (s * 1000 > CEILING) assert.equal(got, CEILING, date);
      else assert.ok(Math.abs(got - s * 1000) <= SLACK_S * 1000, `${date}: ${got}`);
    }),
    params,
  );
  const far = errorFromBody("", { status: 503, headers: { "Retry-After": "Thu, 01 Jan 2099 00:00:00 GMT" } });
  assert.equal(far.retryAfterMs, CEILING);
});

test("a context delay past the ceiling is cut to it; the context keeps the server's number", () => {
  const ms = fc.oneof(delays, fc.integer({ min: 10 ** 15, max: Number.MAX_SAFE_INTEGER }));
  fc.assert(
    fc.property(ms, (n) => {
      const err = errorFromBody(envelope({ code: "rate_limited", context: { retry_after_ms: n } }), {
        status: 429,
        headers: { "Retry-After": "1" },
      });
      assert.equal(err.retryAfterMs, Math.min(n, CEILING));
      assert.equal(err.context["retry_after_ms"], n);
    }),
    params,
  );
});

test("a header name repeated many times, in any case, is read whole and joined in order", () => {
  fc.assert(
    fc.property(
      fc.array(fc.stringMatching(/^[a-z0-9]{1,6}$/), { minLength: 1, maxLength: 20 }),
      fc.integer({ min: 1, max: 100_000 }),
      (values, repeats) => {
        const many = Array.from({ length: repeats }, () => values[0]!);
        const joined = [...values, ...many].join(", ");
        const record = { "x-request-id": values, "X-REQUEST-ID": many, "Retry-After-Ms": many, "retry-after": "7" };
        const err = errorFromBody("", { status: 503, headers: record });
        assert.equal(err.requestId, sanitizeText(joined));
        // Repeated delays join into no number; the next header decides.
        assert.equal(err.retryAfterMs, repeats === 1 && /^[0-9]+$/.test(values[0]!) ? Math.min(Number(values[0]), CEILING) : 7000);
      },
    ),
    { ...params, numRuns: Math.min(params.numRuns, 30) },
  );
});
