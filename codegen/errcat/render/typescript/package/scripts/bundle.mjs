// Turn the per-file ES module output of tsc (dist/esm) into the files the
// package ships:
//
//   dist/esm/index.js   one ES module (the "import" condition);
//   dist/cjs/index.js   the same code as one CommonJS module (the "require"
//                       condition). An error made by either is `instanceof`
//                       the classes of the other: the base class's
//                       Symbol.hasInstance compares a brand, the package and
//                       the class name (src/base.ts).
//
// The CommonJS file is the ES module's text with its one `export { ... }`
// clause turned into `module.exports = { ... }`. esbuild's own CommonJS
// output defines a getter per export instead (for bindings that could
// change), which cost 0.4 ms more at `require`; every export here is a
// declaration assigned once, so a plain property holds the same value, and
// Node's import of the file (cjs-module-lexer) sees every name.
//
// Why one file: on the machines this runs on, Node spends about half a
// millisecond per module file it loads, and the import budget is 3.5 ms.
// The type declarations stay one per source file (only tsc reads them); tsc
// writes them once, to dist/esm, and this script copies them to dist/cjs:
// they are the same text for both module systems (dist/cjs/package.json says
// "commonjs", so a type checker reads the copies as CommonJS declarations).
//
// Why esbuild joins them: it hoists every module into one scope, so each
// top-level declaration stays a top-level statement that a user's bundler
// can drop when nothing uses it (the package declares "sideEffects": false).
// Wrapping each module in a function, as this script once did, made every
// import of one class cost the whole package.
//
// tsc has already compiled (and type-checked) the code; esbuild only joins
// it, at the same target: it does not transpile TypeScript here. The build
// stops with the file named when a module imports anything outside the
// package (platform "neutral" resolves no built-in module either), and when
// two modules' names collide, so that a class is never renamed (its `name`
// is the class's).
//
// Then terser shortens the local names and drops the whitespace and
// comments: V8 parses every byte of the file at import, and the shorter
// file takes about half a millisecond off the import (docs/benchmarks-
// typescript.md, "Importing"). It keeps what a user sees and what a user's
// bundler needs: every exported name and every top-level class and function
// keep their names (a class's `name`, a stack trace's frames), the
// `/* @__PURE__ */` marks stay (esbuild's own minifier drops them, and a
// bundler would then keep every code's spec), and nothing is rewritten
// (no compression: one statement stays one statement, each droppable).
// Statements end at line breaks rather than semicolons, so every line stays
// short: Node prints the source line of an uncaught error's throw site
// before the error, and a file of one long line made that print 100 kB,
// which a pipe cut off before the error itself (tests/dual.test.ts).
//
// The other entry points of package.json "exports" (`PACKAGE/clients`,
// `PACKAGE/server`, an overlay's hand-written `PACKAGE/compat`) hold what a
// client that branches on errors does not need, so that importing the main
// entry does not compile them. Each is one file per format too, bundled
// with what it imports except the main entry, which stays an import (the
// main entry's own file): so every entry point has one runtime, one
// sanitizer and one set of classes, whichever one a user imports a class
// through. What else an entry bundles is copied into it, and the build
// stops when that is a module that declares a class: an entry reaches
// classes (and the state behind them) through the main entry's names.
//
// Usage: node scripts/bundle.mjs [DIST]
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, posix, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { minify } from "terser";

const manifest = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), "..", "package.json"), "utf8"));

const dist = resolve(process.argv[2] ?? "dist");
const esmDir = join(dist, "esm");
const cjsDir = join(dist, "cjs");
const entry = join(esmDir, "index.js");
const banner = `// ${manifest.name}: built by scripts/bundle.mjs from the TypeScript sources in src/.`;

// The entry points besides index.js, relative to dist/esm and dist/cjs: the
// other subpaths of package.json "exports" (their "import" file).
const others = Object.entries(manifest.exports)
  .filter(([subpath]) => subpath !== "." && subpath !== "./package.json")
  .map(([, conditions]) => posix.relative("./dist/esm", conditions.import.default));

/**
 * Bundle `path` as one module of `format`, with what it imports except the
 * main entry (when `path` is another entry point), which stays an import:
 * its text and the modules whose code it holds (absolute paths).
 */
async function bundle(format = "esm", path = entry) {
  const keepMain = {
    name: "keep-the-main-entry",
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (path === entry || resolve(args.resolveDir, args.path) !== entry) return undefined;
        const specifier = posix.relative(dirname(path).split("\\").join("/"), entry.split("\\").join("/"));
        return { path: specifier.startsWith(".") ? specifier : `./${specifier}`, external: true };
      });
    },
  };
  const result = await build({
    entryPoints: [path],
    bundle: true,
    write: false,
    format,
    platform: "neutral",
    target: "es2022",
    mainFields: ["module", "main"],
    legalComments: "none",
    charset: "utf8",
    banner: { js: banner },
    logLevel: "silent",
    metafile: true,
    plugins: [keepMain],
  });
  if (result.warnings.length > 0) {
    throw new Error(`scripts/bundle.mjs: ${result.warnings.map((w) => w.text).join("; ")}`);
  }
  const held = Object.entries(Object.values(result.metafile.outputs)[0].inputs).filter(([, input]) => input.bytesInOutput > 0);
  return { text: result.outputFiles[0].text, modules: held.map(([input]) => resolve(input)) };
}

/** The modules (relative paths) that declare each top-level class or function under `dir`. */
function declaredNames(dir, names = new Map()) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) declaredNames(path, names);
    else if (name.endsWith(".js")) {
      const text = readFileSync(path, "utf8");
      for (const m of text.matchAll(/^(?:export )?(?:class|function\*?|async function\*?) ([A-Za-z_$][\w$]*)/gm)) {
        names.set(m[1], [...(names.get(m[1]) ?? []), relative(esmDir, path)]);
      }
    }
  }
  return names;
}

