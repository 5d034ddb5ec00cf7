/**
 * Errors from fetch `Response`s: read at most the body cap, then parse.
 *
 * @module
 */

import type { AgentRunError } from "./base.js";
import { LIMITS } from "./generated/catalogue.js";
import { plainNumber } from "./length.js";
import type { HeadersLike } from "./fields.js";
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

/** The minimal shape of a fetch `Response` this module reads (fetch, undici's `fetch`, ky's `error.response`). */
export interface ResponseLike {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
}

/**
 * A Node-style response whose body is a stream not read yet: undici's
 * `request()` result (`{ statusCode, headers, body }`), Node's
 * `IncomingMessage` (the body is the object itself), axios's response with
 * `responseType: "stream"` as `{ statusCode: res.status, headers: res.headers, body: res.data }`,
 * or got's stream with its `response` event's `statusCode` and `headers`.
 */
export interface NodeResponseLike {
  readonly statusCode: number;
  readonly headers: HeadersLike;
  /** The body: an async iterable of bytes (or strings); left out when the object itself is one. */
  readonly body?: unknown;
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

/** A body being read: the next chunk, and how to stop reading it (the rest is never read). */
interface Source {
  next(): Promise<{ readonly done?: boolean | undefined; readonly value?: unknown }>;
  stop(): void;
}

let encoder: TextEncoder | undefined;

/** A chunk as bytes: a string one (a Node stream with an encoding set) encoded; anything else is none. */
function chunkBytes(value: unknown): Uint8Array | undefined {
  if (typeof value === "string") return (encoder ??= new TextEncoder()).encode(value);
  return value instanceof Uint8Array ? value : undefined;
}

/**
 * Read at most the body cap, chunk by chunk, within `deadline` ms in all,
 * then stop the source (cancel the stream); the one read loop of every
 * client's body. A body that fails midway keeps what was read; one already
 * used or locked reads as empty.
 */
async function readCapped(open: () => Source | undefined, deadline: number): Promise<Read> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let cut = false;
  let source: Source | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    source = open();
    if (source === undefined) return { bytes: new Uint8Array(0), cut };
    const expired = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), deadline);
      (timer as { unref?: () => void }).unref?.();
    });
    for (;;) {
      const next = await Promise.race([source.next(), expired]);
      if (next === TIMED_OUT) {
        cut = true;
        break;
      }
      if (next.done === true) break;
      const chunk = chunkBytes(next.value);
      if (chunk === undefined) continue;
      chunks.push(chunk);
      total += chunk.byteLength;
      if (total >= LIMITS.errorBodyMaxBytes) break;
    }
  } catch {
    // A network failure midway: build the error from what arrived.
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    try {
      source?.stop();
    } catch {
      // A source that cannot be stopped is left to its client.
    }
  }
  return { bytes: joinCapped(chunks, total), cut };
}

/** The fetch body's reader as a {@link Source}: released when done, cancelled when cut short. */
function webSource(body: ReadableStream<Uint8Array> | null | undefined): Source | undefined {
  if (body === null || body === undefined) return undefined;
  const reader = body.getReader();
  let done = false;
  return {
    next: async () => {
      const next = await reader.read();
      done = next.done;
      return next;
    },
    stop: () => {
      if (done) reader.releaseLock();
      else reader.cancel().catch(() => undefined);
    },
  };
}

/** A Node stream or any async iterable as a {@link Source}: destroyed when stopped. */
function iterableSource(body: unknown): Source | undefined {
  const iterate = (body as { [Symbol.asyncIterator]?: unknown } | null | undefined)?.[Symbol.asyncIterator];
  if (typeof iterate !== "function") return undefined;
  const it = iterate.call(body) as AsyncIterator<unknown>;
  return {
    next: () => it.next(),
    stop: () => {
      const destroy = (body as { destroy?: unknown }).destroy;
      if (typeof destroy === "function") destroy.call(body);
      else it.return?.().catch(() => undefined);
    },
  };
}

/** The most compressed bytes handed to the inflater at once: what one step may inflate to stays small (about 1 MB). */
const INFLATE_STEP = 1024;

/**
 * Whether two bytes open a zlib stream (RFC 1950): compression method 8
 * (deflate), a window of at most 32 KiB, and a header check that makes them,
 * read as one big-endian number, a multiple of 31. A raw deflate stream
 * (RFC 1951) from any deflate encoder never opens so: its first block's
 * type bits would have to be a stored block's, whose padding bits are zero.
 */
function isZlibHeader(b0: number, b1: number): boolean {
  return (b0 & 0x0f) === 8 && b0 >> 4 <= 7 && (b0 * 256 + b1) % 31 === 0;
}

/**
 * `source` inflated as it arrives (`coding`: `gzip` or `deflate`), a small
 * step of compressed bytes at a time, so a small compressed chunk never
 * inflates past the body cap in memory: the read loop stops pulling at the
 * cap, and the inflater is fed only as it is read. A `deflate` body is read
 * zlib-wrapped or raw (as some servers send it), as its first two bytes
 * say ({@link isZlibHeader}; contract section 2c).
 */
