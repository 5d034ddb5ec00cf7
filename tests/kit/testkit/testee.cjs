#!/usr/bin/env node
// The TypeScript SDK's testee: one request protocol, one record of an error.
//
//   node testee.cjs ENTRY [--concurrency N]  < requests.jsonl  > answers.jsonl
//
// ENTRY is a built @mitos/errors (its CommonJS or its ESM index.js); its other
// entry points (`/clients`, `/server`) are loaded beside it from the package's
// "exports", in the same module system. Each line
// of stdin is one request; each gets one line on stdout, in request order, as
// soon as it and every request before it are answered, so a caller may keep
// the process and send batch after batch. The requests (testkit/testees.py
// writes them; docs in tests/README.md):
//
//   body            errorFromBody(body, {status, headers, token})
//   response        errorFromResponse(await fetch(url), {token, bodyReadTimeoutMs})
//   fetch           withTypedErrors(fetch, {token})(url, init): what it throws
//   error_for_code  errorForCode(code, message, {errorCause, remediation, status, ...})
//   construct       new (lookup(class) or AgentRunError)(message, {code, ...})
//   code_for_grpc   errorForCode(codeForGrpc(status, {channel}), "")
//   error_for_exit  errorForExit(exit_code, {timeoutS, stdout, stderr, token})
//   validate_timeout  validateTimeout(timeout_s, {maxTimeoutS}): what it throws
//   sanitize        sanitizeText(text, {token})
//   emit            envelopeBytes(code or an Error, {surface, cause, context, requestId, token, ...})
//   from_dict       errorFromJSON(dict)
//   client          a GET of url through client (axios, axios-stream, got, ky, undici, fetch) and
//                   the package's hook, interceptor or errorFromResponse: the typed error it gives
//
// An answer is the record of the error (the fields of testkit/record.py
// FIELDS, under the Python names), or {"none": true} when the call gives no
// error, or {"threw": "..."} when it throws something else, or {"text": ...}
// for sanitize, or {"status", "headers", "body"} for emit (the body's bytes as
// Latin-1 text). Every answer carries the request's "id".
"use strict";

const crypto = require("node:crypto");
const readline = require("node:readline");
const util = require("node:util");

/** The SDK at `entry`: required, or imported when it is an ES module. */
async function load(entry) {
  try {
    return require(entry);
  } catch (e) {
    if (!e || e.code !== "ERR_REQUIRE_ESM") throw e;
    return import(require("node:url").pathToFileURL(entry).href);
  }
}

/**
 * The package's entry point `subpath` ("./clients") beside the main entry
 * `entry`, in its module system: from the "exports" of the package.json
 * above it; none ({}) when the package does not export it. In a tree tsc
 * compiled (no package above it), each entry point is the module of its
 * name beside index.js, when there is one.
 */
async function entryPoint(entry, subpath) {
  const path = require("node:path");
  const fs = require("node:fs");
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    const manifest = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
    if (manifest.exports === undefined) continue;
    const format = path.resolve(dir, manifest.exports["."].require.default) === path.resolve(entry) ? "require" : "import";
    const target = manifest.exports[subpath]?.[format]?.default;
    return target === undefined ? {} : load(path.join(dir, target));
  }
  const beside = path.join(path.dirname(entry), `${path.basename(subpath)}.js`);
  return fs.existsSync(beside) ? load(beside) : {};
}

/** A compact body, {"text"}, {"base64"} or {"parts": [...], "as"}, as the SDK is handed it. */
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

/** Headers given as an object or as [name, value] pairs, as a plain object (a name repeated exactly: the last). */
function headersOf(headers) {
  if (!Array.isArray(headers)) return headers ?? {};
  const out = {};
  for (const [name, value] of headers) out[name] = value;
  return out;
}

const orNull = (value) => (value === undefined ? null : value);
const given = (value) => (value === null ? undefined : value);

/** Own members only, in order (a polluted prototype adds nothing, a key such as __proto__ stays a key). */
function plain(source) {
  const out = {};
  if (source instanceof Map) {
    for (const [k, v] of source) Object.defineProperty(out, k, { value: v, enumerable: true });
  } else if (source !== null && typeof source === "object") {
    for (const k of Object.keys(source)) Object.defineProperty(out, k, { value: source[k], enumerable: true });
  } else {
    out["<not an object>"] = String(source);
  }
  return out;
}

