// Load the installed @mitos/errors with import; an error of either build is instanceof the other's classes.
import { createRequire } from "node:module";
import { errorFromBody, NotFoundError } from "@mitos/errors";
const e = errorFromBody("<html>proxy</html>", { status: 404 });
const cjs = createRequire(import.meta.url)("@mitos/errors");
if (!(e instanceof NotFoundError) || !(e instanceof cjs.NotFoundError)) throw new Error(`import gave ${e}`);
console.log("esm", e.name);
