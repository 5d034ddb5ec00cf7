#!/usr/bin/env node
// The TypeScript half of the differential fuzz session (tests/fuzz/run.py).
//
//   node ts_worker.cjs /abs/ts-sdk/dist/cjs/index.js
//
// Reads batches from stdin, one JSON array of cases per line; each case is
// {"status", "headers": [[name, value], ...], "token", "text" | "base64"}.
// For each batch it writes one line: a JSON array of results, in order, each
// the public fields of the error errorFromBody gave (under the TypeScript
// names), its string and JSON forms and stack, and the clock read just before
// and after the call ("before"/"after", ms since the epoch) so that a delay
// measured from now can be compared across processes; or {"threw": ...}.
"use strict";

const readline = require("node:readline");

const sdk = require(process.argv[2]);

function contextOf(err) {
  const out = {};
  const ctx = err.context;
  if (ctx === null || typeof ctx !== "object") return { "<not an object>": String(ctx) };
  for (const k of Object.keys(ctx)) Object.defineProperty(out, k, { value: ctx[k], enumerable: true });
  return out;
}

function describe(err) {
  const ctor = err.constructor;
  let json;
  try {
    json = JSON.stringify(err);
  } catch (e) {
    json = `<JSON.stringify threw ${e}>`;
  }
  return {
    class: err.name,
    code: err.code,
    message: err.message,
    cause: err.errorCause,
    remediation: err.remediation,
    status: err.status === undefined ? null : err.status,
    context: contextOf(err),
    retryable: err.retryable,
    retry_after_ms: err.retryAfterMs === undefined ? null : err.retryAfterMs,
    request_id: err.requestId === undefined ? null : err.requestId,
    recovery: { ...err.recovery },
    side_effects: err.sideEffects,
    is_auth_failure: err.isAuthFailure,
    is_cancelled: err.isCancelled,
    http_status: ctor.httpStatus === undefined ? null : ctor.httpStatus,
    grpc_status: ctor.grpcStatus === undefined ? null : ctor.grpcStatus,
    base_instance: err instanceof sdk.AgentRunError && err instanceof Error,
    str: String(err),
    json,
    stack: String(err.stack),
  };
}

function run(c) {
  try {
    const body = typeof c.text === "string" ? c.text : new Uint8Array(Buffer.from(c.base64, "base64"));
    const headers = {};
    for (const [name, value] of c.headers) headers[name] = value;
    const options = { status: c.status, headers };
    if (c.token !== null && c.token !== undefined) options.token = c.token;
    const before = Date.now();
    const err = sdk.errorFromBody(body, options);
    const after = Date.now();
    return { ...describe(err), before, after };
  } catch (e) {
    return { threw: `${e && e.name}: ${e && e.message}\n${e && e.stack}` };
  }
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  const batch = JSON.parse(line);
  process.stdout.write(JSON.stringify(batch.map(run)) + "\n");
});
