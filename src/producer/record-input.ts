import type { PendingRecord } from './batch.js';
import { InvalidRecordError } from './errors.js';

export type Bytes = Buffer | Uint8Array | string;

/** A record to send. Strings are written as UTF-8. */
export interface ProducerRecord {
  topic: string;
  /** null or absent: an unkeyed record (sticky partitioning). */
  key?: Bytes | null;
  /** null or absent: a tombstone on a compacted topic. */
  value?: Bytes | null;
  /** In order; a key may repeat. An object is taken in its key order. */
  headers?: readonly { key: string; value: Bytes | null }[] | Readonly<Record<string, Bytes | null>>;
  /** Overrides the partitioner. */
  partition?: number;
  /** Milliseconds since the epoch (or a Date); default: when `send()` (or `sendBatch()`) is called. */
  timestamp?: number | Date;
}

const unsettled = () => {
  throw new Error('record promise not attached');
};

function bytes(value: Bytes | null | undefined, what: string): Buffer | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Buffer) return value;
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  throw new InvalidRecordError(`${what} must be a Buffer, Uint8Array, string or null`);
}

/** Bytes of a zigzag varint. */
function varintSize(n: number): number {
  let v = n >= 0 ? n * 2 : -n * 2 - 1;
  let size = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 128);
    size++;
  }
  return size;
}

function fieldSize(b: Buffer | null): number {
  return b === null ? 1 : varintSize(b.length) + b.length;
}

/**
 * A record's size in a v2 batch, slightly over: the timestamp and offset deltas depend on the batch it joins,
 * so they are counted at a typical width. Batch size and buffer memory are counted with it.
 */
function estimateSize(r: Pick<PendingRecord, 'key' | 'value' | 'headers'>): number {
  let body = 1 + 4 + 3 + fieldSize(r.key) + fieldSize(r.value) + varintSize(r.headers.length);
  for (const h of r.headers) {
    const keyBytes = Buffer.byteLength(h.key, 'utf8');
    body += varintSize(keyBytes) + keyBytes + fieldSize(h.value);
  }
  return varintSize(body) + body;
}

/** Shared by every record without headers: one allocation less per record. */
const NO_HEADERS: PendingRecord['headers'] = [];

function headersOf(input: ProducerRecord['headers']): PendingRecord['headers'] {
  if (input === undefined || input === null) return NO_HEADERS;
  const entries = Array.isArray(input)
    ? (input as readonly { key: string; value: Bytes | null }[])
    : Object.entries(input as Record<string, Bytes | null>).map(([key, value]) => ({ key, value }));
  return entries.map((h, i) => {
    if (typeof h?.key !== 'string') throw new InvalidRecordError(`header ${i} needs a string key`);
    return { key: h.key, value: bytes(h.value, `header ${h.key}`) };
  });
}

/**
 * Checks a record and converts it to bytes, as Java's `send()` serialises before it appends. `into`: an
 * existing PendingRecord to fill instead of a new one (the producer's reused one, see Producer.prepare); every
 * field is set, settlers included.
 */
export function prepareRecord(
  input: ProducerRecord,
  now: number,
  maxRecordSize: number,
  into?: PendingRecord,
): PendingRecord {
  if (typeof input !== 'object' || input === null) throw new InvalidRecordError('a record must be an object');
  const { topic, partition } = input;
  if (typeof topic !== 'string' || topic.length === 0) throw new InvalidRecordError('a record needs a topic name');
  if (partition !== undefined && (!Number.isInteger(partition) || partition < 0)) {
    throw new InvalidRecordError(`invalid partition ${String(partition)}`, topic);
  }
  const given = input.timestamp;
  // The common case first: no timestamp of its own, so `now`, already valid.
  const ts = given === undefined || given === null ? now : given instanceof Date ? given.getTime() : given;
  if (ts !== now && (!Number.isSafeInteger(ts) || ts < 0))
    throw new InvalidRecordError(`invalid timestamp ${String(ts)}`, topic);
  const key = bytes(input.key, 'key');
  const value = bytes(input.value, 'value');
  const headers = headersOf(input.headers);
  const record = into ?? newPendingRecord();
  record.topic = topic;
  record.partition = partition ?? -1;
  record.key = key;
  record.value = value;
  record.headers = headers;
  record.timestamp = ts;
  record.size = estimateSize(record);
  record.settings = undefined;
  record.resolve = unsettled;
  record.reject = unsettled;
  record.group = undefined;
  record.index = 0;
  if (record.size > maxRecordSize) {
    throw new InvalidRecordError(
      `record of about ${record.size} bytes is larger than the producer allows (${maxRecordSize} bytes: maxRequestSize and bufferMemory bound it)`,
      topic,
    );
  }
  return record;
}

/**
 * An empty PendingRecord. Every one is made here or by copyPendingRecord, with the fields in one order, so all
 * have one shape (the accumulator's loads stay monomorphic).
 */
export function newPendingRecord(): PendingRecord {
  return {
    topic: '',
    partition: -1,
    key: null,
    value: null,
    headers: NO_HEADERS,
    timestamp: 0,
    size: 0,
    settings: undefined,
    resolve: unsettled,
    reject: unsettled,
    group: undefined,
    index: 0,
  };
}

/** A copy of `r` of its own: what a record that waits keeps when it was prepared into the reused one. */
export function copyPendingRecord(r: PendingRecord): PendingRecord {
  return {
    topic: r.topic,
    partition: r.partition,
    key: r.key,
    value: r.value,
    headers: r.headers,
    timestamp: r.timestamp,
    size: r.size,
    settings: r.settings,
    resolve: r.resolve,
    reject: r.reject,
    group: r.group,
    index: r.index,
  };
}

/** Drops what a reused PendingRecord refers to (the caller's bytes, a promise's settlers) once it is appended. */
export function clearPendingRecord(r: PendingRecord): void {
  r.key = null;
  r.value = null;
  r.headers = NO_HEADERS;
  r.settings = undefined;
  r.resolve = unsettled;
  r.reject = unsettled;
  r.group = undefined;
}
