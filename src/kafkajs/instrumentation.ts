/**
 * kafkajs's instrumentation events: `on(name, listener)` returns a remover, the event is
 * `{ id, type, timestamp, payload }`, and an unknown name throws as in kafkajs. A throwing listener is logged
 * away (kafkajs's rule), never breaking the client.
 */
import { EventEmitter } from 'node:events';
import { KafkaJSNonRetriableError } from './errors.js';
import {
  type RequestOrigin,
  requestPayload,
  requestTimeoutPayload,
  type TracedRequest,
  traceRequests,
  withOrigin,
} from './request-events.js';

const PRODUCER_EVENTS = {
  CONNECT: 'producer.connect',
  DISCONNECT: 'producer.disconnect',
  REQUEST: 'producer.network.request',
  REQUEST_TIMEOUT: 'producer.network.request_timeout',
  REQUEST_QUEUE_SIZE: 'producer.network.request_queue_size',
} as const;

const CONSUMER_EVENTS = {
  HEARTBEAT: 'consumer.heartbeat',
  COMMIT_OFFSETS: 'consumer.commit_offsets',
  GROUP_JOIN: 'consumer.group_join',
  FETCH_START: 'consumer.fetch_start',
  FETCH: 'consumer.fetch',
  START_BATCH_PROCESS: 'consumer.start_batch_process',
  END_BATCH_PROCESS: 'consumer.end_batch_process',
  CONNECT: 'consumer.connect',
  DISCONNECT: 'consumer.disconnect',
  STOP: 'consumer.stop',
  CRASH: 'consumer.crash',
  REBALANCING: 'consumer.rebalancing',
  RECEIVED_UNSUBSCRIBED_TOPICS: 'consumer.received_unsubscribed_topics',
  REQUEST: 'consumer.network.request',
  REQUEST_TIMEOUT: 'consumer.network.request_timeout',
  REQUEST_QUEUE_SIZE: 'consumer.network.request_queue_size',
} as const;

const ADMIN_EVENTS = {
  CONNECT: 'admin.connect',
  DISCONNECT: 'admin.disconnect',
  REQUEST: 'admin.network.request',
  REQUEST_TIMEOUT: 'admin.network.request_timeout',
  REQUEST_QUEUE_SIZE: 'admin.network.request_queue_size',
} as const;

export interface InstrumentationEvent<T = unknown> {
  id: number;
  type: string;
  timestamp: number;
  payload: T;
}

let nextId = 0;

/**
 * One producer's, consumer's or admin's events. It is also the origin its requests are reported to
 * (request-events.ts): `within` runs a public call so that the requests it causes come back here.
 */
export class Instrumentation implements RequestOrigin {
  static readonly producerEvents = PRODUCER_EVENTS;
  static readonly consumerEvents = CONSUMER_EVENTS;
  static readonly adminEvents = ADMIN_EVENTS;
  private readonly emitter = new EventEmitter();
  private readonly names: Set<string>;
  /** The events that come from traced requests (the per-request ones, and the consumer's HEARTBEAT). */
  private readonly requestEvents: string[];
  /** Told of every answered request before REQUEST is emitted (the consumer derives HEARTBEAT from it). */
  onAnswered: ((request: TracedRequest) => void) | undefined;

  constructor(private readonly kind: 'producer' | 'consumer' | 'admin') {
    const table = kind === 'producer' ? PRODUCER_EVENTS : kind === 'consumer' ? CONSUMER_EVENTS : ADMIN_EVENTS;
    this.names = new Set(Object.values(table));
    this.requestEvents = [
      table.REQUEST,
      table.REQUEST_TIMEOUT,
      table.REQUEST_QUEUE_SIZE,
      ...(kind === 'consumer' ? [CONSUMER_EVENTS.HEARTBEAT] : []),
    ];
  }

  /**
   * Runs a public call of this object so that the requests it causes are reported here. Only while someone
   * listens to a request event: an AsyncLocalStorage costs every promise of what runs inside it (about 15 %
   * of the consumer's CPU in bench runs), so listeners must be registered before the call (as kafkajs's
   * examples do, before `connect()` and `run()`) for its requests to be reported.
   */
  within<T>(fn: () => T): T {
    return this.wantsRequests() ? withOrigin(this, fn) : fn();
  }

  wantsRequests(): boolean {
    return this.requestEvents.some((name) => this.emitter.listenerCount(name) > 0);
  }

  answered(request: TracedRequest): void {
    this.onAnswered?.(request);
    this.emit(`${this.kind}.network.request`, requestPayload(request));
  }

  timedOut(request: TracedRequest): void {
    this.emit(`${this.kind}.network.request_timeout`, requestTimeoutPayload(request));
  }

  /** Requests in flight per broker address: kafkajs's request queue size (request-events.ts). */
  private readonly queueSizes = new Map<string, number>();

  inFlight(request: TracedRequest, change: 1 | -1): void {
    const queueSize = Math.max(0, (this.queueSizes.get(request.address) ?? 0) + change);
    this.queueSizes.set(request.address, queueSize);
    this.emit(`${this.kind}.network.request_queue_size`, {
      broker: request.address,
      clientId: request.clientId ?? '',
      queueSize,
    });
  }

  on(eventName: string, listener: (event: InstrumentationEvent) => unknown): () => void {
    if (!this.names.has(eventName)) {
      throw new KafkaJSNonRetriableError(`Event name should be one of ${[...this.names].join(', ')}`);
    }
    if (this.requestEvents.includes(eventName)) traceRequests();
    const wrapped = (event: InstrumentationEvent) => {
      Promise.resolve()
        .then(() => listener(event))
        .catch(() => {});
    };
    this.emitter.on(eventName, wrapped);
    return () => {
      this.emitter.off(eventName, wrapped);
    };
  }

  emit(type: string, payload: unknown): void {
    if (this.emitter.listenerCount(type) === 0) return;
    this.emitter.emit(type, { id: nextId++, type, timestamp: Date.now(), payload });
  }
}
