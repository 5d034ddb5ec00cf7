// Type-check a user's code against the built package with a given
// TypeScript: the oldest version the package supports (README: 5.0) and the
// one it is built with. The package is installed into a temporary project
// through node_modules/, as a user's is, and each resolution mode a user may
// choose is checked: nodenext and node16 (an .mts and a .cts file), bundler
// and node10, all strict with the package's own strictest options and
// `skipLibCheck` off, so the declarations themselves must compile.
//
// Usage: node scripts/check-consumer-types.mjs [TYPESCRIPT_DIR ...]
//   (default: this package's own typescript)
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const compilers = process.argv.slice(2).map((dir) => resolve(dir));
if (compilers.length === 0) compilers.push(join(root, "node_modules", "typescript"));

// Code a user writes: narrowing by class and by code, the typed lookups,
// the envelope types, the options objects, the other entry points (the
// client adapters, the envelope writer).
const USE = `
const e = errorFromBody('{"error":{"code":"rate_limited"}}', { status: 429, headers: { "retry-after": "1" } });
if (e instanceof RateLimitedError) {
  const code: "rate_limited" = e.code;
  void code;
}
const delay: number | undefined = e.retryAfterMs;
const cls: typeof NotFoundError = lookup("not_found");
const made: NotFoundError = errorForCode("not_found", "gone", { status: 404 });
function describe(err: KnownAgentRunError): string {
  switch (err.code) {
    case "rate_limited":
      return String(err.retryAfterMs);
    default:
      return err.remediation;
  }
}
const body: ErrorEnvelope = { error: { code: "not_found", message: "m", cause: "c", remediation: "r" } };
const known: Code = "internal";
const hooks: GotErrorHooks = gotErrorHooks({ token: "t" });
const sent: EnvelopeBytes = envelopeBytes(made, { cause: "c" });
void delay, cls, made, describe, body, known, hooks, sent;
`;
const IMPORT = `import { errorForCode, errorFromBody, lookup, NotFoundError, RateLimitedError } from "@mitos/errors";
import type { Code, ErrorEnvelope, KnownAgentRunError } from "@mitos/errors";
import { gotErrorHooks, type GotErrorHooks } from "@mitos/errors/clients";
import { envelopeBytes, type EnvelopeBytes } from "@mitos/errors/server";
`;
const STRICT = ["--noEmit", "--strict", "--exactOptionalPropertyTypes", "--noUncheckedIndexedAccess", "--target", "es2022", "--lib", "es2022,dom"];
const MODES = [
  ["nodenext", ["--module", "nodenext", "--moduleResolution", "nodenext"], ["use.mts", "use.cts"]],
  ["node16", ["--module", "node16", "--moduleResolution", "node16"], ["use.mts", "use.cts"]],
  ["bundler", ["--module", "esnext", "--moduleResolution", "bundler"], ["use.ts"]],
  ["node10", ["--module", "commonjs", "--moduleResolution", "node"], ["use.ts"]],
];

const work = mkdtempSync(join(tmpdir(), "mitos-errors-types-"));
let failed = false;
try {
  mkdirSync(join(work, "node_modules", "@mitos"), { recursive: true });
  symlinkSync(root, join(work, "node_modules", "@mitos", "errors"), "dir");
  writeFileSync(join(work, "package.json"), JSON.stringify({ name: "consumer", version: "0.0.0", private: true }));
  for (const file of ["use.mts", "use.cts", "use.ts"]) writeFileSync(join(work, file), IMPORT + USE);
  for (const compiler of compilers) {
    const version = JSON.parse(readFileSync(join(compiler, "package.json"), "utf8")).version;
    for (const [mode, options, files] of MODES) {
      const run = spawnSync(process.execPath, [join(compiler, "bin", "tsc"), ...STRICT, ...options, ...files], { cwd: work, encoding: "utf8" });
      const ok = run.status === 0;
      failed ||= !ok;
      process.stdout.write(`TypeScript ${version}, ${mode}: ${ok ? "ok" : "FAILED"}\n`);
      if (!ok) process.stdout.write(`${run.stdout}${run.stderr}\n`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
