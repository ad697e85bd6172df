import { viewOf } from './buffer-view.js';
import { CorruptRecordError, type RecordsContext } from './errors.js';
import { UndecodedHeaders } from './headers.js';
import { EMPTY_HEADERS, KafkaRecord, RecordBatchBase } from './types.js';

/**
 * The hot loop: the varint-encoded records of one v2 batch. Everything is
 * read straight off the Buffer with a local position (no Reader object per
 * record, no closures); one- and two-byte varints, which nearly all fields
 * are, take an inline path (profiling put the varint calls at ~10% of
 * decode time before). A read past the end of the buffer yields
 * `undefined`, which fails the `< 0x80` test and lands in the checked slow
 * path, so the fast path needs no bounds test of its own. Each record's
 * fields must end exactly at its declared length, which catches reads past
 * it, and every key/value length is checked before a view is made.
 */

/** Smallest encoded record: length, attributes, timestamp, offset, key, value lengths and header count. */
export const MIN_RECORD_SIZE = 7;

/** Most records an array is made for up front; V8 allocates `new Array(n)` with fast elements up to ~16K. */
export const MAX_PRESIZED = 8192;

/** Where the slow varint readers leave the position (a module slot beats returning a pair). */
let varEnd = 0;

export function corrupt(ctx: RecordsContext & { baseOffset?: bigint }, reason: string, at?: number): never {
  throw new CorruptRecordError(reason, { ...ctx, byteOffset: at });
}

/** Unsigned LEB128 varint of at most 5 bytes starting at `p`; sets varEnd. */
function uvarintSlow(buf: Buffer, p: number, end: number, ctx: RecordsContext): number {
  let value = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (p >= end) corrupt(ctx, 'varint runs past the end of the batch', p);
    const b = buf[p++];
    value |= (b & 0x7f) << shift;
    if (b < 0x80) {
      varEnd = p;
      return value >>> 0;
    }
  }
  return corrupt(ctx, 'varint longer than 5 bytes', p);
}

/** Zigzag varlong of at most 10 bytes as a number (exact within ±2^53); sets varEnd. */
function varlongSlow(buf: Buffer, p: number, end: number, ctx: RecordsContext): number {
  // Up to 4 bytes (28 bits) in int arithmetic; longer ones in doubles.
  let small = 0;
  for (let i = 0, shift = 0; i < 4; i++, shift += 7) {
    if (p + i >= end) break;
    const b = buf[p + i];
    small |= (b & 0x7f) << shift;
    if (b < 0x80) {
      varEnd = p + i + 1;
      return zigzag(small);
    }
  }
  let raw = 0;
  for (let shift = 0; shift < 70; shift += 7) {
    if (p >= end) corrupt(ctx, 'varlong runs past the end of the batch', p);
    const b = buf[p++];
    raw += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) {
      varEnd = p;
      return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
    }
  }
  return corrupt(ctx, 'varlong longer than 10 bytes', p);
}

function zigzag(raw: number): number {
  return (raw >>> 1) ^ -(raw & 1);
}

/**
 * Checks the headers of one record at `buf[p, end)` (`count` of them) without
 * materialising them: every length is validated here, at decode time, so a
 * corrupt header fails the batch with a CorruptRecordError as before, while
 * the strings, views and objects are made only if someone reads
 * `record.headers` (decodeCheckedHeaders in headers.ts). Sets varEnd.
 */
function checkHeaders(buf: Buffer, p: number, end: number, count: number, ctx: RecordsContext): void {
  if (count < 0 || count * 2 > end - p) corrupt(ctx, `invalid header count ${count}`, p);
  for (let i = 0; i < count; i++) {
    const keyLen = zigzag(uvarintSlow(buf, p, end, ctx));
    p = varEnd;
    if (keyLen < 0 || keyLen > end - p) corrupt(ctx, `invalid header key length ${keyLen}`, p);
    p += keyLen;
    const valueLen = zigzag(uvarintSlow(buf, p, end, ctx));
    p = varEnd;
    if (valueLen >= 0) {
      if (valueLen > end - p) corrupt(ctx, `header value length ${valueLen} runs past the record`, p);
      p += valueLen;
    } else if (valueLen !== -1) {
      corrupt(ctx, `invalid header value length ${valueLen}`, p);
    }
  }
  varEnd = p;
}

/**
 * Decodes `count` records from `buf[p, end)`. When `useOverride`
 * is set (LogAppendTime batches) every record takes `timestampOverride`, the
 * batch's maxTimestamp, as Kafka's own reader does.
 */
