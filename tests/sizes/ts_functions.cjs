#!/usr/bin/env node
// List each function of TypeScript files with its size, for tests/sizes/test_sizes.py.
//
//   node ts_functions.cjs /abs/ts-sdk/node_modules/typescript FILE...
//
// Prints one JSON array: per file {path, lines, functions: [{name, first, last, before}]},
// where first and last are 1-based lines of the whole declaration and before is the
// line above it. Parsed with the TypeScript compiler API, not regular expressions.
"use strict";

const fs = require("node:fs");

const [tsPath, ...files] = process.argv.slice(2);
if (!tsPath) {
  process.stderr.write("usage: node ts_functions.cjs /abs/path/to/typescript FILE...\n");
  process.exit(2);
}
const ts = require(tsPath);

function nameOf(node, source) {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  return "<anonymous>";
}

const out = files.map((file) => {
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = text.split("\n");
  const functions = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body !== undefined) {
      // A function assigned to a name starts at its statement (the line a comment sits above).
      let start = node;
      while (start.parent && !ts.isSourceFile(start.parent) && !ts.isBlock(start.parent) &&
        !ts.isClassLike(start.parent) && !ts.isFunctionLike(start.parent) && start.parent.getStart(source) === start.getStart(source)) {
        start = start.parent;
      }
      const first = source.getLineAndCharacterOfPosition(start.getStart(source)).line + 1;
      const last = source.getLineAndCharacterOfPosition(node.end).line + 1;
      functions.push({ name: nameOf(node, source), first, last, before: lines[first - 2] ?? "" });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { path: file, lines: text.endsWith("\n") ? lines.length - 1 : lines.length, functions };
});
process.stdout.write(JSON.stringify(out) + "\n");
