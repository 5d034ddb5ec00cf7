// What the package costs in a user's bundle: esbuild bundles (minified) a
// module that imports from the built package as a user's code would, and
// this prints the bytes, minified and gzipped (level 9), for:
//
//   one class   `import { RateLimitedError }`, used only for `instanceof`;
//   errorFromBody  the function most users call, with its classes;
//   everything  `export * from "@mitos/errors"`;
//
// and the same for openai-node's error module (`openai/error`), whose
// classes parse and sanitize nothing: the floor of an error module.
//
// The package is resolved through node_modules/ as a user's bundler does,
// so its "exports", "module" and "sideEffects" fields apply. Run
// `npm run build` first (`npm run size` does both).
//
// Usage: node scripts/bundle-size.mjs [--json]
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const GOALS = { "one class": 5_000, everything: 14_000 }; // gzip bytes

const CASES = [
  ["@mitos/errors", "one class", `import { RateLimitedError } from "@mitos/errors";\nexport const isRateLimited = (e) => e instanceof RateLimitedError;\n`],
  ["@mitos/errors", "errorFromBody", `export { errorFromBody } from "@mitos/errors";\n`],
  ["@mitos/errors", "everything", `export * from "@mitos/errors";\n`],
  ["openai/error", "one class", `import { RateLimitError } from "openai/error";\nexport const isRateLimited = (e) => e instanceof RateLimitError;\n`],
  ["openai/error", "everything", `export * from "openai/error";\n`],
];

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
    const result = await build({
      entryPoints: [file],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      logLevel: "silent",
    });
    const code = result.outputFiles[0].contents;
    rows.push({ package: pkg, import: what, minified: code.length, gzip: gzipSync(code, { level: 9 }).length });
  }
  if (process.argv.includes("--json")) {
    process.stdout.write(JSON.stringify({ goals: GOALS, rows }, null, 2) + "\n");
  } else {
    const kB = (n) => (n / 1000).toFixed(1);
    const lines = ["| package | import | minified kB | gzip kB | gzip goal |", "|---|---|---:|---:|---|"];
    for (const r of rows) {
      const goal = r.package === "@mitos/errors" ? GOALS[r.import] : undefined;
      const verdict = goal === undefined ? "" : `≤ ${kB(goal)}: ${r.gzip <= goal ? "met" : "not met"}`;
      lines.push(`| \`${r.package}\` | ${r.import} | ${kB(r.minified)} | ${kB(r.gzip)} | ${verdict} |`);
    }
    process.stdout.write(`esbuild ${(await import("esbuild")).version}, minified, ES2022, gzip level 9\n\n${lines.join("\n")}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