export function decodeRecordsV2(
  buf: Buffer,
  p: number,
  end: number,
  count: number,
  baseOffset: bigint,
  baseTimestamp: number,
  useOverride: boolean,
  timestampOverride: number,
  ctx: RecordsContext & { baseOffset: bigint },
): KafkaRecord[] {
  if (count < 0 || count > (end - p) / MIN_RECORD_SIZE) {
    corrupt(ctx, `record count ${count} cannot fit in ${end - p} bytes of records`, p);
  }
  const ab = buf.buffer;
  const base = buf.byteOffset;
  // The records' offsets and timestamps are deltas from these (types.ts: no boxed timestamp per record).
  const batchBase = new RecordBatchBase(baseOffset, baseTimestamp, useOverride, timestampOverride);
  // Sized once, not grown by push (a pushed array is reallocated and copied five times on the way to ~150
  // records); `count` was just bounded by the bytes. Above MAX_PRESIZED, V8 would make a slow dictionary array.
  const out: KafkaRecord[] = count <= MAX_PRESIZED ? new Array(count) : [];
  for (let i = 0; i < count; i++) {
    if (p >= end) corrupt(ctx, `batch ends after ${i} of ${count} records`, p);
    let b = buf[p++];
    let length: number;
    if (b < 0x80) length = b;
    else if (buf[p] < 0x80) length = (b & 0x7f) | (buf[p++] << 7);
    else {
      length = uvarintSlow(buf, p - 1, end, ctx);
      p = varEnd;
    }
    length = zigzag(length);
    const recordEnd = p + length;
    if (length < MIN_RECORD_SIZE - 1 || recordEnd > end) corrupt(ctx, `invalid record length ${length}`, p);
    p++; // record attributes: unused by every Kafka version so far

    b = buf[p++];
    let timestampDelta: number;
    if (b < 0x80) timestampDelta = zigzag(b);
    else if (buf[p] < 0x80) timestampDelta = zigzag((b & 0x7f) | (buf[p++] << 7));
    else {
      timestampDelta = varlongSlow(buf, p - 1, recordEnd, ctx);
      p = varEnd;
    }

    b = buf[p++];
    let offsetDelta: number;
    if (b < 0x80) offsetDelta = b;
    else if (buf[p] < 0x80) offsetDelta = (b & 0x7f) | (buf[p++] << 7);
    else {
      offsetDelta = uvarintSlow(buf, p - 1, recordEnd, ctx);
      p = varEnd;
    }
    offsetDelta = zigzag(offsetDelta);

    b = buf[p++];
    let keyLen: number;
    if (b < 0x80) keyLen = b;
    else {
      keyLen = uvarintSlow(buf, p - 1, recordEnd, ctx);
      p = varEnd;
    }
    keyLen = zigzag(keyLen);
    const keyStart = p;
    if (keyLen >= 0) {
      if (keyLen > recordEnd - p) corrupt(ctx, `key length ${keyLen} runs past the record`, p);
      p += keyLen;
    } else if (keyLen !== -1) {
      corrupt(ctx, `invalid key length ${keyLen}`, p);
    }

    b = buf[p++];
    let valueLen: number;
    if (b < 0x80) valueLen = b;
    else if (buf[p] < 0x80) valueLen = (b & 0x7f) | (buf[p++] << 7);
    else {
      valueLen = uvarintSlow(buf, p - 1, recordEnd, ctx);
      p = varEnd;
    }
    valueLen = zigzag(valueLen);
    const valueStart = p;
    if (valueLen >= 0) {
      if (valueLen > recordEnd - p) corrupt(ctx, `value length ${valueLen} runs past the record`, p);
      p += valueLen;
    } else if (valueLen !== -1) {
      corrupt(ctx, `invalid value length ${valueLen}`, p);
    }

    const headersStart = p;
    b = buf[p++];
    if (b !== 0) {
      let headerCount: number;
      if (b < 0x80) headerCount = zigzag(b);
      else {
        headerCount = zigzag(uvarintSlow(buf, p - 1, recordEnd, ctx));
        p = varEnd;
      }
      checkHeaders(buf, p, recordEnd, headerCount, ctx);
      p = varEnd;
    }
    if (p !== recordEnd) corrupt(ctx, `record fields end at ${p} but its length says ${recordEnd}`, p);

    const key = keyLen < 0 ? null : viewOf(ab, base + keyStart, keyLen);
    const value = valueLen < 0 ? null : viewOf(ab, base + valueStart, valueLen);
    // Headers stay bytes until read (most consumers never look at them): the record keeps where they start.
    out[i] =
      b === 0
        ? new KafkaRecord(batchBase, offsetDelta, timestampDelta, key, value, EMPTY_HEADERS)
        : new KafkaRecord(batchBase, offsetDelta, timestampDelta, key, value, new UndecodedHeaders(buf, headersStart));
  }
  if (p !== end) corrupt(ctx, `${end - p} bytes left after the batch's ${count} records`, p);
  return out;
}
