/**
 * Errors from fetch `Response`s: read at most the body cap, then parse.
 *
 * @module
 */

import type { AgentRunError } from "./base.js";
import { LIMITS } from "./generated/catalogue.js";
import { errorFromBody } from "./parse.js";

/** Options of {@link errorFromResponse} and {@link raiseForStatus}. */
export interface ResponseOptions {
  /** The caller's credential: redacted wherever the server echoes it. Never stored. */
  readonly token?: string | undefined;
}

/** The minimal shape of a fetch `Response` this module reads. */
export interface ResponseLike {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
}

const BODY_CAP = LIMITS.errorBodyMaxBytes;

/**
 * Read at most the body cap, chunk by chunk, then cancel the rest of the
 * stream. A body that fails midway keeps what was read; one already used
 * or locked reads as empty.
 */
async function readCapped(res: ResponseLike): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    if (res.body === null || res.body === undefined) return new Uint8Array(0);
    reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        reader.releaseLock();
        reader = undefined;
        break;
      }
      if (!(value instanceof Uint8Array)) continue;
      chunks.push(value);
      total += value.byteLength;
      if (total >= BODY_CAP) break;
    }
  } catch {
    // A network failure midway: build the error from what arrived.
  } finally {
    if (reader !== undefined) reader.cancel().catch(() => undefined);
  }
  const out = new Uint8Array(Math.min(total, BODY_CAP));
  let at = 0;
  for (const chunk of chunks) {
    if (at >= out.length) break;
    const part = chunk.subarray(0, out.length - at);
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Turn a failed fetch `Response` into a typed error. Never rejects.
 *
 * Reads at most the catalogue's body cap (then cancels the body stream),
 * and parses it as {@link errorFromBody} does, with the response's status
 * and headers.
 *
 * @param res - A `Response` from `fetch`.
 * @param options - `token`: the caller's credential, redacted everywhere.
 * @returns The error (not thrown).
 */
export async function errorFromResponse(res: ResponseLike, options?: ResponseOptions): Promise<AgentRunError> {
  const body = await readCapped(res);
  return errorFromBody(body, { status: res.status, headers: res.headers, token: options?.token });
}

/**
 * Throw the typed error of a failed response; return a successful one.
 *
 * @param res - A `Response` from `fetch`.
 * @param options - `token`: the caller's credential, redacted everywhere.
 * @returns `res` when its status is 2xx (`res.ok`).
 * @throws {@link AgentRunError} (a subclass for a catalogue code) otherwise.
 */
export async function raiseForStatus<R extends ResponseLike>(res: R, options?: ResponseOptions): Promise<R> {
  if (res.ok) return res;
  throw await errorFromResponse(res, options);
}
