// Benchmark of @mitos/errors: error-construction cost against a floor and
// against openai-node, and import cost against an empty module, measured
// in one run, reported as ratios. Run with `npm run bench` (it builds first).
//
// Construction: for each body of python-sdk/bench/bodies.json (shared with the Python
// benchmark), the median ns per call over interleaved rounds of
//   JSON.parse   JSON.parse of the body (the unit),
//   floor        JSON.parse + class lookup + constructing an Error subclass
//                that stores the fields (what any typed error costs: V8's
//                stack capture dominates),
//   floor, adopted  the same, the error built as this package builds its
//                errors (a plain Error given the class's prototype), so
//                that ours/adopted is the cost of the work the floor skips,
//   openai       openai-node's APIError.generate on the parsed body, as the
//                openai client calls it,
//   errorFromBody  this package, every field sanitized, with the caller's
//                token and the response's Headers (what raiseForStatus does),
//                and again with neither.
// Each runs STACK_DEPTH frames deep (see below); bodies and headers (a
// fetch Headers) are the same for all.
// The floor of errorFromBody, one definition: in each round, the cheaper of
// floor and floor, adopted (the least any typed error of that body costs,
// built either way). ours/floor is errorFromBody over it in the same round;
// the report gives its median and range over the rounds of one run, per
// body and over the four bodies (the median of the per-body medians).
// Import: fresh node processes, the median in-process time of importing the
// module, minus that of an empty module.
//
// Options: --json (print the figures as JSON), --quick (fewer rounds),
// --only=construction or --only=import (one half of the benchmark).
import { spawnSync } from "node:child_process";
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequire } from "node:module";

import { errorFromBody } from "../dist/esm/index.js";
import { APIError } from "openai/error";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const quick = process.argv.includes("--quick");
const asJson = process.argv.includes("--json");
const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
if (only !== undefined && only !== "construction" && only !== "import") throw new Error(`--only=${only}: construction or import`);
const ROUNDS = quick ? 5 : 15;
const TARGET_MS = quick ? 40 : 100;

// The bodies, headers and token of both SDK benchmarks.
const { bodies, token } = JSON.parse(readFileSync(join(ROOT, "..", "python-sdk", "bench", "bodies.json"), "utf8"));

// --- the floor: the least a typed error from a JSON body can cost -------------
class FloorError extends Error {
  constructor(message, code, cause, remediation, status, context, retryAfterMs, requestId) {
    super(message);
    this.code = code;
    this.errorCause = cause;
    this.remediation = remediation;
    this.status = status;
    this.context = context;
    this.retryAfterMs = retryAfterMs;
    this.requestId = requestId;
  }
}
const FLOOR_CLASSES = new Map(
  ["rate_limited", "not_found", "exec_failed", "bad_gateway", "internal"].map((code) => [code, class extends FloorError {}]),
);
const FLOOR_FALLBACK = new Map([[502, "bad_gateway"]]);
function floor(body, status) {
  const data = body.charCodeAt(0) === 0x7b ? JSON.parse(body) : undefined;
  const e = data?.error;
  const code = typeof e?.code === "string" ? e.code : (FLOOR_FALLBACK.get(status) ?? "internal");
  const cls = FLOOR_CLASSES.get(code) ?? FloorError;
  return new cls(e?.message ?? "", code, e?.cause ?? "", e?.remediation ?? "", status, e?.context ?? {}, undefined, undefined);
}

// The floor again, but building the error as this package does (a plain Error
// given the class's prototype; see adopt() in src/base.ts): what the package
// costs over it is the work it does that the floor does not.
function floorAdopted(body, status) {
  const data = body.charCodeAt(0) === 0x7b ? JSON.parse(body) : undefined;
  const e = data?.error;
  const code = typeof e?.code === "string" ? e.code : (FLOOR_FALLBACK.get(status) ?? "internal");
  const cls = FLOOR_CLASSES.get(code) ?? FloorError;
  const error = new Error(e?.message ?? "");
  error.code = code;
  error.errorCause = e?.cause ?? "";
  error.remediation = e?.remediation ?? "";
  error.status = status;
  error.context = e?.context ?? {};
  error.retryAfterMs = undefined;
  error.requestId = undefined;
  return Object.setPrototypeOf(error, cls.prototype);
}

// --- openai-node, as its client turns a failed response into an error ---------
function openai(body, status, headers) {
  let json;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return APIError.generate(status, json, json ? undefined : body, headers);
}

function parse(body) {
  return JSON.parse(body.charCodeAt(0) === 0x7b ? body : "{}");
}

