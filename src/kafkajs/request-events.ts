/**
 * kafkajs's per-request events (`REQUEST`, `REQUEST_TIMEOUT`) and the consumer's `HEARTBEAT`, derived from the
 * core's `tidemark:request` TracingChannel (node:diagnostics_channel; the connection publishes every request
 * with its API, version, correlation id, broker, sizes and duration while anyone subscribes).
 *
 * The channel is process-wide, so each request is traced back to the facade object that caused it: every
 * public call of a producer or consumer runs inside `withOrigin` (an AsyncLocalStorage), which the core's
 * loops and timers started there inherit; the channel's `start` event fires synchronously in the requester's
 * async context, where the origin is read and kept for the request's end. Requests of no facade object (or of
 * one with nobody listening) cost a WeakMap lookup.
 *
 * kafkajs queues requests per broker and reports the queue's size (`REQUEST_QUEUE_SIZE`); the core writes
 * each request at once (pipelined), so what is reported is the object's requests in flight to each broker,
 * counted from the channel's start and end events, at each change.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import { type RequestContext, RequestTimeoutError } from '../index.js';

/** The fields of the core's request context (`tidemark:request`) the events read. */
export type TracedRequest = Pick<
  RequestContext,
  | 'address'
  | 'clientId'
  | 'apiName'
  | 'apiKey'
  | 'version'
  | 'correlationId'
  | 'responseBytes'
  | 'startedAt'
  | 'durationMs'
  | 'result'
  | 'error'
>;

/** Where a facade object's requests are reported. */
export interface RequestOrigin {
  /** Whether anyone listens to a request-derived event: when not, nothing is built. */
  wantsRequests(): boolean;
  /** A request the broker answered. */
  answered(request: TracedRequest): void;
  /** A request that got no answer within its timeout. */
  timedOut(request: TracedRequest): void;
  /** A request to `request.address` started (+1) or ended (-1). */
  inFlight(request: TracedRequest, change: 1 | -1): void;
}

const origins = new AsyncLocalStorage<RequestOrigin>();
const pending = new WeakMap<object, RequestOrigin>();
let subscribed = false;

/** Runs `fn` (and everything it starts) as `origin`'s. */
export function withOrigin<T>(origin: RequestOrigin, fn: () => T): T {
  return origins.run(origin, fn);
}

/** Subscribes to the core's request channel once, when the first listener asks for a request event. */
export function traceRequests(): void {
  if (subscribed) return;
  subscribed = true;
  subscribe('tracing:tidemark:request:start', (message) => {
    const origin = origins.getStore();
    if (!origin?.wantsRequests()) return;
    pending.set(message as object, origin);
    origin.inFlight(message as TracedRequest, 1);
  });
  subscribe('tracing:tidemark:request:asyncEnd', (message) => {
    const origin = pending.get(message as object);
    if (origin === undefined) return;
    pending.delete(message as object);
    const request = message as TracedRequest;
    origin.inFlight(request, -1);
    if (request.error === undefined) origin.answered(request);
  });
  subscribe('tracing:tidemark:request:error', (message) => {
    const origin = pending.get(message as object);
    if (origin === undefined) return;
    pending.delete(message as object);
    const request = message as TracedRequest;
    origin.inFlight(request, -1);
    if (request.error instanceof RequestTimeoutError) origin.timedOut(request);
  });
}

/** kafkajs's `REQUEST` payload. kafkajs times queueing apart from sending; the core sends at once, so both match. */
export function requestPayload(request: TracedRequest) {
  const createdAt = Math.round(performance.timeOrigin + request.startedAt);
  return {
    apiKey: request.apiKey,
    apiName: request.apiName,
    apiVersion: request.version,
    broker: request.address,
    clientId: request.clientId ?? '',
    correlationId: request.correlationId,
    createdAt,
    sentAt: createdAt,
    pendingDuration: 0,
    duration: Math.round(request.durationMs),
    size: request.responseBytes,
  };
}

/** kafkajs's `REQUEST_TIMEOUT` payload. */
export function requestTimeoutPayload(request: TracedRequest) {
  const { duration: _duration, size: _size, ...rest } = requestPayload(request);
  return rest;
}
