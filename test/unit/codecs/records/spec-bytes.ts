import { createRequire } from 'node:module';

/**
 * Byte builders written straight from Kafka's message-format spec
 * (https://kafka.apache.org/documentation/#messageformat), independent of
 * tidemark's encoder, with checksums from the crc-32 package, so tests can
 * compare tidemark against bytes it did not produce.
 */

const require = createRequire(import.meta.url);
const CRC32C = require('crc-32/crc32c') as { buf(b: Uint8Array, seed?: number): number };
const CRC32 = require('crc-32') as { buf(b: Uint8Array, seed?: number): number };

/** Zigzag LEB128, as Kafka's VARINT / VARLONG (for values within ±2^31 here). */
export function varint(v: number): number[] {
  let x = ((v << 1) ^ (v >> 31)) >>> 0;
  const out: number[] = [];
  while (x > 0x7f) {
    out.push((x & 0x7f) | 0x80);
    x >>>= 7;
  }
  out.push(x);
  return out;
}

function int16(v: number): number[] {
  return [(v >> 8) & 0xff, v & 0xff];
}

function int32(v: number): number[] {
  return [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
}

function int64(v: bigint): number[] {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(v);
  return [...b];
}

function varBytes(b: Buffer | null): number[] {
  return b === null ? varint(-1) : [...varint(b.length), ...b];
}

export interface SpecRecord {
  timestampDelta: number;
  offsetDelta: number;
  key: Buffer | null;
  value: Buffer | null;
  headers?: Array<[string, Buffer | null]>;
}

/** One v2 record: length varint, attributes, timestampDelta, offsetDelta, key, value, headers. */
export function specRecord(r: SpecRecord): number[] {
  const headers = r.headers ?? [];
  const body = [
    0,
    ...varint(r.timestampDelta),
    ...varint(r.offsetDelta),
    ...varBytes(r.key),
    ...varBytes(r.value),
    ...varint(headers.length),
  ];
  for (const [k, v] of headers) body.push(...varBytes(Buffer.from(k)), ...varBytes(v));
  return [...varint(body.length), ...body];
}

export interface SpecBatch {
  baseOffset: bigint;
  partitionLeaderEpoch: number;
  attributes: number;
  lastOffsetDelta: number;
  baseTimestamp: bigint;
  maxTimestamp: bigint;
  producerId: bigint;
  producerEpoch: number;
  baseSequence: number;
  recordCount: number;
  /** The records section as it goes on the wire (compressed if the attributes say so). */
  records: number[] | Buffer;
}

/** A RecordBatch v2 with its CRC-32C over attributes..end. */
export function specBatch(b: SpecBatch): Buffer {
  const afterCrc = Buffer.from([
    ...int16(b.attributes),
    ...int32(b.lastOffsetDelta),
    ...int64(b.baseTimestamp),
    ...int64(b.maxTimestamp),
    ...int64(b.producerId),
    ...int16(b.producerEpoch),
    ...int32(b.baseSequence),
    ...int32(b.recordCount),
    ...b.records,
  ]);
  const crc = CRC32C.buf(afterCrc, 0) >>> 0;
  const batchLength = 4 + 1 + 4 + afterCrc.length;
  return Buffer.concat([
    Buffer.from([...int64(b.baseOffset), ...int32(batchLength), ...int32(b.partitionLeaderEpoch), 2, ...int32(crc)]),
    afterCrc,
  ]);
}

export interface SpecMessage {
  offset: bigint;
  magic: 0 | 1;
  attributes: number;
  timestamp?: bigint;
  key: Buffer | null;
  value: Buffer | null;
}

/** A legacy message set entry: offset, size, then crc (CRC-32) over magic..end. */
export function specMessage(m: SpecMessage): Buffer {
  const bytes = (b: Buffer | null) => (b === null ? int32(-1) : [...int32(b.length), ...b]);
  const body = Buffer.from([
    m.magic,
    m.attributes,
    ...(m.magic === 1 ? int64(m.timestamp ?? -1n) : []),
    ...bytes(m.key),
    ...bytes(m.value),
  ]);
  const crc = CRC32.buf(body, 0) >>> 0;
  return Buffer.concat([Buffer.from([...int64(m.offset), ...int32(body.length + 4), ...int32(crc)]), body]);
}

/** Prefixes a bare legacy message (crc onwards, as sarama's fixtures are) with offset and size. */
export function withLogOverhead(offset: bigint, message: number[] | Buffer): Buffer {
  return Buffer.concat([Buffer.from([...int64(offset), ...int32(message.length)]), Buffer.from(message)]);
}
