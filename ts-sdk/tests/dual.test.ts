// One package, two builds: an error made through either entry is
// `instanceof` the classes of the other, and of another copy of the package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { cjs, esm, PACKAGE_DIR } from "./support.js";

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
