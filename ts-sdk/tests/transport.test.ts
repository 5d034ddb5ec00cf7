// withTypedErrors: fetch failures become typed errors by what they say about
// the request; undici shapes and secrets are generated with fast-check.
import { test } from "node:test";
import assert from "node:assert/strict";
import util from "node:util";
import fc from "fast-check";

import {
  AgentRunError,
  ConnectionFailedError,
  ConnectionLostError,
  RateLimitedError,
  RequestCanceledError,
  ResponseTimeoutError,
  errorFromFetchFailure,
  transportCodeOf,
  withTypedErrors,
} from "@mitos/errors";

const TOKEN = "tok-9f8e7d6c5b4a";
const SECRETS = ["Bearer abcDEF123456789xyz", "https://user:hunter2pass@proxy.example:3128/", "api_key=sk_live_51HxyzABCDEF"];
const SECRET_PARTS = ["hunter2pass", "abcDEF123456789xyz", "sk_live_51HxyzABCDEF", TOKEN];

const EXPECTED: Record<string, string> = {
  ECONNREFUSED: "connection_failed",
  ENOTFOUND: "connection_failed",
  UND_ERR_CONNECT_TIMEOUT: "connection_failed",
  DEPTH_ZERO_SELF_SIGNED_CERT: "connection_failed",
  ERR_TLS_CERT_ALTNAME_INVALID: "connection_failed",
  ERR_TLS_HANDSHAKE_TIMEOUT: "connection_failed", // by its ERR_TLS_ prefix
  CERT_REVOKED: "connection_failed", // by its CERT_ prefix
  ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC: "connection_lost", // can come from an open connection
  UND_ERR_HEADERS_TIMEOUT: "response_timeout",
  UND_ERR_BODY_TIMEOUT: "response_timeout",
  UND_ERR_SOCKET: "connection_lost",
  ECONNRESET: "connection_lost",
  EPIPE: "connection_lost",
};

/** Node's shape: TypeError("fetch failed") whose cause carries the code, maybe in an AggregateError. */
function undiciFailure(code: string, message: string, aggregate: boolean): TypeError {
  const inner = Object.assign(new Error(message), { code });
  const cause = aggregate ? Object.assign(new AggregateError([inner], message), { code: undefined }) : inner;
  return new TypeError("fetch failed", { cause });
}

test("undici codes map by what they say about the request, wrapped or aggregated", () => {
  fc.assert(
    fc.property(fc.constantFrom(...Object.keys(EXPECTED)), fc.string(), fc.boolean(), (code, message, aggregate) => {
      assert.equal(transportCodeOf(undiciFailure(code, message, aggregate)), EXPECTED[code]);
    }),
  );
});

test("an unknown code, or a browser's bare TypeError, is connection_lost (side effects unknown)", () => {
  fc.assert(
    // No code Node or undici defines starts with ZZ_.
    fc.property(fc.stringMatching(/^ZZ_[A-Z_]{1,20}$/), (code) => {
      assert.equal(errorFromFetchFailure(undiciFailure(code, "x", false))?.code, "connection_lost");
    }),
  );
  const bare = errorFromFetchFailure(new TypeError("Failed to fetch"));
  assert.ok(bare instanceof ConnectionLostError);
  assert.equal(bare.sideEffects, "unknown");
});

test("abort is canceled, a timeout signal is response_timeout, other errors are not transport failures", () => {
  const abort = errorFromFetchFailure(new DOMException("aborted", "AbortError"));
  assert.ok(abort instanceof RequestCanceledError && abort.isCancelled);
  assert.ok(errorFromFetchFailure(new DOMException("timed out", "TimeoutError")) instanceof ResponseTimeoutError);
  assert.equal(errorFromFetchFailure(new RangeError("bug")), undefined);
  assert.equal(errorFromFetchFailure("a string"), undefined);
});

test("the cause names the failure, the original is chained, and nothing secret is shown", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...Object.keys(EXPECTED)),
      fc.string({ maxLength: 40 }),
      fc.constantFrom(...SECRETS),
      fc.string({ maxLength: 3000 }),
      (code, before, secret, after) => {
        const original = undiciFailure(code, `${before} ${secret} ${TOKEN} ${after}`, false);
        const err = errorFromFetchFailure(original, { token: TOKEN });
        assert.ok(err instanceof AgentRunError);
        // The original is chained as a sanitized copy: its name and code, never its text with the token.
        assert.ok(err.cause instanceof Error && err.cause !== original);
        assert.equal(err.cause.name, original.name);
        assert.ok(!util.inspect(err, { depth: Infinity, showHidden: true }).includes(TOKEN));
        assert.equal(err.status, undefined);
        assert.ok(err.errorCause.startsWith("TypeError: fetch failed"));
        const shown = JSON.stringify(err) + String(err) + err.message + err.errorCause;
        for (const part of SECRET_PARTS) assert.ok(!shown.includes(part), `${part} shown`);
      },
    ),
    { numRuns: 200 },
  );
});

test("toJSON is plain JSON data with nothing secret, whatever the texts", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 80 }), fc.constantFrom(...SECRETS), (message, secret) => {
      const err = new RateLimitedError(`${message} ${secret}`, { errorCause: secret, context: { note: secret } });
      const text = JSON.stringify(err);
      assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(err.toJSON())));
      for (const part of SECRET_PARTS.slice(0, 3)) assert.ok(!text.includes(part));
    }),
    { numRuns: 200 },
  );
});

test("withTypedErrors throws the typed error of a failed response and passes a 2xx", async () => {
  const fake = async (input: string | URL | Request): Promise<Response> =>
    String(input).endsWith("/limited")
      ? new Response(JSON.stringify({ error: { code: "rate_limited" } }), { status: 429 })
      : new Response('{"ok":true}', { status: 200 });
  const typed = withTypedErrors(fake, { token: TOKEN });
  await assert.rejects(typed("http://127.0.0.1:9/limited"), RateLimitedError);
  assert.deepEqual(await (await typed("http://127.0.0.1:9/ok")).json(), { ok: true });
  const refused = withTypedErrors(async () => {
    throw undiciFailure("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:9", false);
  });
  await assert.rejects(refused("http://127.0.0.1:9/"), ConnectionFailedError);
});

test("a 2xx body that breaks off rejects its read with the typed error; a bodiless 204 passes", async () => {
  const broken = async (): Promise<Response> => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.error(undiciFailure("UND_ERR_SOCKET", "other side closed", false));
        else controller.enqueue(new TextEncoder().encode('{"data": "'));
        sent = true;
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
  };
  const res = await withTypedErrors(broken)("http://127.0.0.1:9/");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "application/json");
  await assert.rejects(res.text(), (err: unknown) => err instanceof ConnectionLostError && err.cause !== undefined);
  const empty = await withTypedErrors(async () => new Response(null, { status: 204 }))("http://127.0.0.1:9/");
  assert.equal(empty.status, 204);
});
