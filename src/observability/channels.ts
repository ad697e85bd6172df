/**
 * The client's node:diagnostics_channel TracingChannels: one for every request on the wire, one for producer
 * sends, one for consumer batches. Names follow the consumer's events (`tidemark:consumer:<event>`), so the
 * tracing channels are `tidemark:request`, `tidemark:producer:send` and `tidemark:consumer:batch` (Node names
 * their parts `tracing:<name>:start|end|asyncStart|asyncEnd|error`). Nothing is built when nobody subscribes:
 * every publisher checks `hasSubscribers` first. docs/observability.md lists the contexts' fields.
 */
import { type TracingChannel, tracingChannel } from 'node:diagnostics_channel';

/**
 * A record as `producer.send()` takes it (the producer's ProducerRecord, restated here because this module sits
 * below the producer: src/network publishes on these channels too).
 */
export interface TracedRecord {
  topic: string;
  key?: Buffer | Uint8Array | string | null;
  value?: Buffer | Uint8Array | string | null;
  headers?:
    | readonly { key: string; value: Buffer | Uint8Array | string | null }[]
    | Readonly<Record<string, Buffer | Uint8Array | string | null>>;
  partition?: number;
  timestamp?: number | Date;
}

/** One request to one broker, from the moment it is handed to the connection until it settles. */
export interface RequestContext {
  /**
   * The broker's node id, when the connection was opened for a broker metadata named; undefined on a connection
   * opened to a bootstrap address (the pool goes on using it for that broker, so `address` is the reliable key).
   */
  brokerId: number | undefined;
  /** `host:port`. */
  address: string;
  /** Sent in the request header; `null` when the client sends none. */
  clientId: string | null;
  /** The API's name as Kafka spells it, e.g. `Fetch`, `Produce`. */
  apiName: string;
  apiKey: number;
  /** Set once the request is written (-1 until then, and for a request refused before it was sent). */
  version: number;
  /** Set once the request is written (-1 until then). */
  correlationId: number;
  /** Bytes written, size prefix included (0 until written). */
  requestBytes: number;
  /** Bytes of the response frame, size prefix included (0 without a response). */
  responseBytes: number;
  /** `performance.now()` when the request was handed to the connection. */
  startedAt: number;
  /** Milliseconds from hand-over to settlement; set before the async end and error events. */
  durationMs: number;
  /** The decoded response, on success (TracingChannel's own field). */
  result?: unknown;
  /** Why it failed (TracingChannel's own field). */
  error?: unknown;
}

/** Fields a header carrier takes: what a tracer injects (`traceparent`, `tracestate`). */
export type HeaderCarrier = Record<string, string>;

/** One `producer.send()`, from the call until the broker acknowledged the record or it failed. */
export interface ProducerSendContext {
  /** The producer's client id. */
  clientId: string;
  /** The record as the application gave it (read only: headers a subscriber wants to add go to `headers`). */
  record: Readonly<TracedRecord>;
  topic: string;
  /**
   * Headers added to the record before it is encoded: a start subscriber writes here (the OpenTelemetry
   * integration puts `traceparent`), the record then carries them after its own.
   */
  headers: HeaderCarrier;
  /** Set on success: where the record was written (TracingChannel's own field). */
  result?: { topic: string; partition: number; offset: bigint; timestamp: number };
  error?: unknown;
}

/** One record header as a consumer batch carries it. */
export interface BatchRecordView {
  offset: bigint;
  key: Buffer | null;
  headers: readonly { key: string; value: Buffer | null }[];
}

/**
 * One batch handed to the application: `start` when the batch is delivered, `end` when the application is done
 * with it (asked for the next, or left the loop). The loop body runs in the application's own async context,
 * so no store is bound: a tracer links or parents its spans by the records' headers.
 */
export interface ConsumerBatchContext {
  clientId: string;
  groupId: string | undefined;
  topic: string;
  partition: number;
  /** Offsets of the first and last record delivered. */
  firstOffset: bigint;
  lastOffset: bigint;
  /** The batch's records, for header extraction (the same objects the application gets). */
  records: readonly BatchRecordView[];
  /** `performance.now()` when the application asked for this batch (the wait is the receive step). */
  requestedAt: number;
  /** `performance.now()` when the batch was delivered. */
  deliveredAt: number;
  /** Set at the end: whether the batch counts as processed (false: given up by break, throw or a seek). */
  processed?: boolean;
  /** `performance.now()` at the end. */
  doneAt?: number;
}

/** The three tracing channels, by the names they are published under. */
export const TRACING_CHANNELS: {
  readonly request: TracingChannel<unknown, RequestContext>;
  readonly producerSend: TracingChannel<unknown, ProducerSendContext>;
  readonly consumerBatch: TracingChannel<unknown, ConsumerBatchContext>;
} = {
  request: tracingChannel('tidemark:request'),
  producerSend: tracingChannel('tidemark:producer:send'),
  consumerBatch: tracingChannel('tidemark:consumer:batch'),
};

/**
 * Whether anyone subscribes to `channel`. TracingChannel's own `hasSubscribers` came in Node 20.13 and Bun 1.4
 * lacks it, so without it the five channels it is made of are asked, each of which has had `hasSubscribers`
 * since Node 15.1 and on Bun and Deno: an unobserved client builds nothing there either.
 */
export function traced(channel: TracingChannel<unknown, object>): boolean {
  const own = (channel as { hasSubscribers?: boolean }).hasSubscribers;
  if (own !== undefined) return own;
  const { start, end, asyncStart, asyncEnd, error } = channel;
  return (
    start.hasSubscribers ||
    end.hasSubscribers ||
    asyncStart.hasSubscribers ||
    asyncEnd.hasSubscribers ||
    error.hasSubscribers
  );
}
