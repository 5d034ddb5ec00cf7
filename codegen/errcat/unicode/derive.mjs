#!/usr/bin/env node
// Derive the Unicode property ranges the sanitizer removes, from the npm data
// package of one Unicode version (Mathias Bynens' @unicode/unicode-X.Y.Z, a
// transcription of the Unicode Character Database).
//
//   node codegen/errcat/unicode/derive.mjs PACKAGE_DIR > codegen/errcat/unicode/ucd-X.Y.Z.json
//
// ts-sdk pins that package as a dev dependency and its test suite checks
// that the committed file is what this script writes (tests/unicode.test.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** The properties the catalogue may name in sanitizer.remove_properties, and where the package keeps them. */
export const PROPERTIES = {
  "General_Category=Format": "General_Category/Format",
  Default_Ignorable_Code_Point: "Binary_Property/Default_Ignorable_Code_Point",
  Prepended_Concatenation_Mark: "Binary_Property/Prepended_Concatenation_Mark",
};

const hex = (c) => "U+" + c.toString(16).toUpperCase().padStart(4, "0");

/** Sorted code points to inclusive ranges, written `U+0600..U+0605` (or `U+00AD` for one). */
export function toRanges(points) {
  const ranges = [];
  for (const c of points) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last[1] === c - 1) last[1] = c;
    else ranges.push([c, c]);
  }
  return ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}..${hex(b)}`));
}

/** The JSON text of the data file for the package in `dir`. */
export async function derive(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const version = pkg.name.replace(/^@unicode\/unicode-/, "");
  const properties = {};
  for (const [name, path] of Object.entries(PROPERTIES)) {
    const { default: points } = await import(pathToFileURL(join(dir, path, "code-points.mjs")).href);
    properties[name] = toRanges([...points].sort((a, b) => a - b));
  }
  const data = {
    unicode_version: version,
    source: `npm ${pkg.name}@${pkg.version}, from the Unicode Character Database ${version}`,
    derived_by: "node codegen/errcat/unicode/derive.mjs PACKAGE_DIR",
    properties,
  };
  return JSON.stringify(data, null, 1) + "\n";
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.stdout.write(await derive(process.argv[2]));
}