/** The names of the classes of `err`, from its own up to the SDK's base class. */
function lineage(sdk, err) {
  const names = [];
  for (let p = Object.getPrototypeOf(err); p !== null && p !== Error.prototype; p = Object.getPrototypeOf(p)) {
    names.push(Object.prototype.hasOwnProperty.call(p, "name") ? p.name : p.constructor.name);
    if (p === sdk.AgentRunError.prototype) break;
  }
  return names;
}

/** The record of one error: its public fields under the Python names, its text forms, its texts sanitized again. */
function record(sdk, err, token) {
  const ctor = err.constructor;
  const recovery = err.recovery === undefined || err.recovery === null ? null : err.recovery;
  const out = {
    class: err.name,
    lineage: lineage(sdk, err),
    code: err.code,
    message: err.message,
    cause: err.errorCause,
    remediation: err.remediation,
    status: orNull(err.status),
    context: plain(err.context),
    retryable: err.retryable,
    retry_after_ms: orNull(err.retryAfterMs),
    request_id: orNull(err.requestId),
    recovery: recovery === null ? null : { ...recovery }, // action, same_arguments, guidance
    side_effects: err.sideEffects,
    origin: orNull(err.origin),
    is_auth_failure: err.isAuthFailure,
    is_cancelled: err.isCancelled,
    http_status: orNull(ctor.httpStatus),
    grpc_status: orNull(ctor.grpcStatus),
    base_instance: err instanceof sdk.AgentRunError && err instanceof Error,
    chained: err.cause !== undefined,
    revives: null, // an Error has no serial form to be rebuilt from in JavaScript
  };
  const again = (text) => sdk.sanitizeText(text, { token: given(token) });
  const resanitized = {};
  for (const name of ["code", "message", "cause", "remediation", "request_id"]) {
    if (typeof out[name] === "string") resanitized[name] = again(out[name]);
  }
  for (const key of Object.keys(out.context)) {
    resanitized[`context key:${key}`] = again(key);
    if (typeof out.context[key] === "string") resanitized[`context value:${key}`] = again(out.context[key]);
  }
  out.resanitized = resanitized;
  let json;
  try {
    json = JSON.stringify(err);
  } catch (e) {
    json = `<JSON.stringify threw ${e}>`;
  }
  out.forms = { str: String(err), stack: String(err.stack), json: String(json), inspect: util.inspect(err, { depth: 6 }) };
  return out;
}

/** Run `call` (which gives an error or undefined) and time it; the record, or {"none": true}. */
async function timed(sdk, token, call) {
  const before = Date.now();
  const started = performance.now();
  let err = call();
  if (err instanceof Promise) err = await err; // a synchronous call is timed without a turn of the event loop
  const elapsedMs = performance.now() - started;
  const after = Date.now();
  if (err === undefined || err === null) return { none: true };
  return { ...record(sdk, err, token), elapsed_ms: elapsedMs, before, after };
}

/** The record of what `call` throws: a typed error, or {"threw"} for anything else; {"none"} when it returns. */
async function thrown(sdk, token, call) {
  try {
    const value = await call();
    return { none: true, ...(value !== null && typeof value === "object" && "status" in value ? { status: value.status } : {}) };
  } catch (err) {
    if (!(err instanceof sdk.AgentRunError)) throw err;
    return timed(sdk, token, () => err);
  }
}

function textsOf(r) {
  const options = {};
  if (r.cause !== null && r.cause !== undefined) options.errorCause = r.cause;
  if (r.remediation !== null && r.remediation !== undefined) options.remediation = r.remediation;
  if (r.status !== null && r.status !== undefined) options.status = r.status;
  return options;
}