// --- timing ------------------------------------------------------------------
// Every candidate runs STACK_DEPTH frames deep, as errors are built inside an
// application, so each stack capture walks Error.stackTraceLimit frames
// whoever builds the error (a shallow benchmark would charge a library for
// its own internal frames, which in an application only replace callers').
// What walking a frame costs depends on how V8 has compiled it: a capture
// through optimized frames reads their deoptimization data, and costs about
// twice as much as one through interpreted frames. `deep` gets optimized
// after some thousands of calls, which used to happen while the first body
// was measured, so that the bodies were measured against floors that
// differed by up to 2x. It is warmed up first, so that every body and
// candidate runs through the same frames, as an application's hot path does.
// Times are the process's CPU time (process.cpuUsage), not the wall clock,
// so that a round during which another process had the core does not count
// the wait (the machines this runs on are shared).
const STACK_DEPTH = Error.stackTraceLimit + 2;
const WARMUP_CALLS = 5000;
let sink = 0;
function cpuNs() {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
}
function loop(fn, iterations) {
  const start = cpuNs();
  for (let i = 0; i < iterations; i++) sink += fn() === undefined ? 0 : 1;
  return (cpuNs() - start) / iterations;
}
function deep(depth, fn, iterations) {
  return depth <= 0 ? loop(fn, iterations) : deep(depth - 1, fn, iterations);
}
function time(fn, iterations) {
  return deep(STACK_DEPTH, fn, iterations);
}
for (let i = 0; i < WARMUP_CALLS; i++) time(() => sink, 1);

function calibrate(fn) {
  let n = 1000;
  for (;;) {
    const ns = time(fn, n);
    if (ns * n >= TARGET_MS * 1e6 / 4 || n >= 1e7) return Math.max(1000, Math.round((TARGET_MS * 1e6) / ns));
    n *= 4;
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** errorFromBody over the floor (the cheaper way of building the typed error), round by round. */
function floorRatios(samples) {
  return samples.errorFromBody.map((ours, r) => ours / Math.min(samples.floor[r], samples["floor, adopted"][r]));
}

/** The candidates on one body of bodies.json. */
function candidatesOf(spec) {
  const { body, status } = spec;
  const headers = new Headers(spec.headers);
  return {
    "JSON.parse": () => parse(body),
    floor: () => floor(body, status),
    "floor, adopted": () => floorAdopted(body, status),
    openai: () => openai(body, status, headers),
    errorFromBody: () => errorFromBody(body, { status, headers, token }),
    "errorFromBody (no token, no headers)": () => errorFromBody(body, { status }),
  };
}

/**
 * Every candidate on every body first, so that V8 has compiled what they run
 * before any is timed: CPU time counts its compiler threads too, which would
 * otherwise charge the first body's rounds.
 */
function warmCandidates() {
  for (const spec of bodies) for (const fn of Object.values(candidatesOf(spec))) time(fn, WARMUP_CALLS);
}

function measureBody(spec) {
  const candidates = candidatesOf(spec);
  const iterations = {};
  for (const [name, fn] of Object.entries(candidates)) iterations[name] = calibrate(fn);
  const samples = Object.fromEntries(Object.keys(candidates).map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of Object.entries(candidates)) samples[name].push(time(fn, iterations[name]));
  }
  const ratios = floorRatios(samples);
  return {
    ...Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)])),
    overFloor: { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) },
  };
}

