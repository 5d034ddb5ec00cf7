#!/usr/bin/env node
// Run conformance vectors through the compiled CommonJS build of @mitos/errors.
//
//   node run_ts.cjs direct  < plan.json   errorFromBody, in process, every vector of the plan
//   node run_ts.cjs http    < plan.json   errorFromResponse over fetch, from plan.base_url
//
// The plan (written by tests/conformance/testkit/ts_runner.py) is
// {"entry": "/abs/ts-sdk/dist/cjs/index.js", "base_url": ..., "cases": [...]};
// each case names a vector and carries its status, headers, token and body
// (in the compact vector form, expanded here) or, over HTTP, the path to fetch.
// One JSON line per case goes to stdout, with the SDK's own (TypeScript) field
// names; tests/conformance/testkit/results.py maps them to Python's.
"use strict";

const crypto = require("node:crypto");
const util = require("node:util");

function readStdin() {
  return require("node:fs").readFileSync(0, "utf8");
}

/** Expand a compact body: {"text"}, {"base64"} or {"parts": [...], "as"}. */
function expandBody(body) {
  if (body === undefined || body === null) return { value: "", bytes: null };
  if (typeof body.text === "string") return { value: body.text, bytes: null };
  if (typeof body.base64 === "string") {
    const buf = Buffer.from(body.base64, "base64");
    return { value: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), bytes: buf };
  }
  if (body.as === "text") {
    const text = body.parts.map((p) => (typeof p === "string" ? p : p.repeat.repeat(p.times))).join("");
    return { value: text, bytes: null };
  }
  const pieces = [];
  for (const part of body.parts) {
    if (typeof part === "string") pieces.push(Buffer.from(part, "utf8"));
    else if (typeof part.base64 === "string") pieces.push(Buffer.from(part.base64, "base64"));
    else {
      const unit = Buffer.from(part.repeat, "utf8");
      const out = Buffer.allocUnsafe(unit.length * part.times);
      if (out.length > 0) out.fill(unit);
      pieces.push(out);
    }
  }
  const buf = Buffer.concat(pieces);
  return { value: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), bytes: buf };
}

function orNull(value) {
  return value === undefined ? null : value;
}

/** The public fields of an error, under their TypeScript names. */
function describe(sdk, err, token) {
  const ctor = err.constructor;
  const context = {};
  if (err.context instanceof Map) {
    for (const [k, v] of err.context) Object.defineProperty(context, k, { value: v, enumerable: true });
  } else if (err.context !== null && typeof err.context === "object") {
    for (const k of Object.keys(err.context)) {
      Object.defineProperty(context, k, { value: err.context[k], enumerable: true });
    }
  } else {
    context["<not an object>"] = String(err.context);
  }
  const recovery = err.recovery === undefined || err.recovery === null ? null : { ...err.recovery };
  const out = {
    name: err.name,
    code: err.code,
    message: err.message,
    errorCause: err.errorCause,
    remediation: err.remediation,
    status: orNull(err.status),
    context,
    retryable: err.retryable,
    retryAfterMs: orNull(err.retryAfterMs),
    requestId: orNull(err.requestId),
    recovery,
    sideEffects: err.sideEffects,
    origin: err.origin,
    isAuthFailure: err.isAuthFailure,
    isCancelled: err.isCancelled,
    httpStatus: orNull(ctor.httpStatus),
    grpcStatus: orNull(ctor.grpcStatus),
    baseInstance: err instanceof sdk.AgentRunError && err instanceof Error,
  };
  const again = (text) => sdk.sanitizeText(text, { token: token === null ? undefined : token });
  const resanitized = {};
  for (const [label, name] of [
    ["code", "code"],
    ["message", "message"],
    ["cause", "errorCause"],
    ["remediation", "remediation"],
    ["request_id", "requestId"],
  ]) {
    if (typeof out[name] === "string") resanitized[label] = again(out[name]);
  }
  for (const key of Object.keys(context)) {
    resanitized[`context key:${key}`] = again(key);
    if (typeof context[key] === "string") resanitized[`context value:${key}`] = again(context[key]);
  }
  out.resanitized = resanitized;
  let json;
  try {
    json = JSON.stringify(err);
  } catch (e) {
    json = `<JSON.stringify threw ${e}>`;
  }
  out.text_forms = [String(err), String(err.stack), String(json), util.inspect(err, { depth: 6 })];
  return out;
}

function failure(vector, e) {
  return { vector, threw: `${e && e.name}: ${e && e.message}` };
}

function emit(record) {
  process.stdout.write(JSON.stringify(record) + "\n");
}

function runDirect(sdk, plan) {
  for (const c of plan.cases) {
    let record;
    try {
      const body = expandBody(c.body);
      const options = { status: c.status, headers: c.headers };
      if (c.token !== null && c.token !== undefined) options.token = c.token;
      const started = performance.now();
      const err = sdk.errorFromBody(body.value, options);
      const elapsedMs = performance.now() - started;
      record = { vector: c.name, ...describe(sdk, err, c.token), elapsed_ms: elapsedMs };
      if (body.bytes !== null) record.body_sha256 = crypto.createHash("sha256").update(body.bytes).digest("hex");
    } catch (e) {
      record = failure(c.name, e);
    }
    emit(record);
  }
}

async function runHttp(sdk, plan) {
  const queue = plan.cases.slice();
  const results = new Map();
  async function worker() {
    for (;;) {
      const c = queue.shift();
      if (c === undefined) return;
      let record;
      try {
        const res = await fetch(plan.base_url + c.path, { signal: AbortSignal.timeout(plan.timeout_ms) });
        const options = c.token === null || c.token === undefined ? {} : { token: c.token };
        if (typeof c.body_read_timeout_ms === "number") options.bodyReadTimeoutMs = c.body_read_timeout_ms;
        const err = await sdk.errorFromResponse(res, options);
        record = { vector: c.name, path: c.path, ...describe(sdk, err, c.token) };
      } catch (e) {
        record = { path: c.path, ...failure(c.name, e) };
      }
      results.set(c.path, record);
    }
  }
  await Promise.all(Array.from({ length: plan.concurrency || 4 }, worker));
  for (const c of plan.cases) emit(results.get(c.path));
}

async function main() {
  const mode = process.argv[2];
  const plan = JSON.parse(readStdin());
  const sdk = require(plan.entry);
  if (mode === "direct") runDirect(sdk, plan);
  else if (mode === "http") await runHttp(sdk, plan);
  else throw new Error(`usage: node run_ts.cjs direct|http < plan.json (got ${mode})`);
}

main().catch((e) => {
  process.stderr.write(`run_ts.cjs: ${e && e.stack}\n`);
  process.exit(2);
});
