// codeForGrpc: the catalogue's gRPC gateway map. Every spelling of every
// status gives the map's code (a channel's own answer first); any other value
// gives the default and never throws. Budget: FC_RUNS, FC_SEED to replay.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";

import { codeForGrpc, isKnownCode } from "@mitos/errors";
import * as catalogue from "../src/generated/catalogue.js";
import { params } from "./arbitraries.js";

const { GRPC_GATEWAY } = catalogue;
const byStatus = new Map(GRPC_GATEWAY.byStatus);
const channels = new Map(GRPC_GATEWAY.channels.map(([name, o]) => [name, new Map(o)]));

test("every spelling of every status gives the map's code, on every channel", () => {
  GRPC_GATEWAY.statusNames.forEach((name, number) => {
    const want = byStatus.get(name) ?? GRPC_GATEWAY.default;
    const spellings = [number, String(number), name, GRPC_GATEWAY.protoNames[number] ?? name];
    for (const status of spellings) {
      assert.equal(codeForGrpc(status), want, `${status}`);
      for (const [channel, overrides] of channels) {
        assert.equal(codeForGrpc(status, { channel }), overrides.get(name) ?? want, `${status} on ${channel}`);
      }
    }
  });
});

test("on the mTLS channel both refusals are unauthorized", () => {
  assert.equal(codeForGrpc("PermissionDenied"), "forbidden");
  assert.equal(codeForGrpc("PermissionDenied", { channel: "mtls" }), "unauthorized");
  assert.equal(codeForGrpc("UNAUTHENTICATED", { channel: "mtls" }), "unauthorized");
  assert.equal(codeForGrpc(7, { channel: "mtls" }), "unauthorized");
});

test("an unknown channel is a RangeError", () => {
  assert.throws(() => codeForGrpc("NotFound", { channel: "mTLS" }), RangeError);
});

test("any other value gives the default, never an exception", () => {
  const names = new Set<unknown>();
  GRPC_GATEWAY.statusNames.forEach((name, n) => {
    for (const key of [n, String(n), name, GRPC_GATEWAY.protoNames[n]]) names.add(key);
  });
  const channel = fc.constantFrom(undefined, ...channels.keys());
  fc.assert(
    fc.property(fc.anything(), channel, (value, ch) => {
      const code = codeForGrpc(value as string, { channel: ch });
      assert.ok(isKnownCode(code));
      if (!names.has(value) && !(typeof value === "number" && names.has(value + 0))) {
        assert.equal(code, GRPC_GATEWAY.default);
      }
    }),
    params,
  );
});
