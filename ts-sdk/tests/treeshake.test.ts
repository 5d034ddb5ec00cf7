// What a user's bundler keeps of the package. esbuild bundles (as
// scripts/bundle-size.mjs does) an import of some generated classes used
// only for `instanceof`: from the built package, the bundle must hold those
// classes' specs and no other; from the sources (with a metafile, which
// names the modules), it must hold nothing of the response path (headers,
// HTTP dates, parsing, transport) nor of the SDK's own errors. Only those
// classes' default texts stay: a constructor describes its own class and
// never reads another code's texts (docs/sdk-contract.md section 3).
//
// Sizes are not asserted here: they are benchmarks (npm run size, nox -s bench).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { buildSync, type Metafile } from "esbuild";

import { INJECTION_RULES, SECRET_RULES } from "../src/generated/sanitizer-rules.js";
import { CONTRACT_VERSION } from "../src/generated/catalogue.js";
import { PACKAGE_DIR, SPECS } from "./support.js";

const DIST = join(PACKAGE_DIR, "dist", "esm", "index.js");
const SOURCE = join(PACKAGE_DIR, "src", "index.ts");

/** The regular expressions of the generated trigger pre-filter (its SEARCHES, one a line). */
const TRIGGER_SEARCHES = [
  ...readFileSync(join(PACKAGE_DIR, "src", "generated", "sanitizer-rules.ts"), "utf8").matchAll(/^ {2}(\/.+\/i), \/\/ /gm),
].map((m) => m[1]!);

/** The source modules a bundle of classes (or of any constant) must not hold any byte of. */
const RESPONSE_PATH = ["headers.ts", "httpdate.ts", "parse.ts", "response.ts", "transport.ts", "local.ts"];

