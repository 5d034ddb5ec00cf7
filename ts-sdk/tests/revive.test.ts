// errorFromJSON: from toJSON() back to the same typed error, and total on any value.
// The round trip is checked on errors of every class (by code, by constructor with a finer
// code, unknown codes, hostile bodies), from toJSON() and through JSON text and
// structuredClone; hostile values (every JSON type, getters, Proxies, inherited members)
// always give an error. The round trip across languages is
// tests/conformance/test_from_dict.py. Budget: FC_RUNS, FC_SEED.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";

import { AgentRunError, errorForCode, errorFromBody, errorFromJSON, lookup, sanitizeText, RateLimitedError, NotFoundError } from "@mitos/errors";
import { cjs, LIMITS, SPECS, codePoints } from "./support.js";
import { hostileBody, hostileText, params, token } from "./arbitraries.js";

const CODES = SPECS.map((s) => s.code);
const scalar = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double(), fc.string({ maxLength: 20 }));
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, scalar, fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 8 }), tie("value"), { maxKeys: 4 })),
})).value;
const KEYS = Object.keys(new AgentRunError("", { code: "x" }).toJSON());

function same(err: AgentRunError, again: AgentRunError): void {
  assert.equal(Object.getPrototypeOf(again), Object.getPrototypeOf(err));
  assert.deepEqual(again.toJSON(), err.toJSON());
  assert.equal(String(again), String(err));
}

const anyError: fc.Arbitrary<AgentRunError> = fc.oneof(token, fc.constant(undefined)).chain((tok) =>
  fc.oneof(
    hostileBody(tok).chain((body) => fc.constantFrom(400, 404, 429, 500, 503).map((status) => errorFromBody(body, { status, token: tok }))),
    fc.tuple(hostileText(tok), hostileText(tok), fc.option(fc.constantFrom(404, 429, 500))).map(([code, message, status]) =>
      errorForCode(code, message, { status: status ?? undefined, token: tok }),
    ),
    fc
      .record({
        code: fc.constantFrom(...CODES),
        finer: fc.option(fc.stringMatching(/^[a-z_]{1,12}$/)),
        message: hostileText(tok),
        cause: hostileText(tok),
        context: fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 4 }),
        status: fc.option(fc.constantFrom(400, 429, 500, 599)),
        requestId: fc.option(fc.string({ maxLength: 10 })),
        delay: fc.option(fc.integer({ min: 0, max: 2 ** 40 })),
      })
      .map((r) => {
        const cls = lookup(r.code);
        return new cls(r.message, {
          code: r.finer === null ? undefined : `${r.code}.${r.finer}`,
          errorCause: r.cause,
          context: r.context,
          status: r.status ?? undefined,
          requestId: r.requestId ?? undefined,
          retryAfterMs: r.delay ?? undefined,
        });
      }),
  ),
);

test("every class comes back from its toJSON(), its JSON text and a structured clone of it", () => {
  fc.assert(
    fc.property(anyError, (err) => {
      same(err, errorFromJSON(err.toJSON()));
      same(err, errorFromJSON(JSON.parse(JSON.stringify(err))));
      same(err, errorFromJSON(structuredClone(err.toJSON())));
    }),
    params,
  );
});

function check(err: AgentRunError): void {
  assert.ok(err instanceof AgentRunError);
  for (const text of [err.code, err.message, err.errorCause, err.remediation, err.requestId ?? ""]) {
    assert.ok(codePoints(text) <= LIMITS.textMaxChars);
    assert.equal(sanitizeText(text), text);
  }
  JSON.stringify(err);
}

test("any value at all gives an error, never an exception", () => {
  fc.assert(fc.property(jsonValue, (value) => check(errorFromJSON(value))), params);
});

test("hostile objects give an error, never an exception", () => {
  const names = SPECS.map((s) => s.className);
  fc.assert(
    fc.property(
      fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 6 })), jsonValue, { maxKeys: 12 }),
      fc.oneof(fc.constantFrom(...CODES), fc.string({ maxLength: 12 }), jsonValue),
      fc.oneof(fc.constantFrom(...names), jsonValue),
      (members, code, type) => check(errorFromJSON({ ...members, code, type })),
    ),
    params,
  );
});

test("getters, inherited members and Proxies that throw are not read, and never throw", () => {
  const getter = Object.defineProperty({ code: "not_found" }, "message", {
    get: () => {
      throw new Error("boom");
    },
    enumerable: true,
  });
  const fromGetter = errorFromJSON(getter);
  assert.ok(fromGetter instanceof NotFoundError);
  assert.equal(fromGetter.message, NotFoundError.spec.message);
  const inherited = errorFromJSON(Object.create({ code: "rate_limited", status: 429 }));
  assert.equal(inherited.constructor, AgentRunError);
  assert.equal(inherited.status, undefined);
  const proxy = new Proxy(
    {},
    {
      getOwnPropertyDescriptor() {
        throw new Error("trap");
      },
    },
  );
  const fromProxy = errorFromJSON(proxy);
  assert.equal(fromProxy.constructor, AgentRunError);
  assert.equal(fromProxy.code, "");
});

test("the class is the code's; a finer code keeps the class type names; a wrong member is ignored", () => {
  const cases: [unknown, typeof AgentRunError, string][] = [
    [{ type: "RateLimitedError", code: "not_found" }, NotFoundError, "not_found"],
    [{ type: "RateLimitedError", code: "" }, AgentRunError, ""],
    [{ type: "RateLimitedError", code: "rate_limited.per_key" }, RateLimitedError, "rate_limited.per_key"],
    [{ type: "NoSuchError", code: "x.y" }, AgentRunError, "x.y"],
    [{ code: 7, status: true, retry_after_ms: -1, context: [1] }, AgentRunError, ""],
    [[["code", "rate_limited"]], AgentRunError, ""],
    ["rate_limited", AgentRunError, ""],
    [null, AgentRunError, ""],
  ];
  for (const [data, cls, code] of cases) {
    const err = errorFromJSON(data);
    assert.equal(err.constructor, cls, JSON.stringify(data));
    assert.equal(err.code, code);
    assert.equal(err.status, undefined);
    assert.equal(err.retryAfterMs, undefined);
    assert.deepEqual({ ...err.context }, {});
  }
});

test("the classification comes from the class, never from the object; both builds agree", () => {
  const json = { ...errorForCode("not_found", "gone", { status: 404 }).toJSON(), retryable: true, origin: "transport" };
  const again = errorFromJSON(json);
  assert.equal(again.retryable, false);
  assert.deepEqual(again.toJSON(), errorForCode("not_found", "gone", { status: 404 }).toJSON());
  const fromCjs = cjs.errorFromJSON(json);
  assert.ok(fromCjs instanceof NotFoundError);
  assert.equal(JSON.stringify(fromCjs), JSON.stringify(again));
});
