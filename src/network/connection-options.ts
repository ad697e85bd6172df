/**
 * The connection defaults and what each request may ask for. Kept apart from connection.ts so that layers
 * which only need a default or a request type do not reach into the connection itself.
 */
import type { ApiDef, RequestInput, ResponseOf } from '../../protocol/schema.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 100 * 1024 * 1024;
export const DEFAULT_CLIENT_ID = 'tidemark';

export interface RequestOptions {
  /** Sends this version instead of the negotiated one; it must lie in both sides' ranges. */
  version?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** False for requests the broker never answers (Produce with acks=0): resolves once written. */
  expectResponse?: boolean;
}

/** Sends one request; what `exclusive()` hands its task (and what SASL runs over). */
export type RequestFn = <A extends ApiDef>(
  api: A,
  body: RequestInput<A>,
  options?: RequestOptions,
) => Promise<ResponseOf<A>>;
