// fast-check strategies for hostile responses (docs/sdk-contract.md sections 1 and 2):
// every Unicode category, removed and spacing characters, JSON escapes, texts around the
// cap in code points and UTF-16 units, tokens in every form, secret-like strings, markers
// with invisible characters inside, odd numbers, duplicate keys, nesting, bytes that are
// not UTF-8, and Retry-After in every legal and illegal form.
import fc from "fast-check";

import { LIMITS, rules } from "./support.js";

/** The run budget: small by default, larger with FC_RUNS (e.g. FC_RUNS=20000 npm test). */
export const RUNS = Number(process.env["FC_RUNS"] ?? "") > 0 ? Number(process.env["FC_RUNS"]) : 150;
export const SEED = Number(process.env["FC_SEED"] ?? "") || undefined;
export const params = { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) };

const { REMOVE_CLASS, TO_SPACE_CLASS } = rules as unknown as { REMOVE_CLASS: string; TO_SPACE_CLASS: string };

/** The inclusive ranges of a generated class source such as "[\\u{0}-\\u{8}\\u{AD}]". */
function rangesOf(cls: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of cls.matchAll(/\\u\{([0-9A-F]+)\}(?:-\\u\{([0-9A-F]+)\})?/g)) {
    const first = parseInt(m[1]!, 16);
    out.push([first, m[2] === undefined ? first : parseInt(m[2], 16)]);
  }
  return out;
}

export const REMOVED = rangesOf(REMOVE_CLASS);
export const SPACING = rangesOf(TO_SPACE_CLASS);
export const removeRe = new RegExp(REMOVE_CLASS, "u");
export const toSpaceRe = new RegExp(TO_SPACE_CLASS, "u");

const fromRanges = (ranges: [number, number][]): fc.Arbitrary<string> =>
  fc.constantFrom(...ranges).chain(([a, b]) => fc.integer({ min: a, max: b }).map((c) => String.fromCodePoint(c)));

/** One character that stage 1 deletes (lone low surrogates among them). */
export const removedChar = fromRanges(REMOVED.filter(([a]) => a < 0xd800 || a > 0xdfff)).chain((c) =>
  fc.oneof(fc.constant(c), fc.constant("\udc00"), fc.constant("\udfff")), // lone low surrogates: two inserted side by side never pair
);
/** Any code point: every category, astral planes, lone surrogates, noncharacters. */
export const anyChar = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
  fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  removedChar,
  fromRanges(SPACING),
  fc.constantFrom("é", "\u0130", "\u212a", "😀", "\u{1F3FB}", "\ufffd", "\uffff", "…"),
);

/** Secrets the catalogue's rules must hide, as [text, the part that must not stay visible]. */
export const SECRETS: readonly [string, string][] = [
  ["Authorization: Bearer abc123secretvalue", "abc123secretvalue"],
  ["Authorization: Bearer Bearer abc123secretvalue", "abc123secretvalue"],
  ["bearer -----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEA7bq -----END RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEA7bq"],
  ["-----BEGIN PRIVATE KEY----- MIIEvQIBADANBgkqhkiG9w0", "MIIEvQIBADANBgkqhkiG9w0"],
  ["basic password=hunter2hunter2", "hunter2hunter2"],
  ["bearer postgres://admin:s3cretpw@db.example/x", "s3cretpw"],
  ["Authorization: Basic dXNlcjpwYXNz", "dXNlcjpwYXNz"],
  ["Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA"],
  ["mitos_live_AbCdEf0123456789", "mitos_live_AbCdEf0123456789"],
  ["sk-proj-ABCDEFGHIJKLMNOPqrstu", "sk-proj-ABCDEFGHIJKLMNOPqrstu"],
  ["ghp_0123456789abcdefghijABCDEFGHIJ", "ghp_0123456789abcdefghijABCDEFGHIJ"],
  ["glpat-0123456789abcdefghij", "glpat-0123456789abcdefghij"],
  ["AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"],
  ["xoxb-0123456789-abcdef", "xoxb-0123456789-abcdef"],
  ["AIzaSyA0123456789abcdefghijklmnopqrstuv", "AIzaSyA0123456789abcdefghijklmnopqrstuv"],
  ["sk_live_0123456789abcdef", "sk_live_0123456789abcdef"],
  ["api_key = 'Zx9Kq2Lm7Np4'", "Zx9Kq2Lm7Np4"],
  ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl", "eyJzdWIiOiIxMjM0In0"],
  ["https://user:p4ssw0rd@example.com/", "p4ssw0rd"],
];

