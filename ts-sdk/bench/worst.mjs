// Worst-case time of @mitos/errors (docs/sdk-contract.md section 2a): the pathological
// families of python-sdk/bench/worst.json (shared with python-sdk/bench/bench.py) at
// 1 KiB, 8 KiB and 64 KiB through errorFromBody, with the shared token and headers;
// prints the median time per size and the ratio of the 64 KiB time to the 1 KiB time
// per family (linear is about 64; the contract allows at most 80), and exits 1 past 80.
//
//   node bench/worst.mjs [--json] [--quick] [--python FILE]      (npm run build first)
//
// --python FILE: the Python SDK's ratios (bench.py --worst-json FILE), printed beside
// TypeScript's, so that one run reports both SDKs family by family.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { errorFromBody, LIMITS } from "../dist/esm/index.js";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const SHARED = JSON.parse(readFileSync(join(ROOT, "..", "python-sdk", "bench", "worst.json"), "utf8"));
const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const asJson = argv.includes("--json");
const pythonFile = argv.includes("--python") ? argv[argv.indexOf("--python") + 1] : undefined;
const PLAIN_ENVELOPE = '{"error":{"code":"internal"}}';

/** The family's head, its unit repeated to about `size`, its tail. */
function filled(family, size) {
  const head = (family.deep ? "{".repeat(LIMITS.jsonMaxDepth + 1) : "") + family.head;
  const times = Math.max(0, Math.floor((size - head.length - family.tail.length) / family.unit.length));
  return head + family.unit.repeat(times) + family.tail;
}

/** The body and headers of a family at `size`. */
function input(family, size) {
  const headers = { ...SHARED.headers };
  if (family.header) {
    headers[family.header] = filled(family, size);
    return { body: PLAIN_ENVELOPE, headers };
  }
  return { body: filled(family, size), headers };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The process's CPU time in ns: a round during which another process held the core does not count the wait. */
function cpuNs() {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
}

function time({ body, headers }) {
  const rounds = quick ? 5 : 15;
  const times = [];
  for (let r = 0; r < rounds; r++) {
    const reps = body.length > 30000 ? 3 : body.length > 4000 ? 20 : 100;
    const t0 = cpuNs();
    for (let i = 0; i < reps; i++) errorFromBody(body, { status: 500, headers, token: SHARED.token });
    times.push((cpuNs() - t0) / reps);
  }
  return median(times);
}

// Every family once at every size first, so that no family's 1 KiB time
// includes compiling the code (which lowered the ratio of the first ones).
for (const family of SHARED.families) {
  for (const n of SHARED.sizes) {
    const { body, headers } = input(family, n);
    for (let i = 0; i < 20; i++) errorFromBody(body, { status: 500, headers, token: SHARED.token });
  }
}

const rows = [];
for (const family of SHARED.families) {
  const ns = SHARED.sizes.map((n) => time(input(family, n)));
  rows.push({ family: family.name, ns_1k: ns[0], ns_8k: ns[1], ns_64k: ns[2], ratio_64k_1k: ns[2] / ns[0] });
}
const python = pythonFile === undefined ? undefined : JSON.parse(readFileSync(pythonFile, "utf8"));
const us = (ns) => (ns / 1000).toFixed(1).padStart(9);
const verdict = (ratio) => (ratio <= 80 ? "ok" : "OVER 80x");
if (asJson) {
  console.log(JSON.stringify(rows, null, 1));
} else {
  const width = Math.max(...rows.map((r) => r.family.length));
  console.log("Worst case, TypeScript errorFromBody (median µs per call at 1 KiB / 8 KiB / 64 KiB; 64 KiB / 1 KiB)");
  for (const r of rows) {
    console.log(`${r.family.padEnd(width)} ${us(r.ns_1k)} ${us(r.ns_8k)} ${us(r.ns_64k)}  x${r.ratio_64k_1k.toFixed(1)} ${verdict(r.ratio_64k_1k)}`);
  }
  if (python !== undefined) {
    console.log("\nWorst case, both SDKs: 64 KiB time / 1 KiB time per family (linear is about 64; at most 80)");
    console.log(`${"family".padEnd(width)}    python  typescript`);
    for (const r of rows) {
      const py = python[r.family];
      const shown = py === undefined ? "missing".padStart(9) : `x${py.toFixed(1)}`.padStart(9);
      const bad = py === undefined || py > 80 || r.ratio_64k_1k > 80;
      console.log(`${r.family.padEnd(width)} ${shown}  ${`x${r.ratio_64k_1k.toFixed(1)}`.padStart(10)}  ${bad ? "OVER 80x" : "ok"}`);
    }
  }
}
const ratios = [...rows.map((r) => r.ratio_64k_1k), ...(python === undefined ? [] : Object.values(python))];
const worst = Math.max(...ratios);
if (!asJson) console.log(`worst ratio 64 KiB / 1 KiB: x${worst.toFixed(1)}; linear is about 64, the contract allows 80`);
if (worst > 80) process.exitCode = 1;
