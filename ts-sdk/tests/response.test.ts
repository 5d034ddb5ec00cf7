// fetch Responses: the body is read chunk by chunk up to the cap, then the
// stream is cancelled; raiseForStatus throws the typed error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { NotFoundError, RateLimitedError, errorFromResponse, raiseForStatus, BadGatewayError } from "@mitos/errors";
import { LIMITS, REDACTION } from "./support.js";

const CAP = LIMITS.errorBodyMaxBytes;

/** A stream of `chunks` chunks of `size` bytes, recording how much was pulled and whether it was cancelled. */
function countingStream(prefix: string, chunks: number, size: number) {
  const state = { pulled: 0, cancelled: false };
  const head = new TextEncoder().encode(prefix);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= chunks) {
        controller.close();
        return;
      }
      const chunk = sent === 0 ? head : new Uint8Array(size).fill(0x61);
      sent++;
      state.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

test("errorFromResponse parses an envelope with the response's status and headers", async () => {
  const res = new Response(JSON.stringify({ error: { code: "not_found", message: "no such sandbox" } }), {
    status: 404,
    headers: { "X-Request-Id": "req-9" },
  });
  const err = await errorFromResponse(res);
  assert.ok(err instanceof NotFoundError);
  assert.equal(err.status, 404);
  assert.equal(err.requestId, "req-9");
});

test("at most the body cap is read, chunk by chunk, and the rest of the stream is cancelled", async () => {
  const { stream, state } = countingStream("<html>", 10_000, 16 * 1024);
  const err = await errorFromResponse(new Response(stream, { status: 502 }));
  assert.ok(err instanceof BadGatewayError);
  assert.ok(state.pulled < CAP + 64 * 1024, `pulled ${state.pulled} bytes`);
  await new Promise((r) => setTimeout(r, 10));
  assert.ok(state.cancelled, "the stream is cancelled past the cap");
});

test("a body exactly at the cap is read whole; the stream is not cancelled when it ended", async () => {
  const head = '{"error":{"code":"rate_limited","message":"';
  const tail = '"}}';
  const body = head + "m".repeat(CAP - head.length - tail.length) + tail;
  const err = await errorFromResponse(new Response(body, { status: 429 }));
  assert.ok(err instanceof RateLimitedError);
});

test("a body that fails midway, one already read, and none at all still give the status's error", async () => {
  let n = 0;
  const failing = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (n++ === 0) controller.enqueue(new TextEncoder().encode('{"error":{"code":"rate_limited"}}'));
      else controller.error(new Error("connection reset"));
    },
  });
  const partial = await errorFromResponse(new Response(failing, { status: 429 }));
  assert.ok(partial instanceof RateLimitedError);
  const used = new Response("{}", { status: 404 });
  await used.text();
  assert.ok((await errorFromResponse(used)) instanceof NotFoundError);
  assert.ok((await errorFromResponse(new Response(null, { status: 404 }))) instanceof NotFoundError);
});

test("raiseForStatus returns a 2xx response and throws the typed error otherwise, token redacted", async () => {
  const ok = new Response("fine", { status: 200 });
  assert.equal(await raiseForStatus(ok), ok);
  const token = "tok_secret_value_123";
  const res = new Response(JSON.stringify({ error: { code: "rate_limited", cause: `key ${token} over limit` } }), {
    status: 429,
    headers: { "retry-after": "2" },
  });
  await assert.rejects(raiseForStatus(res, { token }), (e: unknown) => {
    assert.ok(e instanceof RateLimitedError);
    assert.equal(e.errorCause, `key ${REDACTION} over limit`);
    assert.equal(e.retryAfterMs, 2000);
    return true;
  });
});

test("over real HTTP with fetch: an envelope, a proxy page, and a huge body cut at the cap", async () => {
  const big = Buffer.alloc(8 * 1024 * 1024, 0x61);
  let bigSent = 0;
  const server: Server = createServer((req, res) => {
    if (req.url === "/envelope") {
      res.writeHead(429, { "content-type": "application/json", "retry-after-ms": "1500", "x-request-id": "req-h" });
      res.end(JSON.stringify({ error: { code: "rate_limited", message: "slow down" } }));
    } else if (req.url === "/proxy") {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body>bad gateway</body></html>");
    } else {
      res.writeHead(503, { "content-type": "text/plain" });
      const write = (): void => {
        while (bigSent < big.length) {
          const chunk = big.subarray(bigSent, bigSent + 64 * 1024);
          bigSent += chunk.length;
          if (!res.write(chunk)) {
            res.once("drain", write);
            return;
          }
        }
        res.end();
      };
      res.on("error", () => undefined);
      write();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const env = await errorFromResponse(await fetch(`${base}/envelope`));
    assert.ok(env instanceof RateLimitedError);
    assert.equal(env.retryAfterMs, 1500);
    assert.equal(env.requestId, "req-h");
    const proxy = await errorFromResponse(await fetch(`${base}/proxy`));
    assert.ok(proxy instanceof BadGatewayError);
    const huge = await errorFromResponse(await fetch(`${base}/huge`));
    assert.equal(huge.code, "unavailable");
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(bigSent < big.length, `the server was not read to the end (${bigSent} of ${big.length} bytes sent)`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