async function typedFetch(sdk, r) {
  const init = { method: r.method ?? "GET", headers: { authorization: `Bearer ${r.token}` } };
  if (r.body_bytes > 0) init.body = new Uint8Array(r.body_bytes).fill(0x61);
  const controller = new AbortController();
  if (r.abort_after_ms !== null && r.abort_after_ms !== undefined) setTimeout(() => controller.abort(), r.abort_after_ms);
  const signals = [controller.signal];
  if (r.timeout_ms !== null && r.timeout_ms !== undefined) signals.push(AbortSignal.timeout(r.timeout_ms));
  init.signal = AbortSignal.any(signals);
  const res = await sdk.withTypedErrors(fetch, { token: given(r.token) })(r.url, init);
  await res.text();
  return res;
}

const OPS = {
  body(sdk, r) {
    const body = expandBody(r.body);
    const options = { status: r.status, headers: headersOf(r.headers) };
    if (r.token !== null && r.token !== undefined) options.token = r.token;
    return timed(sdk, r.token, () => sdk.errorFromBody(body.value, options)).then((out) =>
      body.bytes === null ? out : { ...out, body_sha256: crypto.createHash("sha256").update(body.bytes).digest("hex") },
    );
  },
  async response(sdk, r) {
    const res = await fetch(r.url, { signal: AbortSignal.timeout(r.timeout_ms ?? 20000) });
    const options = r.token === null || r.token === undefined ? {} : { token: r.token };
    if (typeof r.body_read_timeout_ms === "number") options.bodyReadTimeoutMs = r.body_read_timeout_ms;
    return timed(sdk, r.token, () => sdk.errorFromResponse(res, options));
  },
  fetch: (sdk, r) => thrown(sdk, r.token, () => typedFetch(sdk, r)),
  error_for_code(sdk, r) {
    const options = textsOf(r);
    if (r.context !== null && r.context !== undefined) options.context = r.context;
    if (r.request_id !== null && r.request_id !== undefined) options.requestId = r.request_id;
    if (r.token !== null && r.token !== undefined) options.token = r.token;
    return timed(sdk, r.token, () => sdk.errorForCode(r.code, r.message ?? "", options));
  },
  construct(sdk, r) {
    const cls = r.class === null ? sdk.AgentRunError : sdk.lookup(r.class);
    return timed(sdk, null, () => new cls(r.message ?? "", { ...textsOf(r), code: given(r.code) }));
  },
  code_for_grpc(sdk, r) {
    const options = r.channel === null || r.channel === undefined ? undefined : { channel: r.channel };
    return timed(sdk, null, () => sdk.errorForCode(sdk.codeForGrpc(r.status, options), ""));
  },
  error_for_exit(sdk, r) {
    const options = { timeoutS: given(r.timeout_s), stdout: given(r.stdout), stderr: given(r.stderr), token: given(r.token) };
    return timed(sdk, r.token, () => sdk.errorForExit(r.exit_code, options));
  },
  validate_timeout(sdk, r) {
    const options = r.max_timeout_s === null || r.max_timeout_s === undefined ? undefined : { maxTimeoutS: r.max_timeout_s };
    return thrown(sdk, null, () => {
      sdk.validateTimeout(r.timeout_s, options);
    });
  },
  sanitize: (sdk, r) => ({ text: sdk.sanitizeText(r.text, { token: given(r.token) }) }),
  emit(sdk, r) {
    const error = r.code === null || r.code === undefined ? new Error(r.cause ?? "") : r.code;
    const options = {
      surface: given(r.surface),
      message: given(r.message),
      remediation: given(r.remediation),
      cause: given(r.cause),
      context: given(r.context),
      requestId: given(r.request_id),
      token: given(r.token),
    };
    const sent = sdk.envelopeBytes(error, options);
    return { status: sent.status, headers: sent.headers, body: Buffer.from(sent.body).toString("latin1") };
  },
  from_dict: (sdk, r) => timed(sdk, null, () => sdk.errorFromJSON(r.dict)),
};

/** A client package, from the node_modules of the SDK under test (ES modules and CommonJS alike). */
async function clientPackage(entry, name) {
  const resolved = require("node:module").createRequire(entry).resolve(name);
  const loaded = await import(require("node:url").pathToFileURL(resolved).href);
  return loaded.default ?? loaded;
}

