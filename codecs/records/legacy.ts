import { crc32 } from '../crc.js';
import { viewOf } from './buffer-view.js';
import { type DecodeRecordsOptions, decompressRecords, LOG_OVERHEAD, readInt64AsNumber } from './decode-batch.js';
import { corrupt } from './decode-records.js';
import type { RecordsContext } from './errors.js';
import {
  BatchAttributes,
  EMPTY_HEADERS,
  emptyBatch,
  KafkaRecord,
  type RecordBatch,
  RecordBatchBase,
  TimestampType,
} from './types.js';

/**
 * Legacy message sets, magic 0 and 1 (decode only; brokers still return
 * them for old segments). Each entry is offset int64, size int32, then a
 * message: crc uint32 (CRC-32 IEEE over the rest), magic int8, attributes
 * int8, timestamp int64 (magic 1 only), key bytes, value bytes. A
 * compressed message's value is a whole inner message set; in magic 1 the
 * inner offsets are relative (0..n-1) and the wrapper carries the absolute
 * offset of the last one.
 */

/** Smallest message after the offset/size prefix: crc, magic, attributes, key and value lengths. */
export const LEGACY_MIN_SIZE = [14, 22] as const;

interface LegacyMessage {
  offset: bigint;
  magic: number;
  crc: number;
  attributes: number;
  timestamp: number;
  /** The buffer holding the message, and where its key and value are (length -1: null). */
  data: Buffer;
  keyStart: number;
  keyLength: number;
  valueStart: number;
  valueLength: number;
}

function readLength(buf: Buffer, p: number, end: number, what: string, ctx: RecordsContext): number {
  if (end - p < 4) corrupt(ctx, `message ends before its ${what} length`, p);
  const len = buf.readInt32BE(p);
  if (len < -1 || len > end - p - 4) corrupt(ctx, `invalid ${what} length ${len}`, p);
  return len;
}

function viewIn(data: Buffer, start: number, length: number): Buffer | null {
  return length < 0 ? null : viewOf(data.buffer, data.byteOffset + start, length);
}

/** A legacy message has a timestamp of its own: it is its own base (rare enough for an object each). */
function recordOf(m: LegacyMessage, base: bigint, delta: number, timestamp: number): KafkaRecord {
  const key = viewIn(m.data, m.keyStart, m.keyLength);
  const value = viewIn(m.data, m.valueStart, m.valueLength);
  return new KafkaRecord(new RecordBatchBase(base, timestamp, false, timestamp), delta, 0, key, value, EMPTY_HEADERS);
}

/** `m` with its key and value copied into memory of their own, in one piece (DecodeRecordsOptions.copyOut). */
function copiedOut(m: LegacyMessage): LegacyMessage {
  const from = m.keyStart;
  const to = m.valueStart + Math.max(m.valueLength, 0);
  const data = Buffer.allocUnsafe(to - from);
  m.data.copy(data, 0, from, to);
  return { ...m, data, keyStart: 0, valueStart: m.valueStart - from };
}

/** Reads the message of the entry at `buf[start, end)` (prefix included, size already checked). */
function readMessage(
  buf: Buffer,
  start: number,
  end: number,
  options: DecodeRecordsOptions,
  outer?: RecordsContext & { baseOffset: bigint },
): LegacyMessage {
  const offset = buf.readBigInt64BE(start);
  const ctx = outer ?? { topic: options.topic, partition: options.partition, baseOffset: offset };
  const magic = buf[start + 16];
  if (magic > 1) corrupt(ctx, `magic ${magic} inside a legacy message set`, start + 16);
  if (end - start - LOG_OVERHEAD < LEGACY_MIN_SIZE[magic]) {
    corrupt(ctx, `message of ${end - start - LOG_OVERHEAD} bytes is below the magic ${magic} minimum`, start);
  }
  const crc = buf.readUInt32BE(start + 12);
  if (options.checkCrc !== false) {
    const actual = crc32(buf, start + 16, end);
    if (actual !== crc)
      corrupt(ctx, `CRC-32 mismatch: stored 0x${crc.toString(16)}, computed 0x${actual.toString(16)}`);
  }
  const attributes = buf[start + 17];
  let p = start + 18;
  let timestamp = -1;
  if (magic === 1) {
    timestamp = readInt64AsNumber(buf, p);
    p += 8;
  }
  const keyLength = readLength(buf, p, end, 'key', ctx);
  const keyStart = p + 4;
  p = keyStart + Math.max(keyLength, 0);
  const valueLength = readLength(buf, p, end, 'value', ctx);
  const valueStart = p + 4;
  p = valueStart + Math.max(valueLength, 0);
  if (p !== end) corrupt(ctx, `${end - p} unexpected bytes after the message value`, p);
  return { offset, magic, crc, attributes, timestamp, data: buf, keyStart, keyLength, valueStart, valueLength };
}