/**
 * Fail when esbuild would rename or has renamed a top-level class or
 * function: it renames one when two modules declare the same name (`name2`),
 * and a renamed class reports another `name` than its source gives it. One
 * nothing uses is dropped, and that is no loss: the helpers of an `sdk`
 * group a catalogue leaves out (errorForExit, validateTimeout) are.
 */
function checkNames(text, names) {
  const twice = [...names].filter(([, files]) => files.length > 1).map(([name, files]) => `${name} (${files.join(", ")})`);
  if (twice.length > 0) throw new Error(`scripts/bundle.mjs: declared by two modules: ${twice.join("; ")}; give each a unique name`);
  const kept = new Set([...text.matchAll(/^(?:var ([A-Za-z_$][\w$]*) = class\b|(?:async )?function\*? ([A-Za-z_$][\w$]*))/gm)].map((m) => m[1] ?? m[2]));
  const renamed = (name) => [...kept].some((k) => k.startsWith(name) && /^\d+$/.test(k.slice(name.length)));
  const lost = [...names.keys()].filter((name) => !kept.has(name) && renamed(name)).sort();
  if (lost.length > 0) throw new Error(`scripts/bundle.mjs: not in the bundle under their own names: ${lost.join(", ")}`);
}

/**
 * The CommonJS module of the same code (minified): strict, as the ES module
 * is, and its one export clause (printed last) as the object module.exports is.
 */
function toCommonJs(text) {
  const clause = /export\{([^}]*)\};?\n$/.exec(text);
  if (clause === null || !text.startsWith(`${banner}\n`) || /(?:^|[;}\n])\s*(?:import|export)\b/.test(text.slice(banner.length, clause.index))) {
    throw new Error("scripts/bundle.mjs: the bundle is not one module with one export clause at its end; its CommonJS form cannot be derived");
  }
  const members = clause[1].split(",").map((entry) => entry.trim()).filter((entry) => entry !== "").map((entry) => {
    const [local, exported = local] = entry.split(/\s+as\s+/);
    return `${exported}:${local}`;
  });
  const body = text.slice(banner.length + 1, clause.index);
  const exports = `module.exports={${members.join(",")}}\nObject.defineProperty(module.exports,"__esModule",{value:!0})\n`;
  return `${banner}\n"use strict"\n${body}\n${exports}`;
}

/**
 * `text` (esbuild's output, one module of `format`) minified by terser, as
 * the comment at the top says; the banner stays its first line.
 */
async function minified(text, format) {
  const topLevel = [
    ...text.matchAll(/^(?:var|let|const) ([A-Za-z_$][\w$]*) = class\b/gm),
    ...text.matchAll(/^(?:async )?function\*? ?([A-Za-z_$][\w$]*)/gm),
  ].map((m) => m[1]);
  const exported = [...text.matchAll(/^export \{\n([^}]*)\n\};$/gm)].flatMap((m) =>
    m[1].split(",").map((entry) => entry.trim().split(/\s+as\s+/)[0]).filter((name) => name !== ""),
  );
  const result = await minify(text.slice(banner.length + 1), {
    module: format === "esm",
    toplevel: true,
    ecma: 2022,
    compress: false,
    mangle: { reserved: [...new Set([...topLevel, ...exported])], keep_classnames: true, keep_fnames: true },
    format: { comments: false, preserve_annotations: true, ascii_only: false, semicolons: false },
  });
  return `${banner}\n${result.code.trimEnd()}\n`;
}

/** Fail when the bundle of another entry point `other` copies a module that declares a class. */
function checkCopies(other, modules) {
  const classes = modules.filter((m) => m !== join(esmDir, other) && /^(?:export )?class\b/m.test(readFileSync(m, "utf8")));
  if (classes.length > 0) {
    const names = classes.map((m) => relative(esmDir, m)).join(", ");
    throw new Error(`scripts/bundle.mjs: ${other} would copy classes (${names}); import them from the main entry (index.js)`);
  }
}

// Each other entry point, bundled in both formats; then its tsc output is
// removed, so that the names of its own classes (compat's) are its own.
const printed = new Map();
for (const other of others) {
  const path = join(esmDir, other);
  const esm = await bundle("esm", path);
  checkCopies(other, esm.modules);
  printed.set(other, [await minified(esm.text, "esm"), await minified((await bundle("cjs", path)).text, "cjs")]);
}
for (const other of others) rmSync(join(esmDir, other));

const names = declaredNames(esmDir);
const { text: joined } = await bundle();
checkNames(joined, names);
const esm = await minified(joined, "esm");
const cjs = toCommonJs(esm);

// Remove the per-file modules tsc wrote; copy their declarations to dist/cjs.
function removeJsCopyTypes(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) removeJsCopyTypes(path);
    else if (name.endsWith(".js")) rmSync(path);
    else if (name.endsWith(".d.ts")) {
      const copy = join(cjsDir, relative(esmDir, path));
      mkdirSync(dirname(copy), { recursive: true });
      copyFileSync(path, copy);
    }
  }
}
removeJsCopyTypes(esmDir);

writeFileSync(join(esmDir, "index.js"), esm);
writeFileSync(join(cjsDir, "index.js"), cjs);
for (const [other, [otherEsm, otherCjs]] of printed) {
  writeFileSync(join(esmDir, other), otherEsm);
  mkdirSync(dirname(join(cjsDir, other)), { recursive: true });
  writeFileSync(join(cjsDir, other), otherCjs);
}
writeFileSync(join(cjsDir, "package.json"), JSON.stringify({ type: "commonjs" }, null, 2) + "\n");