// --- import time --------------------------------------------------------------
// Each fresh process first loads one empty module (so the module loader is
// up), then times loading the target: an empty module, this package, or
// openai/error, in wall time and in the process's CPU time. "Over an empty
// module" is the target's median minus the empty module's, for import (ESM)
// and require (CommonJS) separately. On a busy machine the wall time counts
// the moments another process had the core; the CPU time does not.
function importTimes() {
  const dir = mkdtempSync(join(tmpdir(), "mitos-bench-"));
  try {
    for (const name of ["warm.mjs", "empty.mjs"]) writeFileSync(join(dir, name), "export {};\n");
    for (const name of ["warm.cjs", "empty.cjs"]) writeFileSync(join(dir, name), "module.exports = {};\n");
    const require = createRequire(import.meta.url);
    const openaiCjs = require.resolve("openai/error");
    const targets = {
      "empty ES module": { esm: true, path: join(dir, "empty.mjs") },
      "@mitos/errors, import": { esm: true, path: join(ROOT, "dist/esm/index.js") },
      "openai/error, import": { esm: true, path: openaiCjs.replace(/\.js$/, ".mjs") },
      "empty CommonJS module": { esm: false, path: join(dir, "empty.cjs") },
      "@mitos/errors, require": { esm: false, path: join(ROOT, "dist/cjs/index.js") },
      "openai/error, require": { esm: false, path: openaiCjs },
    };
    const runs = quick ? 9 : 31;
    const results = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
    for (let r = 0; r < runs; r++) {
      for (const [name, t] of Object.entries(targets)) {
        const start = "const c0 = process.cpuUsage(); const t0 = performance.now();";
        const stop = "const t = performance.now() - t0; const c = process.cpuUsage(c0); process.stdout.write(JSON.stringify([t, (c.user + c.system) / 1000]));";
        const args = t.esm
          ? ["--input-type=module", "-e", `await import(${JSON.stringify(pathToFileURL(join(dir, "warm.mjs")).href)}); ${start} await import(${JSON.stringify(pathToFileURL(t.path).href)}); ${stop}`]
          : ["-e", `require(${JSON.stringify(join(dir, "warm.cjs"))}); ${start} require(${JSON.stringify(t.path)}); ${stop}`];
        const out = spawnSync(process.execPath, args, { encoding: "utf8" });
        if (out.status !== 0) throw new Error(`importing ${name} failed: ${out.stderr}`);
        results[name].push(JSON.parse(out.stdout));
      }
    }
    const medians = (i) => Object.fromEntries(Object.entries(results).map(([k, v]) => [k, median(v.map((s) => s[i]))]));
    return { wall: medians(0), cpu: medians(1) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// --- report -------------------------------------------------------------------
if (only !== "import") warmCandidates();
const construction = only === "import" ? [] : bodies.map((b) => ({ name: b.name, bytes: Buffer.byteLength(b.body), ...measureBody(b) }));
const imports = only === "construction" ? { wall: {}, cpu: {} } : importTimes();
const overEmpty = (times) =>
  Object.fromEntries(
    Object.keys(times)
      .filter((k) => !k.startsWith("empty"))
      .map((k) => [k, times[k] - times[k.endsWith("import") ? "empty ES module" : "empty CommonJS module"]]),
  );
const report = {
  node: process.version,
  rounds: ROUNDS,
  stackDepth: STACK_DEPTH,
  construction: construction.map((c) => ({
    ...c,
    floorOverParse: c.floor / c["JSON.parse"],
    openaiOverFloor: c.openai / c.floor,
    oursOverFloor: c.errorFromBody / c.floor,
    oursOverOpenai: c.errorFromBody / c.openai,
    oursOverAdopted: c.errorFromBody / c["floor, adopted"],
    bareOverFloor: c["errorFromBody (no token, no headers)"] / c.floor,
  })),
  overFloorAllBodies:
    construction.length === 0
      ? undefined
      : {
          median: median(construction.map((c) => c.overFloor.median)),
          min: Math.min(...construction.map((c) => c.overFloor.min)),
          max: Math.max(...construction.map((c) => c.overFloor.max)),
        },
  importMs: imports.wall,
  importOverEmptyMs: overEmpty(imports.wall),
  importCpuMs: imports.cpu,
  importCpuOverEmptyMs: overEmpty(imports.cpu),
};
if (sink === -1) console.log("unreachable");

if (asJson) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const f = (x, d = 2) => x.toFixed(d);
  console.log(`@mitos/errors benchmark (node ${process.version}, median of ${ROUNDS} interleaved rounds, ${STACK_DEPTH} frames deep)\n`);
  console.log("| body | bytes | JSON.parse ns | floor ns | adopted ns | openai ns | errorFromBody ns | bare ns | floor/parse | openai/floor | ours/floor | ours/openai | bare/floor | ours/adopted |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const c of report.construction) {
    console.log(`| ${c.name} | ${c.bytes} | ${f(c["JSON.parse"], 0)} | ${f(c.floor, 0)} | ${f(c["floor, adopted"], 0)} | ${f(c.openai, 0)} | ${f(c.errorFromBody, 0)} | ${f(c["errorFromBody (no token, no headers)"], 0)} | ${f(c.floorOverParse, 1)}x | ${f(c.openaiOverFloor)}x | ${f(c.oursOverFloor)}x | ${f(c.oursOverOpenai)}x | ${f(c.bareOverFloor)}x | ${f(c.oursOverAdopted)}x |`);
  }
  console.log(`\n| body | errorFromBody / floor, median of ${ROUNDS} rounds | range |`);
  console.log("|---|---:|---|");
  for (const c of report.construction) console.log(`| ${c.name} | ${f(c.overFloor.median)}x | ${f(c.overFloor.min)}x to ${f(c.overFloor.max)}x |`);
  if (report.overFloorAllBodies !== undefined) {
    const a = report.overFloorAllBodies;
    console.log(`| all four bodies | ${f(a.median)}x (median of the medians) | ${f(a.min)}x to ${f(a.max)}x |`);
  }
  console.log("(the floor: in each round, the cheaper of floor and adopted; target: at most 1.2x)");
  console.log("\nerrorFromBody: with the caller's token and the response's Headers; bare: with neither;");
  console.log("adopted: the floor building its error as this package does (a plain Error given the class's prototype).");
  console.log("\n| module | load ms (median, fresh process, loader warmed) | over an empty module, ms | CPU ms | CPU over an empty module, ms |");
  console.log("|---|---:|---:|---:|---:|");
  const over = (table, k) => (k.startsWith("empty") ? "—" : f(table[k]));
  for (const [k, v] of Object.entries(report.importMs)) {
    console.log(`| ${k} | ${f(v)} | ${over(report.importOverEmptyMs, k)} | ${f(report.importCpuMs[k])} | ${over(report.importCpuOverEmptyMs, k)} |`);
  }
  console.log("(target: at most 3.5 ms over an empty module)");
}