function shallowBatch(m: LegacyMessage, size: number): RecordBatch {
  const batch = emptyBatch(m.offset, m.magic);
  batch.batchLength = size;
  batch.crc = m.crc;
  batch.attributes = m.attributes;
  batch.compression = m.attributes & BatchAttributes.compressionMask;
  const logAppend = m.magic === 1 && (m.attributes & BatchAttributes.timestampType) !== 0;
  batch.timestampType = logAppend ? TimestampType.logAppendTime : TimestampType.createTime;
  batch.baseTimestamp = m.timestamp;
  batch.maxTimestamp = m.timestamp;
  return batch;
}

/** Decodes the legacy entry at `buf[start, end)` into a batch of one or (if compressed) many records. */
export function decodeLegacyEntry(buf: Buffer, start: number, end: number, options: DecodeRecordsOptions): RecordBatch {
  const wrapper = readMessage(buf, start, end, options);
  const batch = shallowBatch(wrapper, end - start - LOG_OVERHEAD);
  if (batch.compression === 0) {
    const message = options.copyOut === true ? copiedOut(wrapper) : wrapper;
    batch.records.push(recordOf(message, wrapper.offset, 0, wrapper.timestamp));
    return batch;
  }
  const ctx = { topic: options.topic, partition: options.partition, baseOffset: wrapper.offset };
  if (wrapper.valueLength < 0) corrupt(ctx, 'compressed message with a null value', start);
  const payload = buf.subarray(wrapper.valueStart, wrapper.valueStart + wrapper.valueLength);
  const inner = decompressRecords(payload, batch.compression, { ...options, magic: wrapper.magic }, ctx);
  const messages = readInnerMessages(inner, options, ctx);
  if (messages.length === 0) corrupt(ctx, 'compressed message holds no messages', start);

  // Magic 1 inner offsets are relative; the wrapper holds the absolute offset of the last one.
  const last = messages[messages.length - 1].offset;
  const shift = wrapper.magic === 1 ? wrapper.offset - last : 0n;
  const base = messages[0].offset + shift;
  const logAppend = batch.timestampType === TimestampType.logAppendTime;
  let maxTimestamp = -1;
  for (const m of messages) {
    const timestamp = logAppend ? wrapper.timestamp : m.timestamp;
    if (timestamp > maxTimestamp) maxTimestamp = timestamp;
    const delta = Number(m.offset + shift - base);
    batch.records.push(recordOf(m, base, delta, timestamp));
  }
  batch.baseOffset = base;
  batch.lastOffset = wrapper.offset;
  batch.lastOffsetDelta = Number(batch.lastOffset - base);
  batch.baseTimestamp = batch.records[0].timestamp;
  batch.maxTimestamp = logAppend ? wrapper.timestamp : maxTimestamp;
  return batch;
}

function readInnerMessages(
  inner: Buffer,
  options: DecodeRecordsOptions,
  ctx: RecordsContext & { baseOffset: bigint },
): LegacyMessage[] {
  const messages: LegacyMessage[] = [];
  let pos = 0;
  while (pos < inner.length) {
    if (inner.length - pos < LOG_OVERHEAD) corrupt(ctx, 'truncated inner message header', pos);
    const size = inner.readInt32BE(pos + 8);
    if (size < LEGACY_MIN_SIZE[0] || size > inner.length - pos - LOG_OVERHEAD) {
      corrupt(ctx, `invalid inner message size ${size}`, pos);
    }
    const end = pos + LOG_OVERHEAD + size;
    const m = readMessage(inner, pos, end, options, ctx);
    if ((m.attributes & BatchAttributes.compressionMask) !== 0) corrupt(ctx, 'nested compressed message', pos);
    messages.push(m);
    pos = end;
  }
  return messages;
}
