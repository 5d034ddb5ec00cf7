// One package, two builds: an error made through either entry is
// `instanceof` the classes of the other, and of another copy of the package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { cjs, esm, PACKAGE_DIR, require } from "./support.js";

const body = JSON.stringify({ error: { code: "rate_limited" } });

test("the import and require entries are the ESM and the CommonJS builds", async () => {
  assert.notEqual(esm.AgentRunError, cjs.AgentRunError, "two builds, two class objects");
  const viaImport = await import(pathToFileURL(join(PACKAGE_DIR, "dist/esm/index.js")).href);
  assert.equal(viaImport.AgentRunError, esm.AgentRunError);
});

test("an error from the ESM entry is instanceof the classes imported through require", () => {
  const err = esm.errorFromBody(body, { status: 429 });
  assert.ok(err instanceof cjs.RateLimitedError);
  assert.ok(err instanceof cjs.AgentRunError);
  assert.ok(!(err instanceof cjs.NotFoundError));
  assert.ok(err instanceof Error);
});

test("an error from the CommonJS entry is instanceof the classes imported through import", () => {
  const err = cjs.errorFromBody(body, { status: 429 });
  assert.ok(err instanceof esm.RateLimitedError);
  assert.ok(err instanceof esm.AgentRunError);
  assert.ok(!(err instanceof esm.NotFoundError));
  const unknown = cjs.errorFromBody(JSON.stringify({ error: { code: "new_code" } }), { status: 500 });
  assert.ok(unknown instanceof esm.AgentRunError);
  assert.ok(!(unknown instanceof esm.InternalError));
});

test("a user's subclass keeps ordinary instanceof, across builds for its bases", () => {
  class Mine extends cjs.RateLimitedError {}
  const mine = new Mine();
  assert.ok(mine instanceof Mine);
  assert.ok(mine instanceof esm.RateLimitedError && mine instanceof esm.AgentRunError);
  assert.ok(!(esm.errorFromBody(body, { status: 429 }) instanceof Mine));
  assert.ok(!({} instanceof esm.AgentRunError));
  assert.ok(!((null as unknown) instanceof esm.AgentRunError));
  assert.ok(!(new Error("x") instanceof esm.AgentRunError));
  const fake = Object.create(esm.RateLimitedError.prototype);
  assert.ok(fake instanceof cjs.RateLimitedError, "the brand, like instanceof, is the prototype chain");
});

test("classes, codes and names agree between the builds", () => {
  for (const [name, value] of Object.entries(esm)) {
    if (typeof value !== "function" || !("httpStatus" in value)) continue;
    const other = (cjs as unknown as Record<string, { code?: string; httpStatus?: number; prototype: { name: string } }>)[name];
    assert.ok(other !== undefined, name);
    const cls = value as unknown as { code?: string; httpStatus?: number; prototype: { name: string } };
    assert.equal(other.code, cls.code);
    assert.equal(other.httpStatus, cls.httpStatus);
    assert.equal(other.prototype.name, cls.prototype.name);
  }
});

// The other entry points (`/clients`, `/server`) import the main entry of
// their module system: an error they give is of its very classes, and the
// main entry's errors are theirs.
test("the /clients and /server entries share the main entry's classes, in each build", async () => {
  const clientsEsm = await import("@mitos/errors/clients");
  const serverEsm = await import("@mitos/errors/server");
  const clientsCjs = require("@mitos/errors/clients") as typeof clientsEsm;
  const serverCjs = require("@mitos/errors/server") as typeof serverEsm;
  const failure = (status: number) => ({ response: { status, headers: {}, data: body } });
  for (const [clients, main, other] of [
    [clientsEsm, esm, cjs],
    [clientsCjs, cjs, esm],
  ] as const) {
    const err = await clients.axiosErrorInterceptor()(failure(429)).catch((e: unknown) => e);
    assert.equal(Object.getPrototypeOf(err), main.RateLimitedError.prototype, "the main entry's class itself");
    assert.ok(err instanceof main.AgentRunError && err instanceof other.RateLimitedError);
  }
  for (const [server, main, other] of [
    [serverEsm, esm, cjs],
    [serverCjs, cjs, esm],
  ] as const) {
    // envelopeBytes takes an error's code only from an error of the package's base class.
    for (const err of [new main.NotFoundError(), new other.NotFoundError()]) assert.equal(server.envelopeBytes(err).status, 404);
    assert.equal(server.envelopeBytes(new Error("not_found")).status, 500);
  }
});

test("no other entry point holds a class of its own copy: each file imports the main entry", () => {
  for (const dir of ["esm", "cjs"]) {
    for (const file of ["clients.js", "server.js"]) {
      const text = readFileSync(join(PACKAGE_DIR, "dist", dir, file), "utf8");
      assert.ok(!/\bclass\b/.test(text), `${dir}/${file} declares a class`);
      assert.match(text, dir === "esm" ? /from ?"\.\/index\.js"/ : /require\("\.\/index\.js"\)/);
    }
  }
});

test("every function and class the generated entry points export keeps its name in both builds (the files are minified)", async () => {
  // The entry points every package has (errcat's ENTRY_POINTS); an overlay's own entry
  // (Mitos's ./compat) is bundled the same way, but its names are its own.
  const generated = [".", "./clients", "./server"];
  const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as {
    exports: Record<string, string | { import: { default: string }; require: { default: string } }>;
  };
  let checked = 0;
  for (const [subpath, conditions] of Object.entries(manifest.exports)) {
    if (!generated.includes(subpath) || typeof conditions === "string") continue;
    const built = [
      await import(pathToFileURL(join(PACKAGE_DIR, conditions.import.default)).href),
      require(join(PACKAGE_DIR, conditions.require.default)),
    ] as Record<string, unknown>[];
    for (const module of built) {
      for (const [name, value] of Object.entries(module)) {
        if (typeof value !== "function") continue;
        assert.equal(value.name, name, `${conditions.import.default}: ${name}`);
        checked += 1;
      }
    }
  }
  assert.ok(checked > 100, `${checked} functions and classes checked`);
});

test("an uncaught error from inside the package reaches a piped stderr whole (the built files have short lines)", () => {
  // Node prints the throw site's source line before an uncaught error; a pipe keeps only
  // the first 64 KiB of what a dying process writes. A minified file of one long line lost the error.
  for (const dir of ["esm", "cjs"]) {
    const text = readFileSync(join(PACKAGE_DIR, "dist", dir, "index.js"), "utf8");
    const longest = Math.max(...text.split("\n").map((line) => line.length));
    assert.ok(longest <= 8192, `dist/${dir}/index.js has a line of ${longest} characters`);
  }
  const body = JSON.stringify({ error: { code: "not_found", message: "no such sandbox" } });
  const scripts = [
    ["--input-type=module", "-e", `import { errorFromBody } from "@mitos/errors"; throw errorFromBody(${JSON.stringify(body)}, { status: 404 });`],
    ["-e", `const { errorFromBody } = require("@mitos/errors"); throw errorFromBody(${JSON.stringify(body)}, { status: 404 });`],
  ];
  for (const args of scripts) {
    const done = spawnSync(process.execPath, args, { cwd: PACKAGE_DIR, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    assert.notEqual(done.status, 0);
    assert.match(done.stderr, /^NotFoundError: no such sandbox$/m, done.stderr.slice(-500));
  }
});