/** Each client, embedded as the package's README shows: what it throws or errorFromResponse gives. */
const CLIENTS = {
  async fetch(sdk, r, options) {
    return sdk.errorFromResponse(await fetch(r.url, { signal: AbortSignal.timeout(r.timeout_ms ?? 20000) }), options);
  },
  async axios(sdk, r, options, entry, config = {}) {
    const instance = (await clientPackage(entry, "axios")).create({ timeout: r.timeout_ms ?? 20000, ...config });
    instance.interceptors.response.use(undefined, sdk.axiosErrorInterceptor(options));
    await instance.get(r.url);
  },
  "axios-stream": (sdk, r, options, entry) => CLIENTS.axios(sdk, r, options, entry, { responseType: "stream" }),
  async got(sdk, r, options, entry) {
    const got = (await clientPackage(entry, "got")).extend({ hooks: sdk.gotErrorHooks(options), retry: { limit: 0 }, timeout: { request: r.timeout_ms ?? 20000 } });
    await got(r.url);
  },
  async ky(sdk, r, options, entry) {
    const ky = (await clientPackage(entry, "ky")).create({ hooks: { beforeError: [sdk.kyErrorHook(options)] }, retry: 0, timeout: r.timeout_ms ?? 20000 });
    await ky.get(r.url);
  },
  async undici(sdk, r, options, entry) {
    const { request } = await clientPackage(entry, "undici");
    const res = await request(r.url, { headersTimeout: r.timeout_ms ?? 20000 });
    if (res.statusCode >= 400) return sdk.errorFromResponse(res, options);
    await res.body.dump();
  },
};

async function viaClient(sdk, r, entry) {
  const options = r.token === null || r.token === undefined ? {} : { token: r.token };
  if (typeof r.body_read_timeout_ms === "number") options.bodyReadTimeoutMs = r.body_read_timeout_ms;
  const drive = CLIENTS[r.client];
  if (drive === undefined) throw new TypeError(`no such client: ${r.client}`);
  return timed(sdk, r.token, async () => {
    try {
      return await drive(sdk, r, options, entry);
    } catch (err) {
      if (!(err instanceof sdk.AgentRunError)) throw err;
      return err;
    }
  });
}

let ENTRY;

async function answer(sdk, request) {
  let out;
  try {
    const op = request.op === "client" ? (s, r) => viaClient(s, r, ENTRY) : OPS[request.op];
    if (op === undefined) throw new TypeError(`no such request: ${JSON.stringify(request.op)}`);
    out = await op(sdk, request);
  } catch (e) {
    out = { threw: `${e && e.name}: ${e && e.message}` };
  }
  return { id: request.id, ...out };
}

async function main() {
  const [entry, flag, value] = process.argv.slice(2);
  if (entry === undefined) throw new Error("usage: node testee.cjs ENTRY [--concurrency N] < requests.jsonl");
  const concurrency = flag === "--concurrency" ? Number(value) : 4;
  ENTRY = entry;
  // The names of the package's entry points: the main entry's, the client adapters', the server's.
  const loaded = { ...(await load(entry)), ...(await entryPoint(entry, "./clients")), ...(await entryPoint(entry, "./server")) };
  // The SDK's base class under the runtime's name: another API's package exports it under its
  // catalogue's name only, and errorFromJSON of a non-object gives an instance of it.
  const sdk =
    loaded.AgentRunError !== undefined ? loaded : { ...loaded, AgentRunError: loaded.errorFromJSON(null).constructor };
  // Answers leave in request order; up to `concurrency` requests are in flight (only fetches wait).
  const pending = [];
  let running = 0;
  const waiting = [];
  function flush() {
    while (pending.length > 0 && pending[0].done) process.stdout.write(JSON.stringify(pending.shift().answer) + "\n");
  }
  function start(slot) {
    running++;
    answer(sdk, slot.request).then((out) => {
      slot.answer = out;
      slot.done = true;
      running--;
      flush();
      if (waiting.length > 0) start(waiting.shift());
    });
  }
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    const slot = { request: JSON.parse(line), done: false, answer: null };
    pending.push(slot);
    if (running < concurrency) start(slot);
    else waiting.push(slot);
  }
}

main().catch((e) => {
  process.stderr.write(`testee.cjs: ${e && e.stack}\n`);
  process.exit(2);
});
