/**
 * The way back from {@link AgentRunError.toJSON} to the same typed error.
 *
 * `structuredClone`, `postMessage` and a worker's result turn an error into
 * a plain `Error`; its `toJSON()` (or the Python SDK's `to_dict()`) crosses
 * instead, and {@link errorFromJSON} rebuilds the error of the same class.
 *
 * @module
 */

import { AgentRunError, type AgentRunErrorInit } from "./base.js";
import { CLASS_NAMES_ELSEWHERE } from "./generated/catalogue.js";
import { ERROR_CLASSES } from "./generated/errors.js";
import { sanitizeText } from "./sanitize.js";

/** An own data member of `data` (never a getter, never an inherited one). */
function ownMember(data: object, key: string): unknown {
  const found = Object.getOwnPropertyDescriptor(data, key);
  return found === undefined ? undefined : found.value;
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** The class of a JSON error: its code's; for a finer code, the class `type` names (here or in another SDK); else the base class. */
function revivedClass(code: string, typeName: unknown): typeof AgentRunError {
  let named: typeof AgentRunError | undefined;
  for (const cls of ERROR_CLASSES) {
    if (cls.code === code) return cls;
    if (code !== "" && typeof typeName === "string" && cls.spec.className === typeName) named = cls;
  }
  if (named !== undefined || code === "" || typeof typeName !== "string") return named ?? AgentRunError;
  // A class another SDK names otherwise (its `to_dict()` wrote that name).
  const elsewhere = CLASS_NAMES_ELSEWHERE.find(([name]) => name === typeName);
  return (elsewhere && ERROR_CLASSES.find((cls) => cls.code === elsewhere[1])) ?? AgentRunError;
}

function rebuilt(data: object, base: boolean): AgentRunError {
  const code = sanitizeText(text(ownMember(data, "code")));
  const cls = base ? AgentRunError : revivedClass(code, ownMember(data, "type"));
  const status = ownMember(data, "status");
  const delay = ownMember(data, "retry_after_ms");
  const requestId = ownMember(data, "request_id");
  const context = ownMember(data, "context");
  const init: AgentRunErrorInit = {
    code,
    errorCause: text(ownMember(data, "cause")),
    remediation: text(ownMember(data, "remediation")),
    status: Number.isSafeInteger(status) ? (status as number) : undefined,
    context: typeof context === "object" && context !== null && !Array.isArray(context) ? (context as Record<string, unknown>) : undefined,
    requestId: typeof requestId === "string" ? requestId : undefined,
    retryAfterMs: Number.isSafeInteger(delay) && (delay as number) >= 0 ? (delay as number) : undefined,
  };
  return new cls(text(ownMember(data, "message")), init);
}

/**
 * The error that {@link AgentRunError.toJSON} (or the Python SDK's
 * `to_dict()`) gave `data`. Never throws.
 *
 * The class is the code's (for a finer code, the class `type` names when it
 * is one of this package's); a code the catalogue does not define gives the
 * base class. The texts, context, status, request id and retry delay are
 * `data`'s own members, sanitized again as a constructor does (a sanitized
 * text is left as it is), so `errorFromJSON(err.toJSON())` has the class and
 * every field of `err`; the classification (`retryable`, `recovery`...)
 * comes from the class, never from `data`. A member of the wrong type is
 * ignored (getters and inherited members too), and anything but an object
 * gives the base class with an empty code.
 *
 * @param data - The object `toJSON()` gave, or `JSON.parse` read back.
 * @returns The typed error (not thrown).
 */
export function errorFromJSON(data: unknown): AgentRunError {
  if (typeof data === "object" && data !== null && !Array.isArray(data)) {
    try {
      return rebuilt(data, false);
    } catch {
      // A hostile member the constructor refuses (or a Proxy that throws): the base class keeps the rest.
      try {
        return rebuilt(data, true);
      } catch {
        // Nothing of it can be read.
      }
    }
  }
  return new AgentRunError("", { code: "" });
}
