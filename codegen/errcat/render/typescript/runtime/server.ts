/**
 * The server side: the canonical envelope bytes of an error (contract
 * section 6). {@link envelopeBytes} gives the status, headers and body a
 * TypeScript server (or a test) sends, byte for byte what the Go and Rust
 * writers and Python's `envelope_bytes` send for the same input. Strings are
 * written by the JSON text writer of a parsed body (section 1 step 1),
 * numbers as `JSON.stringify` writes them.
 *
 * The package's `/server` entry point: a client never loads it. It reaches
 * the classes and the sanitizer through the main entry's public names
 * (`./index.js`; the base class, which another API's package exports under
 * its own name, through `lookup`), so that they are the client's own; what it takes from other modules (the
 * catalogue's constants, the JSON text writer) holds no class and no state,
 * and the build copies it into this entry (scripts/bundle.mjs).
 *
 * @module
 */

import {
  CONTEXT_MAX_KEYS,
  ERROR_BODY_MAX_BYTES,
  FALLBACK,
  JSON_MAX_DEPTH,
  REFINES_CHAINS,
  RETRY_AFTER_MAX_MS,
  SURFACES,
} from "./generated/catalogue.js";
import type { AgentRunError } from "./base.js";
import { isKnownCode, lookup, sanitizeText, type SanitizeOptions } from "./index.js";
import { asciiJson } from "./parse.js";
import type { CodeSpec } from "./types.js";

/** What a server sends for an error. */
export interface EnvelopeBytes {
  /** The code's HTTP status. */
  readonly status: number;
  /** `[name, value]` pairs, names in lower case, sorted by name. */
  readonly headers: readonly (readonly [string, string])[];
  /** The envelope: compact JSON, pure ASCII, no trailing newline. */
  readonly body: Uint8Array;
}

/** Options of {@link envelopeBytes}. */
export interface EnvelopeOptions {
  /** The surface answering (`"console"`), whose catalogue texts replace the code's own where it overrides them. */
  readonly surface?: string | undefined;
  /** What went wrong this time; sanitized, capped, left out when empty. */
  readonly cause?: string | undefined;
  /**
   * Structured facts; keys and strings sanitized, keys sorted by code point,
   * bounded by the catalogue's limits. A `retry_after_ms` number also gives
   * the `Retry-After` and `Retry-After-Ms` headers.
   */
  readonly context?: Readonly<Record<string, unknown>> | undefined;
  /** Sent in the body and, when it is visible ASCII, as `X-Request-Id`. */
  readonly requestId?: string | undefined;
  /** The request's own credential, redacted from every text. */
  readonly token?: string | undefined;
  /** The caller's own message instead of the catalogue's; sanitized. */
  readonly message?: string | undefined;
  /** The caller's own remediation instead of the catalogue's; sanitized. */
  readonly remediation?: string | undefined;
}

/** The context object's own depth in `{"error":{"context":{...}}}`. */
const CONTEXT_DEPTH = 3;
const SKIP = Symbol("not written");

/** The spec of a catalogue code, or undefined for any other string. */
function specOf(code: string): CodeSpec | undefined {
  return isKnownCode(code) ? lookup(code).spec : undefined;
}

type Clean = string | number | boolean | null | Clean[] | Map<string, Clean>;

/** Compare by Unicode code point (not UTF-16 unit): the order of the UTF-8 bytes. */
function byCodePoint(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const d = (left[i] as string).codePointAt(0)! - (right[i] as string).codePointAt(0)!;
    if (d !== 0) return d;
  }
  return left.length - right.length;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function clean(value: unknown, token: SanitizeOptions, depth: number): Clean | typeof SKIP {
  if (value === null || typeof value === "boolean") return value;
  if (typeof value === "string") return sanitizeText(value, token);
  if (typeof value === "number") return Number.isNaN(value) ? SKIP : value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value !== "object" || depth > JSON_MAX_DEPTH) return SKIP;
  if (Array.isArray(value)) {
    const items: Clean[] = [];
    for (const item of value as unknown[]) {
      const kept = clean(item, token, depth + 1);
      if (kept !== SKIP) items.push(kept);
    }
    return items;
  }
  return isPlainObject(value) ? members(value, token, depth) : SKIP;
}

/** Clean keys only, sorted by code point, at most `context_max_keys` of them. */
function members(obj: Readonly<Record<string, unknown>>, token: SanitizeOptions, depth: number): Map<string, Clean> {
  const kept = new Map<string, Clean>();
  for (const key of Object.keys(obj).sort(byCodePoint)) {
    if (key === "" || sanitizeText(key, token) !== key) continue;
    const item = clean(obj[key], token, depth + 1);
    if (item === SKIP) continue;
    kept.set(key, item);
    if (kept.size === CONTEXT_MAX_KEYS) break;
  }
  return kept;
}

