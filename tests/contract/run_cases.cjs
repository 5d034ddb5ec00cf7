// What the case runners share: load the compiled SDK named by the first
// argument, read a JSON list of cases from stdin, and write one JSON line per
// case to stdout: the record `recordOf(sdk, case)` returns, or {"threw": ...}
// when it throws.
"use strict";

module.exports = function runCases(recordOf) {
  const sdk = require(process.argv[2]);
  const cases = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
  for (const c of cases) {
    let record;
    try {
      record = recordOf(sdk, c);
    } catch (e) {
      record = { threw: `${e && e.name}: ${e && e.message}` };
    }
    process.stdout.write(JSON.stringify(record) + "\n");
  }
};
