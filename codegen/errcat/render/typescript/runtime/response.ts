/**
 * Errors from fetch `Response`s: read at most the body cap, then parse.
 *
 * @module
 */

import type { AgentRunError } from "./base.js";
import { LIMITS } from "./generated/catalogue.js";
import { plainNumber } from "./length.js";
import { errorFromBody, errorFromCutBody } from "./parse.js";

/** Options of {@link errorFromResponse} and {@link raiseForStatus}. */
export interface ResponseOptions {
  /** The caller's credential: redacted wherever the server echoes it. Never stored. */
  readonly token?: string | undefined;
  /**
   * How long reading the error body may take in all, in milliseconds (the
   * catalogue's `error_body_read_timeout_ms` when not a number ≥ 0). Not
   * reset by arriving bytes; past it the error is built from what arrived.
   */
  readonly bodyReadTimeoutMs?: number | undefined;
}

/** The minimal shape of a fetch `Response` this module reads. */
export interface ResponseLike {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
}

const TIMED_OUT = Symbol("timed out");

/** The read deadline of a call: the option when it is a number ≥ 0, else the catalogue's. */
function deadlineOf(options: ResponseOptions | undefined): number {
  const ms = options?.bodyReadTimeoutMs;
  return typeof ms === "number" && ms >= 0 && ms <= 2_147_483_647 ? ms : LIMITS.errorBodyReadTimeoutMs;
}

/** What {@link readCapped} read, and whether its deadline stopped it. */
interface Read {
  readonly bytes: Uint8Array;
  readonly cut: boolean;
}

/**
 * Read at most the body cap, chunk by chunk, within `deadline` ms in all,
 * then cancel the rest of the stream. A body that fails midway keeps what
 * was read; one already used or locked reads as empty.
 */
async function readCapped(res: ResponseLike, deadline: number): Promise<Read> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let cut = false;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    if (res.body === null || res.body === undefined) return { bytes: new Uint8Array(0), cut };
    reader = res.body.getReader();
    const expired = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), deadline);
      (timer as { unref?: () => void }).unref?.();
    });
    for (;;) {
      const next = await Promise.race([reader.read(), expired]);
      if (next === TIMED_OUT) {
        cut = true;
        break;
      }
      if (next.done) {
        reader.releaseLock();
        reader = undefined;
        break;
      }
      const value: unknown = next.value;
      if (!(value instanceof Uint8Array)) continue;
      chunks.push(value);
      total += value.byteLength;
      if (total >= LIMITS.errorBodyMaxBytes) break;
    }
  } catch {
    // A network failure midway: build the error from what arrived.
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (reader !== undefined) reader.cancel().catch(() => undefined);
  }
  return { bytes: joinCapped(chunks, total), cut };
}

function joinCapped(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(Math.min(total, LIMITS.errorBodyMaxBytes));
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
 * Reads at most the catalogue's body cap (then cancels the body stream)
 * within the body read deadline (`bodyReadTimeoutMs`, else the catalogue's
 * `error_body_read_timeout_ms`; docs/sdk-contract.md section 2c), and
 * parses what arrived as {@link errorFromBody} does, with the response's
 * status and headers; a body cut by the deadline says so in the cause.
 *
 * @param res - A `Response` from `fetch`.
 * @param options - `token`: the caller's credential, redacted everywhere;
 *   `bodyReadTimeoutMs`: the read deadline of this call.
 * @returns The error (not thrown).
 */
export async function errorFromResponse(res: ResponseLike, options?: ResponseOptions): Promise<AgentRunError> {
  const deadline = deadlineOf(options);
  const { bytes, cut } = await readCapped(res, deadline);
  const opts = { status: res.status, headers: res.headers, token: options?.token };
  if (!cut) return errorFromBody(bytes, opts);
  return errorFromCutBody(bytes, opts, ` (the error body was cut short: it did not arrive within ${plainNumber(deadline)} ms)`);
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
