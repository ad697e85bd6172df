import { type CompressionCodecId, compress } from '../compression/index.js';
import { crc32c } from '../crc.js';
import { ProtocolError } from '../errors.js';
import { encodeControlKey, encodeEndTxnMarker } from './control.js';
import { LOG_OVERHEAD, V2 } from './decode-batch.js';
import {
  isPlainRecord,
  type PreparedRecord,
  plainRecordBodySize,
  prepareRecord,
  type RecordInput,
  varintSize,
  writePlainRecord,
  writeRecord,
} from './encode-records.js';
import {
  BatchAttributes,
  NO_PARTITION_LEADER_EPOCH,
  NO_PRODUCER_EPOCH,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  NO_TIMESTAMP,
  TimestampType,
  type TimestampTypeId,
} from './types.js';

export interface EncodeBatchOptions {
  /** Producers send 0; the broker assigns real offsets. */
  baseOffset?: bigint;
  partitionLeaderEpoch?: number;
  compression?: CompressionCodecId;
  /** Codec level (gzip 1-9, zstd 1-22). */
  compressionLevel?: number;
  timestampType?: TimestampTypeId;
  /** Idempotent / transactional producer fields; -1 (none) by default. */
  producerId?: bigint;
  producerEpoch?: number;
  baseSequence?: number;
  transactional?: boolean;
  control?: boolean;
  /** Defaults to the first record's timestamp, as Kafka's builder does. */
  baseTimestamp?: number;
  /** Defaults to the largest record timestamp (brokers set it for LogAppendTime). */
  maxTimestamp?: number;
  /** Sets attribute bit 6 and stores the horizon in baseTimestamp (KIP-534; written by log cleaning). */
  deleteHorizonMs?: number;
  /** Timestamp for records that have none; defaults to Date.now(). */
  now?: number;
}

/**
 * Per-record sizes of the batch being encoded (body size, timestamp delta, offset delta), kept between calls:
 * encoding is synchronous, so one set serves every batch.
 */
let columnScratch = new Float64Array(3 * 1024);

function scratchColumns(records: number): Float64Array {
  if (columnScratch.length < 3 * records)
    columnScratch = new Float64Array(Math.max(3 * records, 2 * columnScratch.length));
  return columnScratch;
}

/** Raw sections up to this size are written into reused scratch memory before compression. */
const SCRATCH_RAW_LIMIT = 1024 * 1024;
let rawScratch = Buffer.allocUnsafe(0);

function scratchRaw(size: number): Buffer {
  if (size > SCRATCH_RAW_LIMIT) return Buffer.allocUnsafe(size);
  if (rawScratch.length < size)
    rawScratch = Buffer.allocUnsafe(Math.min(SCRATCH_RAW_LIMIT, Math.max(size, 2 * rawScratch.length)));
  return rawScratch.subarray(0, size);
}

/** Encodes one RecordBatch v2 (magic 2), CRC-32C included. */
export function encodeRecordBatch(records: readonly RecordInput[], options: EncodeBatchOptions = {}): Buffer {
  const now = options.now ?? Date.now();
  const firstTimestamp = records.length === 0 ? NO_TIMESTAMP : (records[0].timestamp ?? now);
  const hasDeleteHorizon = options.deleteHorizonMs !== undefined;
  const baseTimestamp = options.deleteHorizonMs ?? options.baseTimestamp ?? firstTimestamp;

  // Pass 1 sizes every record: a plain one into the scratch columns, any other into a prepared copy.
  const n = records.length;
  const columns = scratchColumns(n);
  let prepared: (PreparedRecord | undefined)[] | undefined;
  let recordsSize = 0;
  let maxTimestamp = NO_TIMESTAMP;
  let lastOffsetDelta = -1;
  for (let i = 0; i < n; i++) {
    const input = records[i];
    let offsetDelta: number;
    let timestampDelta: number;
    let bodySize: number;
    if (isPlainRecord(input)) {
      timestampDelta = (input.timestamp ?? now) - baseTimestamp;
      offsetDelta = input.offsetDelta ?? i;
      bodySize = plainRecordBodySize(input, timestampDelta, offsetDelta);
    } else {
      const r = prepareRecord(input, i, baseTimestamp, now);
      prepared ??= [];
      prepared[i] = r;
      ({ timestampDelta, offsetDelta, bodySize } = r);
    }
    if (offsetDelta <= lastOffsetDelta) {
      throw new ProtocolError(`record ${i} has offsetDelta ${offsetDelta}, not above ${lastOffsetDelta}`);
    }
    lastOffsetDelta = offsetDelta;
    if (baseTimestamp + timestampDelta > maxTimestamp) maxTimestamp = baseTimestamp + timestampDelta;
    columns[3 * i] = bodySize;
    columns[3 * i + 1] = timestampDelta;
    columns[3 * i + 2] = offsetDelta;
    recordsSize += varintSize(bodySize) + bodySize;
  }
  const writeRecords = (buf: Uint8Array, p: number): void => {
    for (let i = 0; i < n; i++) {
      const r = prepared?.[i];
      p =
        r === undefined
          ? writePlainRecord(buf, p, records[i], columns[3 * i], columns[3 * i + 1], columns[3 * i + 2])
          : writeRecord(buf, p, r);
    }
  };

  const codec = options.compression ?? 0;
  let out: Buffer;
  if (codec === 0) {
    out = Buffer.allocUnsafe(V2.headerSize + recordsSize);
    writeRecords(out, V2.headerSize);
  } else {
    // The raw section only feeds the compressor (every codec returns new bytes): scratch memory, reused.
    const raw = scratchRaw(recordsSize);
    writeRecords(raw, 0);
    const payload = compress(codec, raw, { level: options.compressionLevel, magic: 2 });
    out = Buffer.allocUnsafe(V2.headerSize + payload.length);
    out.set(payload, V2.headerSize);
  }

  writeBatchHeader(out, codec, n, {
    ...options,
    baseTimestamp,
    maxTimestamp: options.maxTimestamp ?? maxTimestamp,
    lastOffsetDelta: Math.max(lastOffsetDelta, 0),
    deleteHorizon: hasDeleteHorizon,
  });
  return out;
}

