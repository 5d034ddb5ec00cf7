// Sends each request of a plan (JSON on stdin) through withTypedErrors(fetch)
// of the built @mitos/errors and prints one JSON line per request: what was
// thrown (class, code, status, classification) or that it succeeded.
"use strict";

const sdk = require(process.argv[2]);

async function one(req) {
  const fetchTyped = sdk.withTypedErrors(fetch, { token: req.token });
  const init = { method: req.method, headers: { authorization: `Bearer ${req.token}` } };
  if (req.bodyBytes > 0) init.body = new Uint8Array(req.bodyBytes).fill(0x61);
  const controller = new AbortController();
  if (req.abortAfterMs !== null) setTimeout(() => controller.abort(), req.abortAfterMs);
  const signals = [controller.signal];
  if (req.timeoutMs !== null) signals.push(AbortSignal.timeout(req.timeoutMs));
  init.signal = AbortSignal.any(signals);
  try {
    const res = await fetchTyped(req.url, init);
    await res.text();
    return { name: req.name, ok: true, status: res.status };
  } catch (err) {
    const typed = err instanceof sdk.AgentRunError;
    return {
      name: req.name,
      ok: false,
      typed,
      className: typed ? err.name : String(err && err.name),
      code: typed ? err.code : null,
      status: typed ? (err.status ?? null) : null,
      isCancelled: typed ? err.isCancelled : null,
      sideEffects: typed ? err.sideEffects : null,
      errorCause: typed ? err.errorCause : String(err),
      chained: typed ? err.cause !== undefined : false,
      json: typed ? JSON.stringify(err) : null,
    };
  }
}

async function main() {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  const plan = JSON.parse(text);
  const results = await Promise.all(plan.map(one));
  for (const r of results) process.stdout.write(JSON.stringify(r) + "\n");
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack) + "\n");
  process.exit(1);
});