function json(value: Clean): string {
  if (typeof value === "string") return asciiJson(value);
  if (typeof value === "number") {
    if (value === Infinity) return "1e400";
    return value === -Infinity ? "-1e400" : JSON.stringify(value);
  }
  if (typeof value === "boolean" || value === null) return String(value);
  if (Array.isArray(value)) return `[${value.map(json).join(",")}]`;
  return `{${[...value].map(([k, v]) => `${asciiJson(k)}:${json(v)}`).join(",")}}`;
}

function body(members: readonly (readonly [string, Clean])[]): string {
  const written = members.filter(([, v]) => (v instanceof Map ? v.size > 0 : Array.isArray(v) ? v.length > 0 : v !== ""));
  return `{"error":{${written.map(([name, v]) => `"${name}":${json(v)}`).join(",")}}}`;
}

function headers(context: Readonly<Record<string, unknown>>, requestId: string): [string, string][] {
  const out: [string, string][] = [["content-type", "application/json"]];
  if (requestId !== "" && /^[\x21-\x7e]+$/.test(requestId)) out.push(["x-request-id", requestId]);
  const delay = Object.hasOwn(context, "retry_after_ms") ? context["retry_after_ms"] : undefined;
  const number = typeof delay === "bigint" ? Number(delay) : delay;
  if (typeof number === "number" && number >= 0) {
    const ms = Math.ceil(Math.min(number, RETRY_AFTER_MAX_MS));
    out.push(["retry-after", String(Math.ceil(ms / 1000))], ["retry-after-ms", String(ms)]);
  }
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The status, headers and body a server sends for an error; never throws,
 * never leaks. The canonical form of the contract's section 6, byte for
 * byte what every writer (Go, Rust, Python's `envelope_bytes`) gives:
 *
 * ```ts
 * const sent = envelopeBytes(code, { context: fields, requestId, token });
 * return new Response(sent.body, { status: sent.status, headers: sent.headers });
 * ```
 *
 * `error` is a server code of the catalogue, or an `AgentRunError` (its
 * `code` is used; pass its cause and context yourself). Anything else
 * (another error, an unknown or SDK-local code) is sent as `internal` with
 * the catalogue's texts and no cause or context: its own text never reaches
 * the wire.
 */
export function envelopeBytes(error: unknown, options: EnvelopeOptions = {}): EnvelopeBytes {
  // The base class, whatever the catalogue names it: the class `lookup` gives a string that is no code.
  const base: typeof AgentRunError = lookup("");
  const wanted = error instanceof base ? error.code : error;
  const own = typeof wanted === "string" ? specOf(wanted) : undefined;
  const known = own !== undefined && own.emittedBy === "server";
  const spec = known ? own : specOf(FALLBACK.serverError)!;
  const given: EnvelopeOptions = known
    ? options
    : { surface: options.surface, requestId: options.requestId, token: options.token };
  const token: SanitizeOptions = { token: given.token };
  const surface = SURFACES.find(([code, name]) => code === spec.code && name === given.surface);
  const texts = surface === undefined ? [spec.message, spec.remediation] : [surface[2], surface[3]];
  const sanitized = (text: string | undefined): string => (text ? sanitizeText(text, token) : "");
  const ownMessage = sanitized(given.message);
  const ownRemedy = sanitized(given.remediation);
  const context = given.context ?? {};
  const chain = REFINES_CHAINS.find(([code]) => code === spec.code)?.[1] ?? [];
  const requestId = sanitized(given.requestId);
  const parts: [string, Clean][] = [
    ["code", spec.code],
    ["message", ownMessage || (texts[0] as string)],
    ["cause", sanitized(given.cause)],
    ["remediation", ownRemedy || (texts[1] as string)],
    ["context", members(context, token, CONTEXT_DEPTH)],
    ["request_id", requestId],
    ["refines", [...chain]],
  ];
  let text = body(parts);
  // Over the cap: drop the context, then the cause, the request id, the caller's texts.
  const drops: [number, Clean][] = [
    [4, new Map()],
    [2, ""],
    [5, ""],
    [1, texts[0] as string],
  ];
  for (const [index, fallback] of drops) {
    if (text.length <= ERROR_BODY_MAX_BYTES) break;
    (parts[index] as [string, Clean])[1] = fallback;
    if (index === 1) (parts[3] as [string, Clean])[1] = texts[1] as string;
    text = body(parts);
  }
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return { status: spec.httpStatus ?? 500, headers: headers(context, requestId), body: bytes };
}
