/**
 * Types shared by the generated tables and the runtime. The envelope's own
 * types (ErrorEnvelope, Code, Recovery, ...) are generated from the JSON
 * Schema into generated/envelope.ts.
 *
 * @module
 */

import type { Origin, Recovery } from "./generated/envelope.js";

/** Whether the failed call may have changed something. */
export type SideEffects = "none_expected" | "possible" | "unknown";

/** A value a context may hold once parsed: text, a finite number, a boolean or null. */
export type ContextValue = string | number | boolean | null;

/** The read-only structured context of an error. */
export type ErrorContext = Readonly<Record<string, ContextValue>>;

/** The texts the catalogue gives one code: the defaults of its errors' fields. */
export interface CodeTexts {
  /** The stable machine code, such as `rate_limited`. */
  readonly code: string;
  /** The one-line summary (the envelope `message`). */
  readonly message: string;
  /** The one-sentence cause. */
  readonly cause: string;
  /** The next action that fixes or works around the error. */
  readonly remediation: string;
}

/** Everything the catalogue says about one code. */
export interface CodeSpec extends CodeTexts {
  /** The name of the code's class, such as `RateLimitedError`. */
  readonly className: string;
  /** The HTTP status a server sends it with; none for the catch-all. */
  readonly httpStatus: number | undefined;
  /** The gRPC status it maps to; none for the catch-all. */
  readonly grpcStatus: string | undefined;
  /** The context fields the code carries. */
  readonly contextFields: readonly string[];
  /** Whether sending the same request again later may succeed. */
  readonly retryable: boolean;
  /** Whether the credential is missing, invalid or not permitted. */
  readonly isAuthFailure: boolean;
  /** Whether the caller cancelled the request. */
  readonly isCancelled: boolean;
  /** What to do next. */
  readonly recovery: Readonly<Recovery>;
  /** Whether the failed call may have changed something. */
  readonly sideEffects: SideEffects;
  /** Where the failure arose; `runtime` for the catch-all. */
  readonly origin: Origin;
  /** `server` for a code servers send, `sdk` for one the SDK synthesizes; none for the catch-all. */
  readonly emittedBy: "server" | "sdk" | undefined;
}

/** How a response without an envelope gets a code from its HTTP status. */
export interface FallbackMap {
  /** Exact statuses, ascending. */
  readonly byStatus: readonly (readonly [number, string])[];
  /** The code of any other status from 400 to 499. */
  readonly clientError: string;
  /** The code of any other status from 500 to 599. */
  readonly serverError: string;
  /** The code of every other status. */
  readonly default: string;
}

/** The code a gateway answers for a gRPC status (the catalogue's `grpc_gateway`). */
export interface GrpcGatewayMap {
  /** Every gRPC status name, at the index of its number. */
  readonly statusNames: readonly string[];
  /** The same statuses as the gRPC protocol spells them (`CANCELLED`). */
  readonly protoNames: readonly string[];
  /** Status name and code, for each status the map lists. */
  readonly byStatus: readonly (readonly [string, string])[];
  /** The code of every other status, and of a value that is no gRPC status. */
  readonly default: string;
  /** Each channel and the statuses it answers with another code. */
  readonly channels: readonly (readonly [string, readonly (readonly [string, string])[]])[];
}

/** The numeric limits of the SDK runtime contract. */
export interface Limits {
  /** The ceiling of an exec or run_code timeout, in seconds. */
  readonly maxExecTimeoutS: number;
  /** The exec timeout when none is given, in seconds. */
  readonly defaultExecTimeoutS: number;
  /** The run_code timeout when none is given, in seconds. */
  readonly defaultRunCodeTimeoutS: number;
  /** At most this many bytes of a response body are read to build an error. */
  readonly errorBodyMaxBytes: number;
  /** Every text field is at most this many code points. */
  readonly textMaxChars: number;
  /** A body nested deeper than this (arrays and objects) is not JSON. */
  readonly jsonMaxDepth: number;
  /** Reading an error body stops after this many milliseconds in all (docs/sdk-contract.md 2c). */
  readonly errorBodyReadTimeoutMs: number;
  /** At most this many context members are kept. */
  readonly contextMaxKeys: number;
}

/** One sanitizer rule (docs/sdk-contract.md section 2, stage 2); its name is a comment in the generated rules. */
export interface TextRule {
  /** The kept prefix, read with flag `u` ("": the rule has none). */
  readonly prefix: string;
  /** What is covered (after a prefix match, when there is a prefix), read with flag `u`. */
  readonly pattern: string;
}

/** A rule's triggers: lower-case literals, one of which every cover (prefix and pattern) contains. */
export type Triggers = readonly string[];
