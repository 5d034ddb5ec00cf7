// The public constructors describe their own class (docs/sdk-contract.md
// section 3): a generated class its own spec (and a finer code), the base
// class the catch-all, whatever code and status it is given; only
// errorForCode looks a code up. Generated arguments: codes known, unknown,
// hostile and catalogue codes hidden by invisible characters; statuses;
// texts left out, empty, hostile or another code's catalogue text.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";

import { AgentRunError, errorForCode, lookup, sanitizeText } from "@mitos/errors";
import { hostileText, params, withInvisible } from "./arbitraries.js";
import { FALLBACK, SPECS } from "./support.js";

const CODES = SPECS.map((s) => s.code);
const catalogueCode = fc.constantFrom(...CODES);
const code = fc.oneof(
  catalogueCode,
  catalogueCode.chain(withInvisible),
  fc.constantFrom("made_up", "rate_limited_burst", "", "\u200b", "__proto__", "toString"),
  hostileText(undefined),
);
const status = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(...FALLBACK.byStatus.map(([s]) => s)),
  fc.integer({ min: 100, max: 599 }),
);
const text = fc.oneof(
  fc.constant(undefined),
  fc.constant(""),
  fc.constantFrom(...SPECS.map((s) => s.cause)),
  hostileText(undefined),
);
const args = fc.record({ code, status, message: text, errorCause: text, remediation: text });
type Args = typeof args extends fc.Arbitrary<infer T> ? T : never;

/** What an error shows: its class, fields and classification. */
function shown(err: AgentRunError): Record<string, unknown> {
  const { retryable, recovery, sideEffects, isAuthFailure, isCancelled, origin } = err;
  return { class: err.constructor, code: err.code, message: err.message, errorCause: err.errorCause, remediation: err.remediation, status: err.status, retryable, recovery, sideEffects, isAuthFailure, isCancelled, origin };
}

/** The rule: the code as given (sanitized), the status as given, each text given or else the class's, the class's classification. */
function expected(cls: typeof AgentRunError, a: Args, code: string): Record<string, unknown> {
  const s = cls.spec;
  const or = (given: string | undefined, fallback: string): string => (given === undefined ? "" : sanitizeText(given)) || fallback;
  return {
    class: cls,
    code,
    message: or(a.message, s.message),
    errorCause: or(a.errorCause, s.cause),
    remediation: or(a.remediation, s.remediation),
    status: a.status,
    retryable: s.retryable,
    recovery: s.recovery,
    sideEffects: s.sideEffects,
    isAuthFailure: s.isAuthFailure,
    isCancelled: s.isCancelled,
    origin: s.origin,
  };
}

test("the base class's constructor has the catch-all's texts and classification, whatever code and status", () => {
  fc.assert(
    fc.property(args, (a) => {
      const err = new AgentRunError(a.message, a);
      assert.deepEqual(shown(err), expected(AgentRunError, a, sanitizeText(a.code)));
      assert.equal(AgentRunError.spec.message, "", "the catch-all has no texts");
    }),
    params,
  );
});

test("a generated class's constructor has its own spec, for its code or a finer one, and refuses any other", () => {
  fc.assert(
    fc.property(catalogueCode, fc.option(code, { nil: undefined }), args, (own, given, a) => {
      const cls = lookup(own);
      const make = (): AgentRunError => new cls(a.message, { ...a, code: given });
      const other = given !== undefined && given !== own;
      const clean = other ? sanitizeText(given) : own;
      // Another code is refused when it is empty or a catalogue code (its own too) once sanitized.
      if (other && (clean === "" || CODES.includes(clean))) {
        assert.throws(make, TypeError);
        return;
      }
      assert.deepEqual(shown(make()), expected(cls, a, clean));
    }),
    params,
  );
});

test("errorForCode is the way to a code's class, texts and the status fallback", () => {
  fc.assert(
    fc.property(catalogueCode, status, (c, s) => {
      const base = new AgentRunError("", { code: c, status: s });
      const byCode = errorForCode(c, "", { status: s });
      assert.equal(byCode.constructor, lookup(c));
      assert.deepEqual([byCode.errorCause, byCode.retryable], [lookup(c).spec.cause, lookup(c).spec.retryable]);
      assert.deepEqual([base.constructor, base.errorCause, base.retryable], [AgentRunError, "", AgentRunError.spec.retryable]);
    }),
    params,
  );
});