function inflatingSource(source: Source, coding: "gzip" | "deflate"): Source {
  let inflated: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const start = async (): Promise<ReadableStreamDefaultReader<Uint8Array>> => {
    // The compressed bytes read before the format is known: the first two, for deflate.
    const head: Uint8Array[] = [];
    let ended = false;
    for (let got = 0; coding === "deflate" && got < 2; ) {
      const next = await source.next();
      if (next.done === true) {
        ended = true;
        break;
      }
      const chunk = chunkBytes(next.value);
      if (chunk === undefined || chunk.byteLength === 0) continue;
      head.push(chunk);
      got += chunk.byteLength;
    }
    const first = head.length === 0 ? new Uint8Array(0) : head.length === 1 ? (head[0] as Uint8Array) : joinCapped(head, 2);
    const raw = coding === "deflate" && first.byteLength >= 2 && !isZlibHeader(first[0] as number, first[1] as number);
    const inflater = new DecompressionStream(coding === "gzip" ? "gzip" : raw ? "deflate-raw" : "deflate");
    const writer = inflater.writable.getWriter();
    const feed = async (): Promise<void> => {
      for (let next = head.shift(); next !== undefined || !ended; next = head.shift()) {
        let chunk = next;
        if (chunk === undefined) {
          const read = await source.next();
          if (read.done === true) break;
          chunk = chunkBytes(read.value);
          if (chunk === undefined) continue;
        }
        for (let at = 0; at < chunk.byteLength; at += INFLATE_STEP) await writer.write(chunk.slice(at, at + INFLATE_STEP));
      }
      return writer.close();
    };
    feed().catch((e: unknown) => writer.abort(e).catch(() => undefined));
    return inflater.readable.getReader();
  };
  let started: Promise<ReadableStreamDefaultReader<Uint8Array>> | undefined;
  return {
    next: async () => {
      inflated ??= await (started ??= start());
      return inflated.read();
    },
    stop: () => {
      started?.then((reader) => reader.cancel()).catch(() => undefined);
      source.stop();
    },
  };
}

/**
 * The body source of a Node-style response, its `Content-Encoding` undone:
 * none, `identity`, `gzip` and `deflate` are read; a body in any other
 * coding (`br`, `zstd`, several at once) is not, and the status decides.
 */
function nodeSource(res: NodeResponseLike): Source | undefined {
  const source = iterableSource(res.body ?? res);
  const headers = res.headers as { get?: unknown } & Record<string, unknown>;
  const found = typeof headers.get === "function" ? (headers.get as (name: string) => unknown)("content-encoding") : headers["content-encoding"];
  const coding = typeof found === "string" ? found.trim().toLowerCase() : "";
  if (source === undefined || coding === "" || coding === "identity") return source;
  if (coding === "gzip" || coding === "x-gzip" || coding === "deflate") return inflatingSource(source, coding === "deflate" ? "deflate" : "gzip");
  source.stop();
  return undefined;
}

/** Whether `res` is a Node-style response ({@link NodeResponseLike}) rather than a fetch one. */
function isNodeResponse(res: ResponseLike | NodeResponseLike): res is NodeResponseLike {
  return typeof (res as { statusCode?: unknown }).statusCode === "number" && typeof (res as { status?: unknown }).status !== "number";
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
 * Turn a failed response into a typed error. Never rejects.
 *
 * Reads at most the catalogue's body cap (then cancels the body stream, or
 * destroys a Node one) within the body read deadline (`bodyReadTimeoutMs`,
 * else the catalogue's `error_body_read_timeout_ms`; docs/sdk-contract.md
 * section 2c), and parses what arrived as {@link errorFromBody} does, with
 * the response's status and headers; a body cut by the deadline says so in
 * the cause.
 *
 * @param res - A fetch `Response` (fetch, undici's `fetch`, ky's
 *   `error.response`), or a Node-style one ({@link NodeResponseLike}:
 *   undici's `request()` result, an `IncomingMessage`, axios's stream).
 * @param options - `token`: the caller's credential, redacted everywhere;
 *   `bodyReadTimeoutMs`: the read deadline of this call.
 * @returns The error (not thrown).
 */
export async function errorFromResponse(res: ResponseLike | NodeResponseLike, options?: ResponseOptions): Promise<AgentRunError> {
  const deadline = deadlineOf(options);
  const node = isNodeResponse(res);
  const open = node ? () => nodeSource(res) : () => webSource(res.body);
  const { bytes, cut } = await readCapped(open, deadline);
  const opts = { status: node ? res.statusCode : res.status, headers: res.headers, token: options?.token };
  if (!cut) return errorFromBody(bytes, opts);
  return errorFromCutBody(bytes, opts, ` (the error body was cut short: it did not arrive within ${plainNumber(deadline)} ms)`);
}

/**
 * Throw the typed error of a failed response; return a successful one.
 *
 * @param res - A fetch `Response`, or a Node-style one ({@link NodeResponseLike}).
 * @param options - `token`: the caller's credential, redacted everywhere.
 * @returns `res` when its status is 2xx (`res.ok`, or a 2xx `statusCode`).
 * @throws {@link AgentRunError} (a subclass for a catalogue code) otherwise.
 */
export async function raiseForStatus<R extends ResponseLike | NodeResponseLike>(res: R, options?: ResponseOptions): Promise<R> {
  const ok = isNodeResponse(res) ? res.statusCode >= 200 && res.statusCode <= 299 : res.ok;
  if (ok) return res;
  throw await errorFromResponse(res, options);
}
