// Shared by the tests: the package as ESM and as CommonJS, the catalogue
// tables the package was generated with, and small builders.
import { createRequire } from "node:module";
import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

import * as esm from "@mitos/errors";
import * as catalogue from "../src/generated/catalogue.js";
import * as sanitizerRules from "../src/generated/sanitizer-rules.js";

export const require = createRequire(import.meta.url);
/** The same package through its CommonJS entry (`require`). */
export const cjs = require("@mitos/errors") as typeof esm;
export { esm };

export const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const REPO_DIR = join(PACKAGE_DIR, "..");

interface Spec {
  code: string;
  className: string;
  message: string;
  cause: string;
  remediation: string;
  httpStatus: number;
  grpcStatus: string;
  retryable: boolean;
  isAuthFailure: boolean;
  isCancelled: boolean;
  recovery: { action: string; same_arguments: string; guidance?: string };
  sideEffects: string;
  origin: string;
  emittedBy: string;
  contextFields: string[];
}

interface Tables {
  SPECS: (() => Spec)[];
  FALLBACK: { byStatus: [number, string][]; clientError: string; serverError: string; default: string };
  LIMITS: typeof esm.LIMITS;
}

interface Rules {
  REDACTION: string;
  FILTERED: string;
  TRUNCATION_MARKER: string;
}

/** The generated tables the package was built from (compiled beside the tests). */
export const tables = catalogue as unknown as Tables;
export const rules = sanitizerRules as Rules;
export const { FALLBACK, LIMITS } = tables;
/** Every code's spec (the catalogue builds each on first use). */
export const SPECS: readonly Spec[] = tables.SPECS.map((specOfCode) => specOfCode());
export const { REDACTION, FILTERED, TRUNCATION_MARKER } = rules;

export function spec(code: string): Spec {
  const s = SPECS.find((x) => x.code === code);
  if (s === undefined) throw new Error(`no code ${code}`);
  return s;
}

/** The envelope JSON Schema of the repository, when the tests run inside it. */
export function envelopeSchema(): { $defs: { Code: { enum: string[] } } } | undefined {
  const path = join(REPO_DIR, "schemas", "error-envelope.schema.json");
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined;
}

/** An envelope body. */
export function envelope(error: Record<string, unknown>): string {
  return JSON.stringify({ error });
}

/** Code points of `text` (not UTF-16 units). */
export function codePoints(text: string): number {
  return [...text].length;
}
