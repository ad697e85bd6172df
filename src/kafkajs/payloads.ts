/**
 * kafkajs's shapes for what a consumer hands out: messages with string offsets and timestamps and headers as
 * an object (a repeated key becomes an array, as kafkajs decodes it), and the `Batch` with kafkajs's
 * `firstOffset()`, `lastOffset()`, `offsetLag()` and `offsetLagLow()` arithmetic.
 */
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

export function messageOf(record: ConsumerRecord): KafkaMessage {
  return {
    key: record.key,
    value: record.value,
    timestamp: String(record.timestamp),
    attributes: 0,
    offset: String(record.offset),
    headers: headersOf(record),
  };
}

/** A core batch as kafkajs's Batch; `messages` are built once, when first read. */
export function batchOf(core: ConsumerBatch): Batch {
  const highWatermark = core.highWatermark;
  const records = core.records;
  let messages: KafkaMessage[] | undefined;
  const last = (): bigint => (records.length === 0 ? highWatermark - 1n : records[records.length - 1].offset);
  return {
    topic: core.topic,
    partition: core.partition,
    highWatermark: String(highWatermark),
    get messages() {
      messages ??= records.map(messageOf);
      return messages;
    },
    isEmpty: () => records.length === 0,
    firstOffset: () => (records.length === 0 ? null : String(records[0].offset)),
    lastOffset: () => String(last()),
    offsetLag: () => String(highWatermark - 1n - last()),
    offsetLagLow: () => (records.length === 0 ? '0' : String(highWatermark - 1n - records[0].offset)),
  };
}
