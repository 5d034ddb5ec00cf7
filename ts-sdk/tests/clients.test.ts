// Other clients' responses: Node-style bodies (undici's request(), IncomingMessage, axios
// and got streams) read to the cap within the deadline, inflated as they arrive; the axios
// interceptor, got hooks and ky hook. The same clients against the loopback server, from
// Python, are tests/conformance/test_clients.py. Budget: FC_RUNS, FC_SEED.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import fc from "fast-check";

import { AgentRunError, QuotaExceededError, RateLimitedError, errorFromBody, errorFromResponse, raiseForStatus } from "@mitos/errors";
import { axiosErrorInterceptor, gotErrorHooks, kyErrorHook } from "@mitos/errors/clients";
import { LIMITS } from "./support.js";
import { hostileBody, params, token } from "./arbitraries.js";

const CAP = LIMITS.errorBodyMaxBytes;
const ENVELOPE = '{"error":{"code":"quota_exceeded","message":"over quota","cause":"the plan"}}';
const encode = (body: string | Uint8Array): Uint8Array => (typeof body === "string" ? new TextEncoder().encode(body) : body);

/** `bytes` cut at the given points, as an async iterable of Buffers. */
async function* pieces(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1))].sort((a, b) => a - b)) {
    yield Buffer.from(bytes.subarray(at, cut));
    at = cut;
  }
  yield Buffer.from(bytes.subarray(at));
}

/** Each way a body is sent: its `Content-Encoding` and its bytes; `deflate` zlib-wrapped or raw, as servers send it. */
const CODINGS: Record<string, readonly [string, (b: Uint8Array) => Uint8Array]> = {
  identity: ["identity", (b) => b],
  gzip: ["gzip", (b) => gzipSync(b)],
  deflate: ["deflate", (b) => deflateSync(b)],
  "deflate-raw": ["deflate", (b) => deflateRawSync(b)],
};

test("a Node-style body in any chunks and coding gives the error of its bytes", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(fc.constant(undefined), token).chain((tok) => fc.tuple(fc.constant(tok), hostileBody(tok))),
      fc.array(fc.nat(), { maxLength: 6 }),
      fc.constantFrom(...Object.values(CODINGS)),
      fc.constantFrom(400, 429, 500, 503),
      async ([tok, body], cuts, [coding, compress], status) => {
        const bytes = encode(body);
        const headers = { "content-encoding": coding, "x-request-id": "req-1" };
        const res = { statusCode: status, headers, body: pieces(compress(bytes), cuts) };
        const got = await errorFromResponse(res, { token: tok });
        const want = errorFromBody(bytes, { status, headers: { "x-request-id": "req-1" }, token: tok });
        assert.deepEqual(got.toJSON(), want.toJSON());
      },
    ),
    params,
  );
});

test("an endless Node stream is read no further than the cap and destroyed", async () => {
  let pulled = 0;
  const stream = new Readable({
    read() {
      pulled += 16384;
      this.push(pulled === 16384 ? Buffer.from(ENVELOPE.slice(0, -2) + ',"pad":"') : Buffer.alloc(16384, 0x61));
    },
  });
  const err = await errorFromResponse({ statusCode: 429, headers: {}, body: stream });
  assert.ok(err instanceof RateLimitedError); // cut inside the pad: not JSON, the status decides
  assert.ok(pulled <= CAP + 4 * 16384, String(pulled));
  assert.ok(stream.destroyed);
});

test("a gzip or deflate bomb (zlib-wrapped or raw) is inflated no further than the cap", async () => {
  const inflated = Buffer.alloc(64 * 1024 * 1024, 0x61); // 64 MB in about 64 KB
  for (const [coding, compress] of Object.values(CODINGS).slice(1)) {
    const bomb = compress(inflated);
    const before = process.memoryUsage().rss;
    const err = await errorFromResponse({ statusCode: 500, headers: { "content-encoding": coding }, body: Readable.from([bomb]) });
    assert.equal(err.status, 500);
    assert.ok(process.memoryUsage().rss - before < 48 * 1024 * 1024, coding);
  }
});

