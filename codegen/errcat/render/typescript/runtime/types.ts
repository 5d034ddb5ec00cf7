/**
 * Types shared by the generated tables and the runtime. The envelope's own
 * types (ErrorEnvelope, Code, Recovery, ...) are generated from the JSON
 * Schema into generated/envelope.ts; the catalogue's records (CodeTexts,
 * CodeSpec, Limits, SideEffects) from errcat's definition of them into
 * generated/record.ts.
 *
 * @module
 */

export type { CodeSpec, CodeTexts, Limits, SideEffects } from "./generated/record.js";

/** A value a context may hold once parsed: text, a finite number, a boolean or null. */
export type ContextValue = string | number | boolean | null;

/** The read-only structured context of an error. */
export type ErrorContext = Readonly<Record<string, ContextValue>>;

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

/** One sanitizer rule (docs/sdk-contract.md section 2, stage 2); its name is a comment in the generated rules. */
export interface TextRule {
  /** The kept prefix, read with flag `u` ("": the rule has none). */
  readonly prefix: string;
  /** What is covered (after a prefix match, when there is a prefix), read with flag `u`. */
  readonly pattern: string;
}
