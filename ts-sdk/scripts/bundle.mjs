// Turn the per-file ES module output of tsc (dist/esm) into the files the
// package ships:
//
//   dist/esm/index.js   one ES module (the "import" condition);
//   dist/cjs/index.js   the same code as one CommonJS module (the "require"
//                       condition). An error made by either is `instanceof`
//                       the classes of the other: the base class brands
//                       every class with a Symbol.for key (src/base.ts).
//
// Why one file: on the machines this runs on, Node spends about half a
// millisecond per module file it loads, and the import budget is 3.5 ms.
// The type declarations stay one per source file (only tsc reads them).
//
// It is a small, strict bundler for this package's own compiled output:
// every source module is wrapped in a function scope, in dependency order,
// and anything it does not understand (a default export, an import from
// outside the package, a cycle) stops the build with the file named.
//
// Usage: node scripts/bundle.mjs [DIST]
import { readFileSync, writeFileSync, rmSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

const dist = resolve(process.argv[2] ?? "dist");
const esmDir = join(dist, "esm");
const cjsDir = join(dist, "cjs");

const printer = ts.createPrinter({ removeComments: true });

function fail(file, message) {
  throw new Error(`scripts/bundle.mjs: ${relative(process.cwd(), file)}: ${message}`);
}

function hasExport(node) {
  return (ts.getModifiers?.(node) ?? node.modifiers ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** Parse one compiled module into its code (imports and export keywords removed) and exports. */
function transform(file, modules) {
  const text = readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const deps = [];
  const exports = []; // [exported name, expression]
  const stars = [];
  const cuts = []; // [start, end, replacement]
  const target = (spec) => {
    if (!spec.startsWith("./") && !spec.startsWith("../")) fail(file, `imports ${spec}, which is outside the package`);
    const path = resolve(dirname(file), spec);
    deps.push(path);
    return path;
  };
  const ref = (path) => `__modules[${JSON.stringify(relative(esmDir, path).split(sep).join("/"))}]`;
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st)) {
      const from = ref(target(st.moduleSpecifier.text));
      const clause = st.importClause;
      let replacement = "";
      if (clause?.name) fail(file, "has a default import");
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) replacement = `const ${bindings.name.text} = ${from};`;
      else if (bindings && ts.isNamedImports(bindings)) {
        const parts = bindings.elements.map((e) => (e.propertyName ? `${e.propertyName.text}: ${e.name.text}` : e.name.text));
        replacement = parts.length ? `const { ${parts.join(", ")} } = ${from};` : "";
      }
      cuts.push([st.getStart(sf), st.getEnd(), replacement]);
    } else if (ts.isExportDeclaration(st)) {
      const from = st.moduleSpecifier ? ref(target(st.moduleSpecifier.text)) : undefined;
      if (st.exportClause === undefined) {
        if (from === undefined) fail(file, "has a bare export *");
        stars.push(deps[deps.length - 1]);
      } else if (ts.isNamedExports(st.exportClause)) {
        for (const e of st.exportClause.elements) {
          const local = (e.propertyName ?? e.name).text;
          exports.push([e.name.text, from ? `${from}.${local}` : local]);
        }
      } else {
        fail(file, "has export * as ns");
      }
      cuts.push([st.getStart(sf), st.getEnd(), ""]);
    } else if (ts.isExportAssignment(st)) {
      fail(file, "has a default export");
    } else if (hasExport(st)) {
      const mods = ts.getModifiers(st) ?? [];
      if (mods.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) fail(file, "has a default export");
      const keyword = mods.find((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      cuts.push([keyword.getStart(sf), keyword.getEnd(), ""]);
      if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) {
          if (!ts.isIdentifier(d.name)) fail(file, "exports a destructuring declaration");
          exports.push([d.name.text, d.name.text]);
        }
      } else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) {
        exports.push([st.name.text, st.name.text]);
      } else {
        fail(file, `exports a ${ts.SyntaxKind[st.kind]}`);
      }
    }
  }
  let code = text;
  for (const [start, end, replacement] of cuts.sort((a, b) => b[0] - a[0])) {
    code = code.slice(0, start) + replacement + code.slice(end);
  }
  // Comments cost parse time at every import and are in the declarations already.
  const printed = printer.printFile(ts.createSourceFile(file, code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS));
  modules.set(file, { file, code: printed, deps, exports, stars });
}

// Load the graph from the entry, depth first, so every module comes after its dependencies.
const modules = new Map();
const order = [];
const visiting = new Set();
function visit(file) {
  if (order.includes(file)) return;
  if (visiting.has(file)) fail(file, "is part of an import cycle");
  visiting.add(file);
  transform(file, modules);
  for (const dep of modules.get(file).deps) visit(dep);
  visiting.delete(file);
  order.push(file);
}
const entry = join(esmDir, "index.js");
visit(entry);

function exportNames(file, seen = new Set()) {
  const m = modules.get(file);
  const names = new Map(m.exports);
  for (const star of m.stars) {
    for (const [name] of exportNames(star, seen)) {
      if (!names.has(name)) names.set(name, `__modules[${JSON.stringify(relative(esmDir, star).split(sep).join("/"))}].${name}`);
    }
  }
  return names;
}

let body = "const __modules = Object.create(null);\n";
for (const file of order) {
  const key = JSON.stringify(relative(esmDir, file).split(sep).join("/"));
  const names = exportNames(file);
  const members = [...names].map(([name, expr]) => (name === expr ? name : `${name}: ${expr}`));
  body += `\n// ---- ${relative(esmDir, file).split(sep).join("/")}\n__modules[${key}] = (() => {\n${modules.get(file).code.trim()}\nreturn { ${members.join(", ")} };\n})();\n`;
}
const publicNames = [...exportNames(entry).keys()].sort();
const banner = "// @mitos/errors: built by scripts/bundle.mjs from the TypeScript sources in src/.\n";
const entryRef = `__modules["index.js"]`;

// Remove the per-file modules tsc wrote; keep their declarations.
function removeJs(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) removeJs(path);
    else if (name.endsWith(".js")) rmSync(path);
  }
}
removeJs(esmDir);

writeFileSync(join(esmDir, "index.js"), `${banner}${body}\nexport const { ${publicNames.join(", ")} } = ${entryRef};\n`);
writeFileSync(
  join(cjsDir, "index.js"),
  `${banner}"use strict";\n${body}\nconst { ${publicNames.join(", ")} } = ${entryRef};\nmodule.exports = { ${publicNames.join(", ")} };\n`,
);
writeFileSync(join(cjsDir, "package.json"), JSON.stringify({ type: "commonjs" }, null, 2) + "\n");

