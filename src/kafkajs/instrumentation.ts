/**
 * kafkajs's instrumentation events: `on(name, listener)` returns a remover, the event is
 * `{ id, type, timestamp, payload }`, and an unknown name throws as in kafkajs. A throwing listener is logged
 * away (kafkajs's rule), never breaking the client.
 */
import { EventEmitter } from 'node:events';
import { KafkaJSNonRetriableError } from './errors.js';

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

export class Instrumentation {
  static readonly producerEvents = PRODUCER_EVENTS;
  static readonly consumerEvents = CONSUMER_EVENTS;
  static readonly adminEvents = ADMIN_EVENTS;
  private readonly emitter = new EventEmitter();
  private readonly names: Set<string>;

  constructor(kind: 'producer' | 'consumer' | 'admin') {
    const table = kind === 'producer' ? PRODUCER_EVENTS : kind === 'consumer' ? CONSUMER_EVENTS : ADMIN_EVENTS;
    this.names = new Set(Object.values(table));
  }

  on(eventName: string, listener: (event: InstrumentationEvent) => unknown): () => void {
    if (!this.names.has(eventName)) {
      throw new KafkaJSNonRetriableError(`Event name should be one of ${[...this.names].join(', ')}`);
    }
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
