// Load the installed @mitos/errors with import; an error of either build is instanceof the other's classes,
// and the /clients entry's errors are the main entry's classes themselves.
import { createRequire } from "node:module";
import { errorFromBody, NotFoundError } from "@mitos/errors";
import { gotErrorHooks } from "@mitos/errors/clients";
const e = errorFromBody("<html>proxy</html>", { status: 404 });
const cjs = createRequire(import.meta.url)("@mitos/errors");
if (!(e instanceof NotFoundError) || !(e instanceof cjs.NotFoundError)) throw new Error(`import gave ${e}`);
const failed = Object.assign(new Error("HTTPError"), { response: { statusCode: 404, headers: {}, body: "" } });
const hooked = await gotErrorHooks().beforeError[0](failed);
if (Object.getPrototypeOf(hooked) !== NotFoundError.prototype) throw new Error(`@mitos/errors/clients gave ${hooked}`);
console.log("esm", e.name);
