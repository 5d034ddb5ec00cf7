// A number in a text (docs/sdk-contract.md section 2c): plain decimal, the shortest digits, as in Python.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";

import { plainNumber } from "../src/length.js";

const PLAIN = /^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/;

// The same table is in python-sdk/tests/test_sdk_numbers.py: both SDKs write each number alike.
const TABLE: [number, string][] = [
  [1e-5, "0.00001"],
  [0.1, "0.1"],
  [2500, "2500"],
  [2500.5, "2500.5"],
  [1e21, "1000000000000000000000"],
  [1e-7, "0.0000001"],
  [-1.5e-7, "-0.00000015"],
  [123456.789, "123456.789"],
  [-0, "0"],
  [0, "0"],
];

test("the contract's examples", () => {
  for (const [value, text] of TABLE) assert.equal(plainNumber(value), text, String(value));
});

test("plain decimal that reads back as the same number, with the shortest digits", () => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
      const text = plainNumber(value);
      assert.match(text, PLAIN);
      assert.equal(Number(text), value === 0 ? 0 : value);
      if (!Number.isInteger(value)) {
        const shorter = text.slice(0, -1).replace(/\.$/, "");
        assert.notEqual(Number(shorter), value, `${text} is not the shortest`);
      }
    }),
    { numRuns: 2000 },
  );
});