/** Insert invisible (removed) characters at random places of `text`. */
export function withInvisible(text: string): fc.Arbitrary<string> {
  return fc.array(fc.tuple(fc.nat({ max: text.length }), removedChar), { maxLength: 3 }).map((cuts) => {
    let out = text;
    for (const [at, c] of cuts.sort((a, b) => b[0] - a[0])) {
      const i = Math.min(at, out.length);
      // Never split a surrogate pair of the text itself.
      const safe = i > 0 && i < out.length && /[\ud800-\udbff]/.test(out[i - 1]!) ? i - 1 : i;
      out = out.slice(0, safe) + c + out.slice(safe);
    }
    return out;
  });
}

export const secret = fc.constantFrom(...SECRETS).chain(([text, part]) => withInvisible(text).map((t) => [t, part] as const));

const MARKERS = ["<|im_start|>", "[INST]", "[/inst]", "<<SYS>>", "<system>", "</Assistant>", "ignore all previous instructions", "Disregard the above rules"];
export const marker = fc.constantFrom(...MARKERS).chain(withInvisible);

/** Caller tokens: plain, with reserved and non-ASCII bytes, with marker characters, tiny. */
export const token = fc.oneof(
  fc.constantFrom("tok_9f8e7d6c5b4a", "s3cr3t/T0ken+val=", "pässwörd-tök3n", "zzzzzzzz", "a", "D]]zz", "\u200btok\u200bx1"),
  fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 24 }),
  fc.string({ unit: "binary", minLength: 1, maxLength: 12 }),
);

/** The forms of a token the contract names, derived independently (as a server might echo them). */
export function echoes(tok: string): string[] {
  const bytes = Buffer.from(tok, "utf8");
  return [tok, encodeURIComponent(tok), bytes.toString("base64").replace(/=+$/, ""), bytes.toString("base64url")];
}

/**
 * Text pieces, joined with no separator: random characters, secrets (set
 * apart by spaces, and unless `glued` is false, also glued to their neighbours, which
 * can break a secret's shape: `xeyJhbGciOi.eyJzdWIiOi.sig` is no JSON web token),
 * markers, token echoes, runs near the cap.
 */
export function hostileText(tok: string | undefined, { glued = true } = {}): fc.Arbitrary<string> {
  const pieces: fc.Arbitrary<string>[] = [
    fc.string({ unit: anyChar, maxLength: 12 }),
    secret.map(([t]) => ` ${t} `),
    secret.map(([t]) => (glued ? t : ` ${t} `)),
    marker,
    fc.constantFrom("%", "%%%%", "%E2%80%8B", "\\u200b", "\\\"", "-----BEGIN", "bearer ", "password=", "://", "eyJ", "[REDACTED]", "[filtered]", "…[truncated]"),
  ];
  if (tok !== undefined) pieces.push(fc.constantFrom(...echoes(tok)).chain(withInvisible));
  const body = fc.array(fc.oneof(...pieces), { maxLength: 12 }).map((p) => p.join(""));
  const cap = LIMITS.textMaxChars;
  const long = fc
    .tuple(fc.integer({ min: cap - 14, max: cap + 3 }), fc.constantFrom("y", "😀", "é"), body)
    .map(([n, unit, tail]) => unit.repeat(n) + tail);
  return fc.oneof({ weight: 5, arbitrary: body }, { weight: 1, arbitrary: long });
}

const NUMBERS = ["1e400", "-0", "0.1e-400", "9007199254740993", "-9007199254740992", "1.0", "12345678901234567890", "1E2", "-1e-7"];

/** A JSON value text holding hostile strings, odd numbers and nesting. */
function jsonValue(tok: string | undefined): fc.Arbitrary<string> {
  const str = hostileText(tok).map((t) => JSON.stringify(t));
  const escaped = hostileText(tok).map((t) =>
    JSON.stringify(t).replace(/[^\x20-\x7e]/gu, (c) => [...c].map((u) => "\\u" + u.charCodeAt(0).toString(16).padStart(4, "0")).join("")),
  );
  const leaf = fc.oneof(str, escaped, fc.constantFrom(...NUMBERS, "true", "false", "null"));
  const nested = fc.tuple(fc.integer({ min: 1, max: 70 }), leaf).map(([d, l]) => "[".repeat(d) + l + "]".repeat(d));
  return fc.oneof({ weight: 4, arbitrary: leaf }, { weight: 1, arbitrary: nested });
}

const FIELDS = ["code", "message", "cause", "remediation", "request_id", "context"];

const REFINES_ENTRIES = ['"rate_limited"', '"idle_timeout"', '"no_such_code"', '"__proto__"', '"toString"', "7", "null", "{}", '["internal"]'];

/**
 * An envelope's `refines` member as JSON: a chain of codes, other values and
 * `other` (hostile values), up to past the 16 entries an SDK reads, or
 * something that is not an array.
 */
export function refinesChain(other: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const entry = fc.oneof(fc.constantFrom(...REFINES_ENTRIES), other, fc.constant(JSON.stringify("x".repeat(3000))));
  const chain = fc.array(entry, { maxLength: 20 }).map((e) => `[${e.join(",")}]`);
  const notChain = fc.constantFrom('"idle_timeout"', "{}", "7", "null", '{"0":"internal","length":1}');
  return fc.oneof({ weight: 4, arbitrary: chain }, { weight: 1, arbitrary: notChain });
}

