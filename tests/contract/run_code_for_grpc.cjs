#!/usr/bin/env node
// Map gRPC statuses to codes with codeForGrpc of the compiled TypeScript SDK.
//
//   node run_code_for_grpc.cjs /abs/ts-sdk/dist/cjs/index.js < cases.json
//
// cases.json is a list of {"status": any JSON value, "channel": string or null}.
// One JSON line per case goes to stdout: {"code": ...} or {"threw": ...}
// (tests/contract/test_code_for_grpc.py).
"use strict";

require("./run_cases.cjs")((sdk, c) => {
  const options = c.channel === null ? undefined : { channel: c.channel };
  return { code: sdk.codeForGrpc(c.status, options) };
});
