#!/usr/bin/env node
// Map gRPC statuses to codes with codeForGrpc of the compiled TypeScript SDK.
//
//   node run_code_for_grpc.cjs /abs/ts-sdk/dist/cjs/index.js < cases.json
//
// cases.json is a list of {"status": any JSON value, "channel": string or null}.
// One JSON line per case goes to stdout: {"code": ...} or {"threw": ...}
// (tests/contract/test_code_for_grpc.py).
"use strict";

const sdk = require(process.argv[2]);
const cases = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
for (const c of cases) {
  let record;
  try {
    const options = c.channel === null ? undefined : { channel: c.channel };
    record = { code: sdk.codeForGrpc(c.status, options) };
  } catch (e) {
    record = { threw: `${e && e.name}: ${e && e.message}` };
  }
  process.stdout.write(JSON.stringify(record) + "\n");
}
