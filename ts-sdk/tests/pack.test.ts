// The package as users get it: `npm pack`, installed into an empty project
// (offline: it has no dependencies), then loaded with require and import,
// and type-checked from both module systems.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { PACKAGE_DIR } from "./support.js";

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" } });
}

test("npm pack, install into an empty project, require and import, instanceof across both", { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "mitos-errors-pack-"));
  try {
    const packed = JSON.parse(run(NPM, ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], PACKAGE_DIR)) as { filename: string; files: { path: string }[] }[];
    const info = packed[0]!;
    const files = info.files.map((f) => f.path).sort();
    for (const entry of ["index", "clients", "server", "compat/index"]) {
      for (const file of [`dist/cjs/${entry}.js`, `dist/esm/${entry}.js`, `dist/cjs/${entry}.d.ts`, `dist/esm/${entry}.d.ts`]) assert.ok(files.includes(file), `${file} in ${files.join(" ")}`);
    }
    assert.ok(!files.some((f) => f.startsWith("src/") || f.startsWith("tests/") || f.startsWith("build/")), "only the build ships");
    const project = join(dir, "consumer");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", version: "0.0.0", private: true }));
    run(NPM, ["install", "--offline", "--no-package-lock", join(dir, info.filename)], project);
    const manifest = JSON.parse(readFileSync(join(project, "node_modules/@mitos/errors/package.json"), "utf8")) as { dependencies?: object };
    assert.equal(manifest.dependencies, undefined, "zero runtime dependencies");

    writeFileSync(
      join(project, "check.cjs"),
      `const m = require("@mitos/errors");
const e = m.errorFromBody('{"error":{"code":"rate_limited"}}', { status: 429 });
if (!(e instanceof m.RateLimitedError) || !(e instanceof m.AgentRunError) || e.name !== "RateLimitedError") throw new Error("cjs");
const compat = require("@mitos/errors/compat");
if (!(e instanceof compat.RateLimitedError) || !(new compat.NotFoundError("m", { code: "not_found" }) instanceof m.NotFoundError)) throw new Error("cjs compat");
const { gotErrorHooks } = require("@mitos/errors/clients");
const { envelopeBytes } = require("@mitos/errors/server");
gotErrorHooks().beforeError[0](Object.assign(new Error("x"), { response: { statusCode: 429, headers: {}, body: "" } })).then((g) => {
  if (!(g instanceof m.RateLimitedError) || envelopeBytes(g).status !== 429) throw new Error("cjs entries");
  console.log("cjs ok");
});`,
    );
    writeFileSync(
      join(project, "check.mjs"),
      `import { createRequire } from "node:module";
import { errorFromBody, RateLimitedError, AgentRunError } from "@mitos/errors";
const cjs = createRequire(import.meta.url)("@mitos/errors");
const fromEsm = errorFromBody('{"error":{"code":"rate_limited"}}', { status: 429 });
const fromCjs = cjs.errorFromBody('{"error":{"code":"rate_limited"}}', { status: 429 });
if (!(fromEsm instanceof cjs.RateLimitedError) || !(fromCjs instanceof RateLimitedError) || !(fromCjs instanceof AgentRunError)) throw new Error("esm");
const compat = await import("@mitos/errors/compat");
if (!(fromCjs instanceof compat.RateLimitedError) || !(new compat.AgentRunError("m", { code: "x" }) instanceof cjs.AgentRunError)) throw new Error("esm compat");
const { gotErrorHooks } = await import("@mitos/errors/clients");
const { envelopeBytes } = await import("@mitos/errors/server");
const g = await gotErrorHooks().beforeError[0](Object.assign(new Error("x"), { response: { statusCode: 429, headers: {}, body: "" } }));
if (Object.getPrototypeOf(g) !== RateLimitedError.prototype || envelopeBytes(g).status !== 429) throw new Error("esm entries");
console.log("esm ok");`,
    );
    assert.equal(run(process.execPath, ["check.cjs"], project).trim(), "cjs ok");
    assert.equal(run(process.execPath, ["check.mjs"], project).trim(), "esm ok");

    // Types resolve from both module systems, under the strictest options.
    const use = `const e = errorFromBody("", { status: 429, headers: { "retry-after": "1" } });
if (e instanceof RateLimitedError) { const c: "rate_limited" = e.code; void c; }
const n: number | undefined = e.retryAfterMs; void n;
const m: AgentRunError = AgentRunError.fromResponse(404, "", "token"); void m;
const hooks: GotErrorHooks = gotErrorHooks({ token: "t" }); void hooks;
const sent: EnvelopeBytes = envelopeBytes(e, { cause: "c" }); void sent;
`;
    const entries = `import { gotErrorHooks, type GotErrorHooks } from "@mitos/errors/clients";\nimport { envelopeBytes, type EnvelopeBytes } from "@mitos/errors/server";\n`;
    writeFileSync(join(project, "types.mts"), `import { errorFromBody, RateLimitedError } from "@mitos/errors";\nimport { AgentRunError } from "@mitos/errors/compat";\n${entries}${use}`);
    writeFileSync(join(project, "types.cts"), `import { errorFromBody, RateLimitedError } from "@mitos/errors";\nimport { AgentRunError } from "@mitos/errors/compat";\n${entries}${use}`);
    const tsc = join(PACKAGE_DIR, "node_modules/typescript/bin/tsc");
    run(process.execPath, [tsc, "--noEmit", "--strict", "--exactOptionalPropertyTypes", "--noUncheckedIndexedAccess", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--lib", "es2022,dom", "types.mts", "types.cts"], project);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