/** An error body: an envelope with hostile members (repeated keys too), or junk, as text or bytes. */
export function hostileBody(tok: string | undefined): fc.Arbitrary<string | Uint8Array> {
  const member = fc.tuple(fc.constantFrom(...FIELDS), jsonValue(tok)).map(([k, v]) => `${JSON.stringify(k)}:${v}`);
  const contextMember = fc.tuple(hostileText(tok), jsonValue(tok)).map(([k, v]) => `${JSON.stringify(k)}:${v}`);
  const context = fc.array(contextMember, { maxLength: 5 }).map((m) => `"context":{${m.join(",")}}`);
  const code = fc.constantFrom('"code":"not_found"', '"code":"rate_limited"', '"code":"no_such_code"', '"code":7');
  const refines = refinesChain(jsonValue(tok)).map((chain) => `"refines":${chain}`);
  const envelope = fc.array(fc.oneof(member, context, code, refines), { maxLength: 8 }).map((m) => `{"error":{${m.join(",")}}}`);
  const junk = fc.oneof(hostileText(tok), fc.constantFrom("<html>502 Bad Gateway</html>", "", "{", '{"error":"x"}', "[1,2]"));
  const text = fc.oneof({ weight: 4, arbitrary: envelope }, { weight: 1, arbitrary: junk });
  const bytes = fc
    .tuple(text, fc.uint8Array({ maxLength: 8 }), fc.nat())
    .map(([t, noise, at]) => {
      const raw = Buffer.from(t, "utf8");
      const i = raw.length === 0 ? 0 : at % raw.length;
      return new Uint8Array(Buffer.concat([raw.subarray(0, i), Buffer.from(noise), raw.subarray(i)]));
    });
  return fc.oneof({ weight: 3, arbitrary: text }, { weight: 1, arbitrary: bytes });
}

const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const LONG_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number): string => String(n).padStart(2, "0");

/** The fields of a date-time, some of them out of range. */
export const dateFields = fc.record({
  year: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1960, max: 2100 })),
  month: fc.integer({ min: 0, max: 11 }),
  day: fc.oneof(fc.integer({ min: 1, max: 28 }), fc.integer({ min: 0, max: 32 })),
  hour: fc.integer({ min: 0, max: 24 }),
  minute: fc.integer({ min: 0, max: 60 }),
  second: fc.integer({ min: 0, max: 61 }),
  weekday: fc.integer({ min: 0, max: 6 }),
});
export type DateFields = typeof dateFields extends fc.Arbitrary<infer T> ? T : never;

export function imf(f: DateFields): string {
  return `${DAYS[f.weekday]}, ${two(f.day)} ${MONTHS[f.month]} ${String(f.year).padStart(4, "0")} ${two(f.hour)}:${two(f.minute)}:${two(f.second)} GMT`;
}
export function rfc850(f: DateFields): string {
  return `${LONG_DAYS[f.weekday]}, ${two(f.day)}-${MONTHS[f.month]}-${two(f.year % 100)} ${two(f.hour)}:${two(f.minute)}:${two(f.second)} GMT`;
}
export function asctime(f: DateFields): string {
  const day = f.day < 10 ? ` ${f.day}` : String(f.day);
  return `${DAYS[f.weekday]} ${MONTHS[f.month]} ${day} ${two(f.hour)}:${two(f.minute)}:${two(f.second)} ${String(f.year).padStart(4, "0")}`;
}

/** Retry-After values: seconds, the three date forms, and broken variants of each. */
export const retryAfter = fc.oneof(
  fc.integer({ min: 0, max: 10 ** 6 }).map(String),
  fc.constantFrom("", " 5", "5 ", "-1", "1.5", "1e3", "0x10", "9".repeat(16), "Tue, 29 Feb 0000 00:00:00 GMT", "Tue Feb 29 00:00:00 0000"),
  dateFields.map(imf),
  dateFields.map(rfc850),
  dateFields.map(asctime),
  fc.tuple(dateFields.map(imf), fc.nat(), fc.constantFrom("", " ", "x", "gmt", "\u200b")).map(([d, at, c]) => d.slice(0, at % (d.length + 1)) + c + d.slice(at % (d.length + 1))),
);

/** Tokens long and random enough that finding one on a surface means it leaked. */
export const realToken = fc.oneof(
  fc.constantFrom("tok_9f8e7d6c5b4a", "s3cr3t/T0ken+val=", "pässwörd-tök3n", "\u200btok\u200bx1d9q"),
  fc.string({ unit: fc.constantFrom(..."ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789_-"), minLength: 12, maxLength: 40 }),
);
