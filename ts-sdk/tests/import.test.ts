// Import cost: the package builds its sanitizer (regular expressions) and
// its UTF-8 codecs on first use, not when it is
// loaded (docs/benchmarks-typescript.md: the import budget is 3.5 ms).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { PACKAGE_DIR } from "./support.js";

/** Count constructions of RegExp, TextEncoder and TextDecoder, then load `load` and print the counts. */
const COUNTING = `
const counts = { RegExp: 0, TextEncoder: 0, TextDecoder: 0 };
for (const name of Object.keys(counts)) {
  const original = globalThis[name];
  globalThis[name] = new Proxy(original, {
    construct(target, args, newTarget) { counts[name]++; return Reflect.construct(target, args, newTarget); },
    apply(target, self, args) { counts[name]++; return Reflect.apply(target, self, args); },
  });
}
`;

function countsAfter(script: string, esm: boolean): Record<string, number> {
  const args = esm ? ["--input-type=module", "-e", script] : ["-e", script];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8" })) as Record<string, number>;
}

test("loading either build constructs no regular expression and no codec; the first error does", () => {
  const cjs = join(PACKAGE_DIR, "dist", "cjs", "index.js");
  const esm = pathToFileURL(join(PACKAGE_DIR, "dist", "esm", "index.js")).href;
  const use = `m.errorFromBody('{"error":{"code":"not_found","cause":"no sandbox sb-1"}}', { status: 404 });`;
  const loadedCjs = countsAfter(`${COUNTING}const m = require(${JSON.stringify(cjs)}); process.stdout.write(JSON.stringify(counts));`, false);
  assert.deepEqual(loadedCjs, { RegExp: 0, TextEncoder: 0, TextDecoder: 0 });
  const loadedEsm = countsAfter(`${COUNTING}const m = await import(${JSON.stringify(esm)}); process.stdout.write(JSON.stringify(counts));`, true);
  assert.deepEqual(loadedEsm, { RegExp: 0, TextEncoder: 0, TextDecoder: 0 });
  const used = countsAfter(`${COUNTING}const m = require(${JSON.stringify(cjs)}); ${use} process.stdout.write(JSON.stringify(counts));`, false);
  assert.ok((used["RegExp"] ?? 0) > 0, "the sanitizer is built on first use (this test would notice a build at import)");
});
