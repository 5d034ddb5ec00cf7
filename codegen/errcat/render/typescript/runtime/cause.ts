/**
 * What an error keeps as its standard `cause` (docs/sdk-contract.md section
 * 4): a sanitized copy of the wrapped error, never the value it was handed.
 *
 * @module
 */

import { sanitizeEvery } from "./sanitize.js";

/** How many errors of a cause chain an error keeps (copied); deeper ones are dropped. */
const CAUSE_DEPTH = 8;
/** How many lines of a wrapped error's stack are kept. */
const STACK_LINES = 32;

/** A member of a value read without invoking a getter that throws (none for a primitive). */
function memberOf(value: object, name: string): unknown {
  try {
    return (value as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}

/**
 * What an error keeps as its standard `cause` (contract section 4): never
 * the wrapped value itself, which (an axios or got error) holds the request,
 * its `Authorization` header and the response. A string is sanitized, a
 * number or boolean kept; an object becomes an `Error` holding only its
 * `name`, `message`, `code` and `stack` (each line), sanitized with the
 * caller's token, and the same copy of its own `cause`, at most
 * {@link CAUSE_DEPTH} deep. Anything else is dropped (undefined).
 */
export function safeCause(value: unknown, forms: readonly string[], depth: number): unknown {
  if (typeof value === "string") return sanitizeEvery(value, forms);
  if (typeof value === "number" || typeof value === "boolean") return value;
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return undefined;
  const text = (v: unknown): string => (typeof v === "string" ? sanitizeEvery(v, forms) : "");
  const name = text(memberOf(value, "name")) || "Error";
  const copy: Error & { code?: string | number } = new Error(text(memberOf(value, "message")));
  const hidden = (key: string, v: unknown): void => {
    Object.defineProperty(copy, key, { value: v, writable: true, configurable: true, enumerable: false });
  };
  hidden("name", name);
  const stack = memberOf(value, "stack");
  hidden(
    "stack",
    typeof stack === "string"
      ? stack.split("\n", STACK_LINES).map((line) => sanitizeEvery(line, forms)).join("\n")
      : `${name}${copy.message === "" ? "" : ": " + copy.message}`,
  );
  const code = memberOf(value, "code");
  if (typeof code === "string" || typeof code === "number") copy.code = typeof code === "string" ? text(code) : code;
  const inner = memberOf(value, "cause");
  if (inner !== undefined && depth + 1 < CAUSE_DEPTH) {
    const kept = safeCause(inner, forms, depth + 1);
    if (kept !== undefined) hidden("cause", kept);
  }
  return copy;
}
