// Load the installed @mitos/errors with require and build an error from a body;
// its /server entry writes the envelope of that error (the main entry's class).
const m = require("@mitos/errors");
const { envelopeBytes } = require("@mitos/errors/server");
const e = m.errorFromBody('{"error":{"code":"rate_limited","message":"slow down"}}', { status: 429 });
if (!(e instanceof m.RateLimitedError) || e.code !== "rate_limited") throw new Error(`require gave ${e}`);
if (envelopeBytes(e).status !== 429) throw new Error("require of @mitos/errors/server");
console.log("cjs", e.name);
