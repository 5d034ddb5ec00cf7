/**
 * The forms of the caller's token (docs/sdk-contract.md section 2, stage 2):
 * the token cleaned by step 1, its UTF-8 bytes percent-encoded in upper and
 * in lower case, and in base64 and base64url without padding (and the
 * characters of them that depend on the token alone at each of the three
 * alignments inside longer base64 text).
 *
 * The forms are derived once per token: a single-entry cache (see
 * {@link tokenForms}) keeps the last token and its forms in this module,
 * reachable from no error and replaced by the next token.
 *
 * @module
 */

import { FILTERED, REDACTION, TRUNCATION_MARKER, isPlain } from "./generated/sanitizer-rules.js";
import { cleanCharacters } from "./covers.js";

/** The bytes percent-encoding leaves as they are: A-Z a-z 0-9 - . _ ~ */
const UNRESERVED = /* @__PURE__ */ asciiSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~");

/** A table of the ASCII characters of `chars` (1) and the others (0); a pure call, so a bundle without tokens drops it. */
function asciiSet(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const ch of chars) table[ch.charCodeAt(0)] = 1;
  return table;
}
const HEX_UPPER = "0123456789ABCDEF";
const HEX_LOWER = "0123456789abcdef";

function percentEncode(bytes: Uint8Array, hex: string): string {
  let out = "";
  for (const b of bytes) {
    out += b < 0x80 && UNRESERVED[b] === 1 ? String.fromCharCode(b) : "%" + hex[b >> 4]! + hex[b & 15]!;
  }
  return out;
}

function unpadded(b64: string): string {
  let end = b64.length;
  while (end > 0 && b64.charCodeAt(end - 1) === 0x3d) end--;
  return b64.slice(0, end);
}

