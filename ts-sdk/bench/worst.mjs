// Worst-case time of @mitos/errors (docs/sdk-contract.md section 2a): families of
// pathological bodies at 1 KiB, 8 KiB and 64 KiB through errorFromBody, with a token;
// prints the median time per size and the ratio of the 64 KiB time to the 1 KiB time
// per family (linear is about 64; the contract allows at most 80).
//
//   node bench/worst.mjs [--json] [--quick]      (npm run build first)
import { errorFromBody } from "../dist/esm/index.js";

const quick = process.argv.includes("--quick");
const asJson = process.argv.includes("--json");
const SIZES = [1024, 8192, 65536];
const TOKEN = "tok_9f8e7d6c5b4a3210";

/** Fill `size` bytes with `unit` repeated after `head` and before `tail`. */
const fill = (size, head, unit, tail = "") => head + unit.repeat(Math.max(0, Math.floor((size - head.length - tail.length) / unit.length))) + tail;
const inCause = (size, unit) => fill(size, '{"error":{"code":"internal","cause":"', unit, '"}}');

/** Each family: a name and a body of about `size` bytes. */
const FAMILIES = [
  ["unclosed string of escaped quotes", (n) => fill(n, "{".repeat(65) + '"', '\\"')],
  ["unclosed string, shallow", (n) => fill(n, '{"error":{"code":"internal","cause":"', '\\"')],
  ["deep nesting", (n) => fill(n, "", "[")],
  ["deep nesting of objects", (n) => fill(n, "", '{"a":')],
  ["repeated bearer prefixes", (n) => inCause(n, "bearer ")],
  ["repeated password= prefixes", (n) => inCause(n, "password=")],
  ["repeated sk- fragments", (n) => inCause(n, "sk-")],
  ["unclosed PEM blocks", (n) => inCause(n, "-----BEGIN PRIVATE KEY-----")],
  ["PEM header of capitals", (n) => inCause(n, "-----BEGIN " + "A".repeat(40) + " ")],
  ["URL schemes without credentials", (n) => inCause(n, "a://b")],
  ["long scheme run", (n) => fill(n, '{"error":{"code":"internal","cause":"', "a", '://x"}}')],
  ["override phrases with long spaces", (n) => inCause(n, "ignore" + " ".repeat(30))],
  ["percent runs", (n) => inCause(n, "%")],
  ["invisible characters", (n) => inCause(n, "\\u200b")],
  ["token fragments", (n) => inCause(n, TOKEN.slice(0, 10))],
  ["many context keys", (n) => fill(n, '{"error":{"code":"internal","context":{', '"k":"v",', '"z":1}}}')],
  ["JWT fragments", (n) => inCause(n, "eyJa.")],
];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(body, headers) {
  const rounds = quick ? 5 : 15;
  const times = [];
  for (let r = 0; r < rounds; r++) {
    const reps = body.length > 30000 ? 3 : body.length > 4000 ? 20 : 100;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) errorFromBody(body, { status: 500, headers, token: TOKEN });
    times.push(Number(process.hrtime.bigint() - t0) / reps);
  }
  return median(times);
}

const rows = [];
for (const [name, make] of FAMILIES) {
  const ns = SIZES.map((n) => time(make(n), { "retry-after": "Sun, 06 Nov 1994 08:49:37 GMT", "x-request-id": "r".repeat(200) }));
  rows.push({ family: name, ns_1k: ns[0], ns_8k: ns[1], ns_64k: ns[2], ratio_64k_1k: ns[2] / ns[0] });
}
if (asJson) {
  console.log(JSON.stringify(rows, null, 1));
} else {
  for (const r of rows) {
    console.log(`${r.family.padEnd(36)} ${(r.ns_1k / 1000).toFixed(1).padStart(8)} µs ${(r.ns_8k / 1000).toFixed(1).padStart(8)} µs ${(r.ns_64k / 1000).toFixed(1).padStart(9)} µs  x${r.ratio_64k_1k.toFixed(1)}`);
  }
  const worst = rows.reduce((a, b) => (b.ratio_64k_1k > a.ratio_64k_1k ? b : a));
  console.log(`worst ratio 64 KiB / 1 KiB: x${worst.ratio_64k_1k.toFixed(1)} (${worst.family}); linear is about 64, the contract allows 80`);
  if (worst.ratio_64k_1k > 80) process.exitCode = 1;
}
