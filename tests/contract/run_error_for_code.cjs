#!/usr/bin/env node
// Build errors with errorForCode, or a class's constructor, of the compiled
// TypeScript SDK, one per case.
//
//   node run_error_for_code.cjs /abs/ts-sdk/dist/cjs/index.js < cases.json
//
// cases.json is a list of {"code", "message", "cause", "remediation", "status"}
// (code, for a constructor, and cause, remediation and status may be null: not
// given), with "via": "constructor" and "class" (the code of a generated class,
// null for the base class) for a constructor call. One JSON line per case goes
// to stdout, under the Python field names (tests/contract/test_error_for_code.py).
"use strict";

require("./run_cases.cjs")((sdk, c) => {
  const options = {};
  if (c.cause !== null) options.errorCause = c.cause;
  if (c.remediation !== null) options.remediation = c.remediation;
  if (c.status !== null) options.status = c.status;
  let err;
  if (c.via === "constructor") {
    const cls = c.class === null ? sdk.AgentRunError : sdk.lookup(c.class);
    err = new cls(c.message, { ...options, code: c.code === null ? undefined : c.code });
  } else {
    err = sdk.errorForCode(c.code, c.message, options);
  }
  return {
    class: err.name,
    code: err.code,
    message: err.message,
    cause: err.errorCause,
    remediation: err.remediation,
    status: err.status === undefined ? null : err.status,
    retryable: err.retryable,
    is_auth_failure: err.isAuthFailure,
    is_cancelled: err.isCancelled,
    recovery: { ...err.recovery },
    side_effects: err.sideEffects,
    origin: err.origin,
  };
});
