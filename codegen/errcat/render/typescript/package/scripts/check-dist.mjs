// Check that the build the package points at is there: every file that
// package.json names in "exports", "main", "module" and "types". Run at the
// end of `npm run build` and as "prepack", so that `npm pack` or
// `npm publish` of a tree that was never built fails here, loudly, instead
// of making a tarball without code.
//
// Usage: node scripts/check-dist.mjs
import { readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** Every path string in an "exports" value (conditions and subpaths, nested). */
function targets(value) {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(targets);
}

const named = [...targets(manifest.exports), manifest.main, manifest.module, manifest.types].filter((p) => typeof p === "string");
const missing = [...new Set(named)].filter((path) => {
  try {
    return statSync(join(root, path)).size === 0;
  } catch {
    return true;
  }
});
if (missing.length > 0) {
  process.stderr.write(
    `${manifest.name}: the build is missing (${missing.join(", ")}).\n` +
      "This tree was not built: run `npm ci` (it installs the pinned build tools and builds) " +
      "or `npm run build` in ts-sdk/, then pack or publish again.\n",
  );
  process.exit(1);
}
