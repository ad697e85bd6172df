import { type CompressionCodecId, compress } from '../compression/index.js';
import { crc32c } from '../crc.js';
import { ProtocolError } from '../errors.js';
import { encodeControlKey, encodeEndTxnMarker } from './control.js';
import { LOG_OVERHEAD, V2 } from './decode-batch.js';
import { encodedRecordSize, prepareRecord, type RecordInput, writeRecord } from './encode-records.js';
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

/** Encodes one RecordBatch v2 (magic 2), CRC-32C included. */
export function encodeRecordBatch(records: readonly RecordInput[], options: EncodeBatchOptions = {}): Buffer {
  const now = options.now ?? Date.now();
  const firstTimestamp = records.length === 0 ? NO_TIMESTAMP : (records[0].timestamp ?? now);
  const hasDeleteHorizon = options.deleteHorizonMs !== undefined;
  const baseTimestamp = options.deleteHorizonMs ?? options.baseTimestamp ?? firstTimestamp;

  let recordsSize = 0;
  let maxTimestamp = NO_TIMESTAMP;
  let lastOffsetDelta = -1;
  const prepared = records.map((input, i) => {
    const r = prepareRecord(input, i, baseTimestamp, now);
    if (r.offsetDelta <= lastOffsetDelta) {
      throw new ProtocolError(`record ${i} has offsetDelta ${r.offsetDelta}, not above ${lastOffsetDelta}`);
    }
    lastOffsetDelta = r.offsetDelta;
    maxTimestamp = Math.max(maxTimestamp, baseTimestamp + r.timestampDelta);
    recordsSize += encodedRecordSize(r);
    return r;
  });

  const codec = options.compression ?? 0;
  let out: Buffer;
  if (codec === 0) {
    out = Buffer.allocUnsafe(V2.headerSize + recordsSize);
    let p: number = V2.headerSize;
    for (const r of prepared) p = writeRecord(out, p, r);
  } else {
    const raw = Buffer.allocUnsafe(recordsSize);
    let p = 0;
    for (const r of prepared) p = writeRecord(raw, p, r);
    const payload = compress(codec, raw, { level: options.compressionLevel, magic: 2 });
    out = Buffer.allocUnsafe(V2.headerSize + payload.length);
    out.set(payload, V2.headerSize);
  }

  let attributes = codec;
  if (options.timestampType === TimestampType.logAppendTime) attributes |= BatchAttributes.timestampType;
  if (options.transactional === true) attributes |= BatchAttributes.transactional;
  if (options.control === true) attributes |= BatchAttributes.control;
  if (hasDeleteHorizon) attributes |= BatchAttributes.deleteHorizon;

  out.writeBigInt64BE(options.baseOffset ?? 0n, 0);
  out.writeInt32BE(out.length - LOG_OVERHEAD, V2.batchLength);
  out.writeInt32BE(options.partitionLeaderEpoch ?? NO_PARTITION_LEADER_EPOCH, V2.partitionLeaderEpoch);
  out[V2.magic] = 2;
  out.writeInt16BE(attributes, V2.attributes);
  out.writeInt32BE(Math.max(lastOffsetDelta, 0), V2.lastOffsetDelta);
  writeInt64(out, baseTimestamp, V2.baseTimestamp);
  writeInt64(out, options.maxTimestamp ?? maxTimestamp, V2.maxTimestamp);
  out.writeBigInt64BE(options.producerId ?? NO_PRODUCER_ID, V2.producerId);
  out.writeInt16BE(options.producerEpoch ?? NO_PRODUCER_EPOCH, V2.producerEpoch);
  out.writeInt32BE(options.baseSequence ?? NO_SEQUENCE, V2.baseSequence);
  out.writeInt32BE(records.length, V2.recordCount);
  out.writeUInt32BE(crc32c(out, V2.attributes, out.length), V2.crc);
  return out;
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
