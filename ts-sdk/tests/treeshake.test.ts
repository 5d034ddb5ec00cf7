// What a user's bundler keeps of the built package: esbuild bundles (as
// scripts/bundle-size.mjs does) an import of some generated classes used
// only for `instanceof`, and the bundle must hold those classes and their
// specs and no other class or spec. (Every code's texts stay: the base
// class's constructor fills a given code's catalogue texts.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { buildSync } from "esbuild";

import { PACKAGE_DIR, SPECS } from "./support.js";

const ENTRY = join(PACKAGE_DIR, "dist", "esm", "index.js");

/** The minified bundle of an `instanceof` test against each of `classes`. */
function bundle(classes: readonly string[]): string {
  const contents = `import { ${classes.join(", ")} } from ${JSON.stringify(ENTRY)};\nexport const f = (e) => [${classes.map((c) => `e instanceof ${c}`).join(", ")}];\n`;
  const result = buildSync({
    stdin: { contents, loader: "js", resolveDir: PACKAGE_DIR },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

test("a bundle keeps the imported classes' specs and no other", () => {
  const names = SPECS.map((s) => s.className);
  fc.assert(
    fc.property(fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 3 }), (picked) => {
      const text = bundle(picked);
      for (const s of SPECS) {
        const kept = text.includes(`className:${JSON.stringify(s.className)}`);
        assert.equal(kept, picked.includes(s.className), s.className);
        // Every code's default texts stay (the base class's constructor reads them).
        assert.ok(text.includes(JSON.stringify(s.message)), s.code);
      }
    }),
    { numRuns: 8 },
  );
});