/** The minified bundle of `contents`, with its metafile. */
function bundle(contents: string): { text: string; metafile: Metafile } {
  const result = buildSync({
    stdin: { contents, loader: "js", resolveDir: PACKAGE_DIR },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  return { text: result.outputFiles[0]!.text, metafile: result.metafile };
}

/** A module that tests a value against each of `classes` imported from `entry`. */
function instanceofTest(entry: string, classes: readonly string[]): string {
  return `import { ${classes.join(", ")} } from ${JSON.stringify(entry)};\nexport const f = (e) => [${classes.map((c) => `e instanceof ${c}`).join(", ")}];\n`;
}

/** The source modules (relative to src/) that put at least one byte in the bundle. */
function modulesIn(metafile: Metafile): string[] {
  const inputs = Object.values(metafile.outputs)[0]!.inputs;
  return Object.entries(inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path.replace(/^.*?\bsrc\//, ""))
    .sort();
}

const pickClasses = fc.uniqueArray(fc.constantFrom(...SPECS.map((s) => s.className)), { minLength: 1, maxLength: 3 });

/** The texts and advice of a code's spec. */
const textsOf = (s: (typeof SPECS)[number]): string[] => [s.message, s.cause, s.remediation, s.recovery.guidance ?? ""];

/** Whether `text` (a minified bundle) holds `value` as a string literal (esbuild picks the quotes). */
const holdsText = (text: string, value: string): boolean =>
  value !== "" && [JSON.stringify(value), `'${value}'`, `\`${value}\``].some((literal) => text.includes(literal));

test("a bundle keeps the imported classes' specs and texts, and no other code's", () => {
  fc.assert(
    fc.property(pickClasses, (picked) => {
      const { text } = bundle(instanceofTest(DIST, picked));
      for (const s of SPECS) {
        const mine = picked.includes(s.className);
        assert.equal(text.includes(`className:${JSON.stringify(s.className)}`), mine, s.className);
        // A code's texts and advice are held only with its class (they may be shared with a picked one).
        const shared = SPECS.filter((o) => picked.includes(o.className)).flatMap(textsOf);
        for (const value of textsOf(s)) {
          if (shared.includes(value)) continue;
          assert.ok(!holdsText(text, value), `${picked.join(", ")} holds a text of ${s.code}: ${value}`);
        }
        if (mine) assert.ok(holdsText(text, s.message) && holdsText(text, s.remediation), s.code);
      }
    }),
    { numRuns: 8 },
  );
});

test("a bundle of classes holds nothing of the response path", () => {
  fc.assert(
    fc.property(pickClasses, (picked) => {
      const modules = modulesIn(bundle(instanceofTest(SOURCE, picked)).metafile);
      assert.deepEqual(modules.filter((m) => RESPONSE_PATH.includes(m)), [], modules.join(", "));
      assert.ok(modules.includes("base.ts") && modules.includes("generated/errors.ts"), modules.join(", "));
    }),
    { numRuns: 4 },
  );
});

test("a bundle of classes holds the rules but not the trigger pre-filter (its constructors run every rule)", () => {
  assert.ok(TRIGGER_SEARCHES.length > 0);
  fc.assert(
    fc.property(pickClasses, (picked) => {
      const { text } = bundle(instanceofTest(DIST, picked));
      const escaped = (pattern: string): string => JSON.stringify(pattern).slice(1, -1);
      // (A pattern with a quote may be written as a template literal: those are left out here.)
      const plain = [...SECRET_RULES, ...INJECTION_RULES].filter((r) => !/["'`$]/.test(r.pattern));
      assert.ok(plain.length > 0);
      for (const r of plain) assert.ok(text.includes(escaped(r.pattern)), r.pattern);
      for (const search of TRIGGER_SEARCHES) assert.ok(!text.includes(search), search);
    }),
    { numRuns: 4 },
  );
});

test("a bundle of CONTRACT_VERSION from the built package is that constant alone: no statement runs at import", () => {
  const { text } = bundle(`export { CONTRACT_VERSION } from ${JSON.stringify(DIST)};\n`);
  assert.match(text, new RegExp(`^var (\\w+)=${CONTRACT_VERSION};export\\{\\1 as CONTRACT_VERSION\\};\\s*$`), text);
});

test("a bundle of a constant of the built package holds no class, spec, text, fill or sanitizer rule", () => {
  // The built package is one module: here every top-level statement that is not pure stays.
  const escaped = (pattern: string): string => JSON.stringify(pattern).slice(1, -1);
  for (const name of ["CONTRACT_VERSION", "LIMITS", "fallbackCode", "parseHttpDate"]) {
    const { text } = bundle(`export { ${name} } from ${JSON.stringify(DIST)};\n`);
    assert.ok(!text.includes("className:"), name);
    assert.ok(!text.includes("status must be an integer"), `${name}: the base class`);
    for (const s of SPECS) assert.ok(!text.includes(JSON.stringify(s.remediation)), `${name}: ${s.code}`);
    for (const r of [...SECRET_RULES, ...INJECTION_RULES]) assert.ok(!text.includes(escaped(r.pattern)), `${name}: ${r.pattern}`);
  }
});

test("importing the package changes no global (its \"sideEffects\": false is true)", () => {
  // A fresh process records the globals and the built-in prototypes, imports both builds, and compares.
  const script = `
    const snapshot = () => JSON.stringify([globalThis, Object.prototype, Array.prototype, Function.prototype, Error, Error.prototype, Symbol]
      .map((o) => Reflect.ownKeys(o).map(String).sort()));
    const before = snapshot();
    await import(${JSON.stringify(DIST)});
    (await import("node:module")).createRequire(${JSON.stringify(join(PACKAGE_DIR, "package.json"))})(${JSON.stringify(join(PACKAGE_DIR, "dist", "cjs", "index.js"))});
    process.stdout.write(before === snapshot() ? "same" : "changed: " + snapshot());
  `;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, "same");
  // And a bundler drops a bare import entirely.
  assert.equal(bundle(`import ${JSON.stringify(DIST)};\n`).text, "");
});
