// npm's "prepare" step: build the package wherever npm prepares it.
//
// npm runs it after `npm install` or `npm ci` in this directory, before
// `npm pack` and `npm publish`, and when another project installs this
// directory: `npm install path/to/ts-sdk`, a "file:" dependency, or
// `--install-links`. In that last case npm installs none of this
// directory's devDependencies, and the build needs three of them (TypeScript,
// esbuild and terser): when the pinned versions are not in node_modules/, this
// installs them first, from package-lock.json when there is one (`npm ci`,
// no scripts; else `npm install` of package.json's pinned versions),
// whatever options the outer npm was given (--omit=dev, NODE_ENV=production,
// --global do not apply to a build).
//
// Usage: node scripts/prepare.mjs
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const BUILD_TOOLS = ["typescript", "esbuild", "terser"];

/** Whether node_modules/ holds the pinned version of a devDependency. */
function installed(name) {
  const path = join(root, "node_modules", name, "package.json");
  return existsSync(path) && JSON.parse(readFileSync(path, "utf8")).version === manifest.devDependencies[name];
}

/** Run npm (the one running this script, when npm started it) in this directory; exit on failure. */
function npm(args, what) {
  const cli = process.env.npm_execpath;
  const [command, argv] = cli && cli.endsWith(".js") ? [process.execPath, [cli, ...args]] : ["npm", args];
  const result = spawnSync(command, argv, { cwd: root, stdio: "inherit", shell: process.platform === "win32" && command === "npm" });
  if (result.status !== 0) {
    process.stderr.write(`${manifest.name}: ${what} failed (${result.error?.message ?? `exit ${result.status}`}) in ${root}\n`);
    process.exit(1);
  }
}

if (!BUILD_TOOLS.every(installed)) {
  process.stderr.write(`${manifest.name}: installing the pinned build tools (${BUILD_TOOLS.join(", ")}) to build from source\n`);
  // From package-lock.json when the package has one; else the pinned versions of package.json.
  const [verb, lock] = existsSync(join(root, "package-lock.json")) ? ["ci", "--package-lock"] : ["install", "--no-package-lock"];
  npm(
    [verb, "--prefix", root, "--include=dev", "--ignore-scripts", "--no-global", "--no-workspaces", lock, "--no-audit", "--no-fund"],
    `\`npm ${verb}\` of the build tools`,
  );
}
npm(["run", "build"], "`npm run build`");