function urlSafe(b64: string): string {
  return b64.indexOf("+") !== -1 || b64.indexOf("/") !== -1 ? b64.replace(/\+/g, "-").replace(/\//g, "_") : b64;
}

/**
 * The base64 forms of the bytes `binary` (one character per byte): unpadded,
 * then the core at each of the three alignments inside longer base64 text.
 * At alignment `k` (bytes before the token in its group of three) the
 * characters whose six bits all come from the token are the same whatever
 * surrounds it: characters ceil(8k/6) up to floor((8k+8n)/6) of the encoding
 * of `k` zero bytes, the token and two zero bytes; a core shorter than
 * {@link CORE_MIN_CHARS} is left out. Each form is listed in base64, then in
 * base64url.
 */
/**
 * The shortest core looked for (contract section 2): a shorter one (a token
 * of one or two bytes) holds at most 12 bits of the token and would match
 * base64 text by chance.
 */
const CORE_MIN_CHARS = 3;

function base64Forms(binary: string): string[] {
  const n = binary.length;
  const b64 = unpadded(btoa(binary));
  const out = [b64, urlSafe(b64)];
  for (let k = 0; k < 3; k++) {
    const start = Math.ceil((8 * k) / 6);
    const end = Math.floor((8 * k + 8 * n) / 6);
    if (end - start < CORE_MIN_CHARS) continue; // a token of one or two bytes: so short a core is found by chance
    const core = btoa("\0".repeat(k) + binary + "\0\0").slice(start, end);
    out.push(core, urlSafe(core));
  }
  return out;
}

function isMarkerPart(form: string): boolean {
  if (form.length > Math.max(REDACTION.length, FILTERED.length, TRUNCATION_MARKER.length)) return false;
  return REDACTION.includes(form) || FILTERED.includes(form) || TRUNCATION_MARKER.includes(form);
}

/** No forms: no token, or one that is empty once cleaned. */
export const NO_FORMS: readonly string[] = /* @__PURE__ */ Object.freeze([]);

/**
 * The characters that make a form able to appear where it was not: the
 * first and the last character of each marker a replacement writes before
 * the token step (`redaction`, `filtered`). An occurrence of a form that a
 * replacement made overlaps the marker it wrote: it holds the whole marker,
 * or begins inside it (and so holds its last character), or ends inside it
 * (and so holds its first). A form with none of these characters occurs in
 * the rewritten text (and after redacting other forms) only where it
 * occurred in the cleaned text. An empty marker joins text: then every form may.
 */
const WRITTEN: readonly string[] = [REDACTION, FILTERED];
const MARKERS_JOIN = (REDACTION as string) === "" || (FILTERED as string) === "";
const EDGES = /* @__PURE__ */ edgesOf(WRITTEN);

/** The first and last characters of the non-empty `markers` (a pure call: no statement runs at import). */
function edgesOf(markers: readonly string[]): ReadonlySet<string> {
  const edges = new Set<string>();
  for (const m of markers) if (m !== "") edges.add(m[0]!).add(m[m.length - 1]!);
  return edges;
}

function canBeMade(form: string): boolean {
  if (MARKERS_JOIN) return true;
  for (const ch of EDGES) if (form.includes(ch)) return true;
  return false;
}

/** The single-entry cache of {@link tokenForms}: the last token, its forms, whether they are stable. */
let lastToken: string | undefined;
let lastForms: readonly string[] = NO_FORMS;
let lastStable = true;

/**
 * The forms of a caller's token that are redacted, longest first: the token
 * (cleaned by step 1), its UTF-8 bytes percent-encoded (upper- then
 * lower-case hex digits), and in base64 and base64url without padding with
 * their cores at the three alignments inside longer base64 text.
 * Empty forms and forms found inside a marker are left out. Equal forms are
 * listed once. The array is frozen.
 *
 * The last token given and its forms stay in this module (one entry,
 * replaced by the next token; no error references it), so that the errors
 * of one caller, who passes the same token every time, derive them once.
 */
export function tokenForms(token: string | undefined): readonly string[] {
  if (typeof token !== "string" || token === "") return NO_FORMS;
  if (token === lastToken) return lastForms;
  const forms = deriveForms(token);
  lastToken = token;
  lastForms = forms;
  lastStable = !forms.some(canBeMade);
  return forms;
}

/**
 * Whether no form can appear in a rewritten text where it did not occur in
 * the cleaned text (see EDGES): then a text that holds none of `forms`, and
 * that stage 1 leaves as it is, needs no token step at all.
 */
export function formsAreStable(forms: readonly string[]): boolean {
  if (forms.length === 0) return true;
  if (forms === lastForms) return lastStable;
  return !forms.some(canBeMade);
}

function deriveForms(token: string): readonly string[] {
  // ASCII untouched by step 1 (then its UTF-8 bytes are its characters), and whether all of it is unreserved.
  const plain = isPlain(token);
  let unreserved = plain;
  for (let i = 0; unreserved && i < token.length; i++) unreserved = UNRESERVED[token.charCodeAt(i)] === 1;
  const clean = plain ? token : cleanCharacters(token);
  if (clean === "") return NO_FORMS;
  let bytes: Uint8Array | undefined;
  let binary = clean; // printable ASCII: its UTF-8 bytes are its characters
  if (!plain) {
    bytes = new TextEncoder().encode(clean);
    binary = "";
    for (const b of bytes) binary += String.fromCharCode(b);
    unreserved = bytes.every((b) => b < 0x80 && UNRESERVED[b] === 1);
  }
  const forms: string[] = [clean];
  if (!unreserved) {
    bytes ??= Uint8Array.from(clean, (ch) => ch.charCodeAt(0));
    forms.push(percentEncode(bytes, HEX_UPPER), percentEncode(bytes, HEX_LOWER));
  }
  forms.push(...base64Forms(binary));
  const kept: string[] = [];
  for (const form of forms) {
    if (form !== "" && !kept.includes(form) && !isMarkerPart(form)) kept.push(form);
  }
  // Array.prototype.sort is stable: forms of equal length keep the order above.
  return Object.freeze(kept.length > 1 ? kept.sort((a, b) => b.length - a.length) : kept);
}