test("deflate is read raw exactly when its first two bytes are no zlib header, wherever the chunks end", async () => {
  const body = encode(ENVELOPE);
  for (const compress of [deflateSync, deflateRawSync]) {
    const sent = compress(body);
    for (const cuts of [[], [1], [1, 2], [0, 1, 1, 3]]) {
      const err = await errorFromResponse({ statusCode: 400, headers: { "content-encoding": "deflate" }, body: pieces(sent, cuts) });
      assert.ok(err instanceof QuotaExceededError, `${compress.name} ${JSON.stringify(cuts)}: ${String(err)}`);
    }
  }
  // One byte, or none, is no deflate body of either kind: the status decides.
  for (const sent of [new Uint8Array([0x78]), new Uint8Array(0)]) {
    const err = await errorFromResponse({ statusCode: 429, headers: { "content-encoding": "deflate" }, body: pieces(sent, []) });
    assert.ok(err instanceof RateLimitedError, String(err));
  }
});

test("a stalled Node stream is cut at the deadline, and the cause says so", async () => {
  const stream = new Readable({ read() {} });
  stream.push(ENVELOPE);
  const started = performance.now();
  const alive = setInterval(() => undefined, 1000); // a real socket keeps the event loop alive; the deadline's timer does not
  const err = await errorFromResponse({ statusCode: 429, headers: {}, body: stream }, { bodyReadTimeoutMs: 150 });
  clearInterval(alive);
  assert.ok(performance.now() - started < 1000);
  assert.ok(err instanceof QuotaExceededError);
  assert.ok(err.errorCause.endsWith("(the error body was cut short: it did not arrive within 150 ms)"));
  assert.ok(stream.destroyed);
});

test("a body in a coding it does not read (br) is not read: the status decides", async () => {
  const err = await errorFromResponse({ statusCode: 429, headers: { "content-encoding": "br" }, body: Readable.from([Buffer.from(ENVELOPE)]) });
  assert.ok(err instanceof RateLimitedError);
});

test("raiseForStatus takes a Node-style response: 2xx comes back, anything else throws", async () => {
  const ok = { statusCode: 204, headers: {}, body: Readable.from([]) };
  assert.equal(await raiseForStatus(ok), ok);
  await assert.rejects(raiseForStatus({ statusCode: 429, headers: {}, body: Readable.from([Buffer.from(ENVELOPE)]) }), QuotaExceededError);
});

/** An AxiosError-like failure whose response carries `data`, and the bearer token in its config. */
function axiosFailure(data: unknown): Error {
  const error = new Error("Request failed with status code 429");
  Object.assign(error, {
    config: { headers: { Authorization: "Bearer sekrit-token-123" } },
    response: { status: 429, headers: { "x-request-id": "req-9" }, data },
  });
  return error;
}

test("the axios interceptor reads every form axios hands over, and keeps nothing of the request", async () => {
  const reject = axiosErrorInterceptor({ token: "sekrit-token-123" });
  const forms: unknown[] = [ENVELOPE, JSON.parse(ENVELOPE), Buffer.from(ENVELOPE), new TextEncoder().encode(ENVELOPE).buffer, Readable.from([Buffer.from(ENVELOPE)])];
  for (const data of forms) {
    const err = await reject(axiosFailure(data)).catch((e: unknown) => e);
    assert.ok(err instanceof QuotaExceededError, String(err));
    assert.equal(err.requestId, "req-9");
    assert.ok(!JSON.stringify(err).includes("sekrit") && !String(err.stack).includes("sekrit"));
  }
});

test("a network failure gives its transport error; a programming error is left as it was", async () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
  const typed = await axiosErrorInterceptor()(refused).catch((e: unknown) => e);
  assert.ok(typed instanceof AgentRunError && typed.code === "connection_failed", String(typed));
  const bug = new RangeError("bad option");
  assert.equal(await axiosErrorInterceptor()(bug).catch((e: unknown) => e), bug);
  assert.equal(await gotErrorHooks().beforeError[0]!(bug), bug);
});

test("the got hook reads the body got buffered, as bytes or parsed", async () => {
  const [hook] = gotErrorHooks({ token: "tok" }).beforeError;
  for (const response of [
    { statusCode: 429, headers: {}, rawBody: Buffer.from(ENVELOPE), body: ENVELOPE },
    { statusCode: 429, headers: {}, body: JSON.parse(ENVELOPE) },
  ]) {
    const err = await hook!(Object.assign(new Error("HTTPError"), { response }));
    assert.ok(err instanceof QuotaExceededError, String(err));
  }
});

test("the ky hook reads ky's unread Response to the cap and throws its error", async () => {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(ENVELOPE));
      controller.close();
    },
  });
  const response = new Response(stream, { status: 429 });
  await assert.rejects(kyErrorHook()({ response }), QuotaExceededError);
});
