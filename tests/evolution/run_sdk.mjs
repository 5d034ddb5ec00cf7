// Run envelopes through a compiled TypeScript SDK (the ESM entry given as
// argv[2]): read [{body, status}, ...] as JSON on stdin, print one result per
// case as JSON on stdout, with Python's field names.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const sdk = await import(pathToFileURL(process.argv[2]).href);
const cases = JSON.parse(readFileSync(0, "utf8"));

/** The names of the classes of `err`, from its own up to the base class. */
function lineage(err) {
  const names = [];
  for (let p = Object.getPrototypeOf(err); p !== null && p !== Error.prototype; p = Object.getPrototypeOf(p)) {
    names.push(p.constructor.spec.className);
  }
  return names;
}

const results = cases.map(({ body, status }) => {
  const err = sdk.errorFromBody(body, { status });
  return {
    class: err.name,
    lineage: lineage(err),
    code: err.code,
    message: err.message,
    cause: err.errorCause,
    remediation: err.remediation,
    context: { ...err.context },
    status: err.status ?? null,
    retryable: err.retryable,
    recovery: { ...err.recovery },
    side_effects: err.sideEffects,
    http_status: err.constructor.httpStatus ?? null,
  };
});
process.stdout.write(JSON.stringify(results));
