// What the package costs in a user's bundle: esbuild bundles (minified) a
// module that imports from the built package as a user's code would, and
// this prints the bytes, minified and gzipped (level 9), for:
//
//   one class   `import { RateLimitedError }`, used only for `instanceof`;
//   errorFromBody  the function most users call, with its classes;
//   everything  `export * from "@mitos/errors"`;
//
// and the same for openai-node's error module (`openai/error`), whose
// classes parse and sanitize nothing: the floor of an error module. Then,
// bundled from the TypeScript sources with esbuild's metafile: the bytes
// of each source module in the one-class bundle, and what some parts cost
// alone (every code's texts, which only the response path reads; the
// sanitizer of server text, with its generated trigger pre-filter; the one every
// constructor runs, without it; the code names a class checks a code against).
//
// The package is resolved through node_modules/ as a user's bundler does,
// so its "exports", "module" and "sideEffects" fields apply. Run
// `npm run build` first (`npm run size` does both).
//
// Usage: node scripts/bundle-size.mjs [--json]
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const GOALS = { "one class": 5_000, everything: 14_000 }; // gzip bytes

/** The parts bundled alone, from the sources: [what, module under src/, its exports]. */
const PARTS = [
  ["every code's texts, the fallback and context-field tables", "generated/catalogue.ts", "TEXTS, FALLBACK, CONTEXT_FIELDS"],
  ["the sanitizer (rules, trigger pre-filter, token forms)", "sanitize.ts", "sanitizeText"],
  ["the constructors' sanitizer (every rule, no pre-filter)", "sanitize.ts", "sanitizeEvery"],
  ["the code names a class refuses", "generated/catalogue.ts", "CODES"],
  ["every spec, the fallback and context-field tables", "generated/catalogue.ts", "SPECS, FALLBACK, CONTEXT_FIELDS"],
];

const CASES = [
  ["@mitos/errors", "one class", `import { RateLimitedError } from "@mitos/errors";\nexport const isRateLimited = (e) => e instanceof RateLimitedError;\n`],
  ["@mitos/errors", "errorFromBody", `export { errorFromBody } from "@mitos/errors";\n`],
  ["@mitos/errors", "everything", `export * from "@mitos/errors";\n`],
  ["openai/error", "one class", `import { RateLimitError } from "openai/error";\nexport const isRateLimited = (e) => e instanceof RateLimitError;\n`],
  ["openai/error", "everything", `export * from "openai/error";\n`],
];

/** Bundle (minified, for browsers, ES2022) and return the code and the metafile. */
async function minified(input) {
  const result = await build({
    ...input,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  return { code: result.outputFiles[0].contents, metafile: result.metafile };
}

const gzipped = (code) => gzipSync(code, { level: 9 }).length;

const work = mkdtempSync(join(tmpdir(), "mitos-errors-size-"));
try {
  const modules = join(work, "node_modules");
  mkdirSync(join(modules, "@mitos"), { recursive: true });
  symlinkSync(root, join(modules, "@mitos", "errors"), "dir");
  symlinkSync(join(root, "node_modules", "openai"), join(modules, "openai"), "dir");
  const rows = [];
  for (const [pkg, what, source] of CASES) {
    const file = join(work, `${rows.length}.mjs`);
    writeFileSync(file, source);
    const { code } = await minified({ entryPoints: [file] });
    rows.push({ package: pkg, import: what, minified: code.length, gzip: gzipped(code) });
  }
  const src = join(root, "src");
  const oneClass = CASES[0][2].replace('"@mitos/errors"', JSON.stringify(join(src, "index.ts")));
  const { metafile } = await minified({ stdin: { contents: oneClass, loader: "js", resolveDir: src } });
  const bySource = Object.entries(Object.values(metafile.outputs)[0].inputs)
    .map(([path, input]) => ({ module: relative(src, join(root, path)), minified: input.bytesInOutput }))
    .filter((m) => m.minified > 0 && !m.module.startsWith(".."))
    .sort((a, b) => b.minified - a.minified);
  const parts = [];
  for (const [what, module, names] of PARTS) {
    const { code } = await minified({ stdin: { contents: `export { ${names} } from ${JSON.stringify(join(src, module))};`, loader: "js", resolveDir: src } });
    parts.push({ part: what, exports: names, minified: code.length, gzip: gzipped(code) });
  }
  if (process.argv.includes("--json")) {
    process.stdout.write(JSON.stringify({ goals: GOALS, rows, oneClassModules: bySource, parts }, null, 2) + "\n");
  } else {
    const kB = (n) => (n / 1000).toFixed(1);
    const lines = ["| package | import | minified kB | gzip kB | gzip goal |", "|---|---|---:|---:|---|"];
    for (const r of rows) {
      const goal = r.package === "@mitos/errors" ? GOALS[r.import] : undefined;
      const verdict = goal === undefined ? "" : `≤ ${kB(goal)}: ${r.gzip <= goal ? "met" : "not met"}`;
      lines.push(`| \`${r.package}\` | ${r.import} | ${kB(r.minified)} | ${kB(r.gzip)} | ${verdict} |`);
    }
    lines.push("", "One class, by source module (minified bytes, esbuild metafile of the sources):", "");
    lines.push("| module | minified bytes |", "|---|---:|", ...bySource.map((m) => `| \`${m.module}\` | ${m.minified} |`));
    lines.push("", "Parts bundled alone, from the sources:", "");
    lines.push("| part | exports | minified kB | gzip kB |", "|---|---|---:|---:|");
    for (const p of parts) lines.push(`| ${p.part} | \`${p.exports}\` | ${kB(p.minified)} | ${kB(p.gzip)} |`);
    process.stdout.write(`esbuild ${(await import("esbuild")).version}, minified, ES2022, gzip level 9\n\n${lines.join("\n")}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
