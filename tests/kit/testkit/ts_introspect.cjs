#!/usr/bin/env node
// Read the contract back from the compiled TypeScript SDK (ts-sdk/dist).
//
//   node ts_introspect.cjs /abs/ts-sdk/dist/cjs/index.js   (testkit.contract_readers.from_typescript)
//
// Prints one JSON object:
//   classes:  every exported error class of the CommonJS build, with its name
//             (prototype name), static code, httpStatus and grpcStatus;
//   lookup:   code -> name of the class lookup(code) returns, for every code
//             of the declared Code type;
//   codes:    the members of the Code union in generated/envelope.d.ts;
//   context:  code -> {field: type} from the per-code context types that the
//             ErrorObject union of generated/envelope.d.ts attaches to it;
//   fields:   {field: type} of the shared Context type.
// The declarations are parsed with the TypeScript compiler API (ts-sdk's
// devDependency), not with regular expressions.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const entry = process.argv[2];
if (!entry) {
  process.stderr.write("usage: node ts_introspect.cjs /abs/path/to/dist/cjs/index.js\n");
  process.exit(2);
}
const sdk = require(entry);

function findUp(start, relative) {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, relative);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

const tsPath = findUp(path.dirname(entry), path.join("node_modules", "typescript"));
if (tsPath === undefined) {
  process.stderr.write("ts_introspect.cjs: typescript is not installed in ts-sdk (run npm ci there)\n");
  process.exit(2);
}
const ts = require(tsPath);

const classes = [];
for (const [name, value] of Object.entries(sdk)) {
  if (typeof value !== "function") continue;
  if (value !== sdk.AgentRunError && !(value.prototype instanceof sdk.AgentRunError)) continue;
  classes.push({
    export: name,
    name: value.prototype.name,
    code: value.code === undefined ? null : value.code,
    httpStatus: value.httpStatus === undefined ? null : value.httpStatus,
    grpcStatus: value.grpcStatus === undefined ? null : value.grpcStatus,
    isBase: value === sdk.AgentRunError,
  });
}

const dtsPath = path.join(path.dirname(entry), "generated", "envelope.d.ts");
const source = ts.createSourceFile(dtsPath, fs.readFileSync(dtsPath, "utf8"), ts.ScriptTarget.Latest, true);
const aliases = new Map();
source.forEachChild((node) => {
  if (ts.isTypeAliasDeclaration(node)) aliases.set(node.name.text, node.type);
});

function unwrap(type) {
  while (type && ts.isParenthesizedTypeNode(type)) type = type.type;
  return type;
}

function members(type) {
  // name -> type text of the property signatures of a type literal ("a?: T" gives a -> T).
  const out = {};
  type = unwrap(type);
  if (!type || !ts.isTypeLiteralNode(type)) return out;
  for (const m of type.members) {
    if (ts.isPropertySignature(m) && m.name && m.type) out[m.name.getText(source)] = m.type.getText(source);
  }
  return out;
}

function literalUnion(type) {
  type = unwrap(type);
  const parts = type && ts.isUnionTypeNode(type) ? type.types : [type];
  return parts
    .filter((t) => t && ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal))
    .map((t) => t.literal.text);
}

const codes = literalUnion(aliases.get("Code"));
const context = {};
for (const code of codes) context[code] = {};
const errorObject = unwrap(aliases.get("ErrorObject"));
if (errorObject && ts.isIntersectionTypeNode(errorObject)) {
  for (const part of errorObject.types) {
    const union = unwrap(part);
    if (!union || !ts.isUnionTypeNode(union)) continue;
    for (const branch of union.types) {
      const inter = unwrap(branch);
      if (!inter || !ts.isIntersectionTypeNode(inter)) continue;
      let code;
      let contextType;
      for (const piece of inter.types) {
        const m = members(piece);
        if (m.code !== undefined) code = JSON.parse(m.code);
        if (m.context !== undefined) contextType = m.context.trim();
      }
      if (code !== undefined && contextType !== undefined) {
        context[code] = members(aliases.get(contextType));
      }
    }
  }
}
const fields = members(aliases.get("Context"));

const lookup = {};
for (const code of codes) lookup[code] = sdk.lookup(code).prototype.name;

process.stdout.write(JSON.stringify({ classes, lookup, codes, context, fields }) + "\n");
