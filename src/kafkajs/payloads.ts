/**
 * kafkajs's shapes for what a consumer hands out: messages with string offsets and timestamps and headers as
 * an object (a repeated key becomes an array, as kafkajs decodes it), and the `Batch` with kafkajs's
 * `firstOffset()`, `lastOffset()`, `offsetLag()` and `offsetLagLow()` arithmetic.
 *
 * A message is built per record on the hot path, so it costs one small object: key, value and attributes are
 * plain fields, while the string offset, string timestamp and headers object are made when first read (and
 * then kept, so a handler that edits `headers` sees its edit). A handler that reads only key and value, as most
 * do, pays for no string and no headers object (bench/results/facade-profile.md).
 */
import { inspect } from 'node:util';
import type { ConsumerBatch, ConsumerRecord } from '../index.js';

export type IHeaders = Record<string, Buffer | string | (Buffer | string)[] | undefined>;

export interface KafkaMessage {
  key: Buffer | null;
  value: Buffer | null;
  timestamp: string;
  attributes: number;
  offset: string;
  headers: IHeaders;
}

export interface Batch {
  topic: string;
  partition: number;
  highWatermark: string;
  messages: KafkaMessage[];
  isEmpty(): boolean;
  firstOffset(): string | null;
  lastOffset(): string;
  offsetLag(): string;
  offsetLagLow(): string;
}

export function headersOf(record: ConsumerRecord): IHeaders {
  const headers: IHeaders = {};
  for (const { key, value } of record.headers) {
    // kafkajs keeps a null header value as undefined-free Buffer-less null; it decodes to null.
    const v = value as Buffer;
    const seen = headers[key];
    if (seen === undefined) headers[key] = v;
    else headers[key] = Array.isArray(seen) ? [...seen, v] : [seen, v];
  }
  return headers;
}

/**
 * One consumed record as kafkajs's message. The lazy fields are getters on the prototype (as the core's
 * ConsumerRecord's are), so `JSON.stringify` and `console.log` show them through `toJSON` and `inspect`.
 */
class Message implements KafkaMessage {
  key: Buffer | null;
  value: Buffer | null;
  attributes = 0;
  readonly #record: ConsumerRecord;
  #offset: string | undefined;
  #timestamp: string | undefined;
  #headers: IHeaders | undefined;

  constructor(record: ConsumerRecord) {
    this.key = record.key;
    this.value = record.value;
    this.#record = record;
  }

  get offset(): string {
    this.#offset ??= String(this.#record.offset);
    return this.#offset;
  }

  set offset(offset: string) {
    this.#offset = offset;
  }

  get timestamp(): string {
    this.#timestamp ??= String(this.#record.timestamp);
    return this.#timestamp;
  }

  set timestamp(timestamp: string) {
    this.#timestamp = timestamp;
  }

  get headers(): IHeaders {
    this.#headers ??= headersOf(this.#record);
    return this.#headers;
  }

  set headers(headers: IHeaders) {
    this.#headers = headers;
  }

  toJSON(): KafkaMessage {
    const { key, value, timestamp, attributes, offset, headers } = this;
    return { key, value, timestamp, attributes, offset, headers };
  }

  [inspect.custom](): KafkaMessage {
    return this.toJSON();
  }
}

export function messageOf(record: ConsumerRecord): KafkaMessage {
  return new Message(record);
}

/**
 * A core batch as kafkajs's Batch, a class as kafkajs's is: its arithmetic as prototype methods (no closures per
 * batch), its `messages` built once, when first read.
 */
class KafkaJSBatch implements Batch {
  readonly topic: string;
  readonly partition: number;
  readonly highWatermark: string;
  readonly #core: ConsumerBatch;
  #messages: KafkaMessage[] | undefined;

  constructor(core: ConsumerBatch) {
    this.topic = core.topic;
    this.partition = core.partition;
    this.highWatermark = String(core.highWatermark);
    this.#core = core;
  }

  get messages(): KafkaMessage[] {
    this.#messages ??= this.#core.records.map(messageOf);
    return this.#messages;
  }

  isEmpty(): boolean {
    return this.#core.records.length === 0;
  }

  firstOffset(): string | null {
    const records = this.#core.records;
    return records.length === 0 ? null : String(records[0].offset);
  }

  lastOffset(): string {
    return String(this.#last());
  }

  offsetLag(): string {
    return String(this.#core.highWatermark - 1n - this.#last());
  }

  offsetLagLow(): string {
    const records = this.#core.records;
    return records.length === 0 ? '0' : String(this.#core.highWatermark - 1n - records[0].offset);
  }

  #last(): bigint {
    const records = this.#core.records;
    return records.length === 0 ? this.#core.highWatermark - 1n : records[records.length - 1].offset;
  }
}

export function batchOf(core: ConsumerBatch): Batch {
  return new KafkaJSBatch(core);
}