/** What the v2 header says beyond the codec and record count, as encodeRecordBatch resolves it. */
export interface BatchHeaderFields extends EncodeBatchOptions {
  baseTimestamp: number;
  maxTimestamp: number;
  lastOffsetDelta: number;
  deleteHorizon?: boolean;
}

/**
 * Fills the 61-byte v2 header at the start of `out` (records already after it) and its CRC-32C. Shared by
 * encodeRecordBatch and the producer, which writes its records into the batch's buffer as they are appended.
 */
export function writeBatchHeader(out: Buffer, codec: number, recordCount: number, h: BatchHeaderFields): void {
  let attributes = codec;
  if (h.timestampType === TimestampType.logAppendTime) attributes |= BatchAttributes.timestampType;
  if (h.transactional === true) attributes |= BatchAttributes.transactional;
  if (h.control === true) attributes |= BatchAttributes.control;
  if (h.deleteHorizon === true) attributes |= BatchAttributes.deleteHorizon;

  out.writeBigInt64BE(h.baseOffset ?? 0n, 0);
  out.writeInt32BE(out.length - LOG_OVERHEAD, V2.batchLength);
  out.writeInt32BE(h.partitionLeaderEpoch ?? NO_PARTITION_LEADER_EPOCH, V2.partitionLeaderEpoch);
  out[V2.magic] = 2;
  out.writeInt16BE(attributes, V2.attributes);
  out.writeInt32BE(h.lastOffsetDelta, V2.lastOffsetDelta);
  writeInt64(out, h.baseTimestamp, V2.baseTimestamp);
  writeInt64(out, h.maxTimestamp, V2.maxTimestamp);
  out.writeBigInt64BE(h.producerId ?? NO_PRODUCER_ID, V2.producerId);
  out.writeInt16BE(h.producerEpoch ?? NO_PRODUCER_EPOCH, V2.producerEpoch);
  out.writeInt32BE(h.baseSequence ?? NO_SEQUENCE, V2.baseSequence);
  out.writeInt32BE(recordCount, V2.recordCount);
  out.writeUInt32BE(crc32c(out, V2.attributes, out.length), V2.crc);
}

/** int64 from a number (exact within ±2^53, which any ms timestamp is). */
function writeInt64(buf: Buffer, v: number, at: number): void {
  buf.writeBigInt64BE(BigInt(v), at);
}

export interface ControlBatchOptions {
  type: number;
  producerId: bigint;
  producerEpoch: number;
  /** For commit/abort markers: the transaction coordinator's epoch. */
  coordinatorEpoch?: number;
  baseOffset?: bigint;
  partitionLeaderEpoch?: number;
  timestamp?: number;
}

/**
 * A control batch with one control record, laid out as brokers write
 * transaction markers (transactional + control attributes). Clients never
 * produce these; tests and tools need them.
 */
export function encodeControlBatch(options: ControlBatchOptions): Buffer {
  return encodeRecordBatch(
    [
      {
        key: encodeControlKey(options.type),
        value: encodeEndTxnMarker(options.coordinatorEpoch ?? 0),
        timestamp: options.timestamp,
      },
    ],
    {
      baseOffset: options.baseOffset,
      partitionLeaderEpoch: options.partitionLeaderEpoch,
      producerId: options.producerId,
      producerEpoch: options.producerEpoch,
      transactional: true,
      control: true,
      now: options.timestamp,
    },
  );
}
