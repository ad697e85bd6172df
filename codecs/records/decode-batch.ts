import { CompressionError, DecompressionLimitError } from '../compression/errors.js';
import { decompress } from '../compression/index.js';
import { crc32c } from '../crc.js';
import { controlTypeOf } from './control.js';
import { corrupt, decodeRecordsV2 } from './decode-records.js';
import { CorruptRecordError, type RecordsContext } from './errors.js';
import { BatchAttributes, emptyBatch, type RecordBatch, TimestampType } from './types.js';

/** RecordBatch v2 header layout (byte offsets from the batch start). */
export const V2 = {
  batchLength: 8,
  partitionLeaderEpoch: 12,
  magic: 16,
  crc: 17,
  attributes: 21,
  lastOffsetDelta: 23,
  baseTimestamp: 27,
  maxTimestamp: 35,
  producerId: 43,
  producerEpoch: 51,
  baseSequence: 53,
  recordCount: 57,
  headerSize: 61,
} as const;

/** Offset and length fields that precede every batch or legacy message. */
export const LOG_OVERHEAD = 12;
/** Smallest `batchLength` of a v2 batch: the header after the length field. */
export const V2_MIN_BATCH_LENGTH = V2.headerSize - LOG_OVERHEAD;

export interface DecodeRecordsOptions extends RecordsContext {
  /** Verify each batch's CRC (one pass per batch, not per record). Default true. */
  checkCrc?: boolean;
  /** Bound on a compressed batch's decompressed size. Default 64 MiB. */
  maxDecompressedBytes?: number;
  /**
   * Nothing returned may reference `buf` (a consumer whose response memory is reused): the records of a batch
   * that is not compressed are copied into memory of their own first, once per batch, and decoded from there;
   * a compressed batch already decompresses into memory of its own. Default false: keys, values and headers
   * are views into `buf`.
   */
  copyOut?: boolean;
}

/** int64 as a number: exact for anything within ±2^53 (timestamps in ms are). */
export function readInt64AsNumber(buf: Buffer, at: number): number {
  return buf.readInt32BE(at) * 4294967296 + buf.readUInt32BE(at + 4);
}

/**
 * Decodes the v2 batch at `buf[start, end)` (`end` = start + 12 + batchLength,
 * already checked to lie inside the buffer).
 */
export function decodeBatchV2(buf: Buffer, start: number, end: number, options: DecodeRecordsOptions): RecordBatch {
  const baseOffset = buf.readBigInt64BE(start);
  const ctx = { topic: options.topic, partition: options.partition, baseOffset };
  const batchLength = end - start - LOG_OVERHEAD;
  if (batchLength < V2_MIN_BATCH_LENGTH) {
    corrupt(ctx, `batch length ${batchLength} is below the v2 minimum ${V2_MIN_BATCH_LENGTH}`, start);
  }
  const crc = buf.readUInt32BE(start + V2.crc);
  if (options.checkCrc !== false) {
    const actual = crc32c(buf, start + V2.attributes, end);
    if (actual !== crc) {
      corrupt(ctx, `CRC-32C mismatch: stored 0x${crc.toString(16)}, computed 0x${actual.toString(16)}`, start);
    }
  }
  const attributes = buf.readInt16BE(start + V2.attributes);
  const batch = emptyBatch(baseOffset, 2);
  batch.batchLength = batchLength;
  batch.partitionLeaderEpoch = buf.readInt32BE(start + V2.partitionLeaderEpoch);
  batch.crc = crc;
  batch.attributes = attributes;
  batch.compression = attributes & BatchAttributes.compressionMask;
  if (batch.compression > 4) corrupt(ctx, `unknown compression codec ${batch.compression}`, start + V2.attributes);
  batch.timestampType =
    (attributes & BatchAttributes.timestampType) !== 0 ? TimestampType.logAppendTime : TimestampType.createTime;
  batch.isTransactional = (attributes & BatchAttributes.transactional) !== 0;
  batch.isControl = (attributes & BatchAttributes.control) !== 0;
  batch.hasDeleteHorizonMs = (attributes & BatchAttributes.deleteHorizon) !== 0;
  batch.lastOffsetDelta = buf.readInt32BE(start + V2.lastOffsetDelta);
  batch.lastOffset = baseOffset + BigInt(batch.lastOffsetDelta);
  batch.baseTimestamp = readInt64AsNumber(buf, start + V2.baseTimestamp);
  batch.maxTimestamp = readInt64AsNumber(buf, start + V2.maxTimestamp);
  batch.producerId = buf.readBigInt64BE(start + V2.producerId);
  batch.producerEpoch = buf.readInt16BE(start + V2.producerEpoch);
  batch.baseSequence = buf.readInt32BE(start + V2.baseSequence);
  const count = buf.readInt32BE(start + V2.recordCount);

  let records = buf;
  let p = start + V2.headerSize;
  let recordsEnd = end;
  // An empty payload needs no decompressing (and is not valid input for most codecs).
  if (batch.compression !== 0 && end > p) {
    if (count < 0) corrupt(ctx, `negative record count ${count}`, start + V2.recordCount);
    records = decompressRecords(buf.subarray(p, end), batch.compression, options, ctx);
    p = 0;
    recordsEnd = records.length;
  } else if (options.copyOut === true && end > p) {
    // One allocation and one copy per batch, not two per record (measured: docs/ARCHITECTURE.md, "The fetch
    // path"). Below 4 KiB, Node serves it from its shared 8 KiB pool.
    records = Buffer.allocUnsafe(end - p);
    buf.copy(records, 0, p, end);
    p = 0;
    recordsEnd = records.length;
  }
  const logAppend = batch.timestampType === TimestampType.logAppendTime;
  batch.records = decodeRecordsV2(
    records,
    p,
    recordsEnd,
    count,
    baseOffset,
    batch.baseTimestamp,
    logAppend,
    batch.maxTimestamp,
    ctx,
  );
  if (batch.isControl && batch.records.length > 0) batch.controlType = controlTypeOf(batch.records[0], ctx);
  return batch;
}

export function decompressRecords(
  payload: Buffer,
  codec: number,
  options: DecodeRecordsOptions & { magic?: number },
  ctx: RecordsContext & { baseOffset: bigint },
): Buffer {
  try {
    return decompress(codec, payload, { maxDecompressedBytes: options.maxDecompressedBytes, magic: options.magic });
  } catch (err) {
    if (err instanceof DecompressionLimitError) throw err.inBatch(ctx.topic, ctx.partition, ctx.baseOffset);
    if (err instanceof CompressionError) {
      throw new CorruptRecordError(`cannot decompress records: ${err.message}`, ctx, { cause: err });
    }
    throw err;
  }
}
