// Load the installed @mitos/errors with require and build an error from a body.
const m = require("@mitos/errors");
const e = m.errorFromBody('{"error":{"code":"rate_limited","message":"slow down"}}', { status: 429 });
if (!(e instanceof m.RateLimitedError) || e.code !== "rate_limited") throw new Error(`require gave ${e}`);
console.log("cjs", e.name);
