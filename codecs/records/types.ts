import { decodeCheckedHeaders, type RecordHeader, UndecodedHeaders } from './headers.js';

/** Bits of a RecordBatch v2 `attributes` int16 (legacy messages use the first four). */
export const BatchAttributes = {
  compressionMask: 0x07,
  timestampType: 0x08,
  transactional: 0x10,
  control: 0x20,
  deleteHorizon: 0x40,
} as const;

/** How a batch's timestamps were assigned: by the producer, or by the broker on append. */
export const TimestampType = {
  createTime: 0,
  logAppendTime: 1,
} as const;
export type TimestampTypeId = (typeof TimestampType)[keyof typeof TimestampType];

/**
 * The `type` in a control record's key (Kafka's ControlRecordType). The
 * consumer acts on commit/abort markers and hides all of them from users.
 */
export const ControlRecordType = {
  abort: 0,
  commit: 1,
  leaderChange: 2,
  snapshotHeader: 3,
  snapshotFooter: 4,
  kraftVersion: 5,
  kraftVoters: 6,
} as const;

/** Kafka's sentinel for "no producer id / epoch / sequence" and "no timestamp". */
export const NO_PRODUCER_ID = -1n;
export const NO_PRODUCER_EPOCH = -1;
export const NO_SEQUENCE = -1;
export const NO_PARTITION_LEADER_EPOCH = -1;
export const NO_TIMESTAMP = -1;

export { EMPTY_HEADERS, type RecordHeader } from './headers.js';

/**
 * What every record of one batch takes its offset and timestamp from: made once per batch by the decoder.
 * Under LogAppendTime every record's timestamp is the batch's maxTimestamp (the broker's append time), as
 * Kafka's own reader has it.
 */
export class RecordBatchBase {
  constructor(
    readonly baseOffset: bigint,
    readonly baseTimestamp: number,
    readonly logAppendTime: boolean,
    readonly maxTimestamp: number,
  ) {}
}

/**
 * One consumed record. Per record the decoder stores small numbers and two
 * views only: the exact int64 offset is the batch's `baseOffset` (one bigint
 * shared by all its records) plus `offsetDelta`, added on demand by the
 * `offset` getter, so records nobody asks the offset of cost no BigInt; the
 * timestamp is likewise the batch's base plus `timestampDelta`, added by the
 * `timestamp` getter, because a millisecond timestamp is no small integer and
 * V8 would box it in a heap number of its own for every record (16 bytes and
 * an allocation each; bench/results/decode-hot.md). One class with a fixed
 * field order keeps record objects monomorphic.
 *
 * Key and value are made eagerly: lazily made views (positions stored,
 * view built in a getter) measured ~10% faster when only the value is read
 * but slower when both are (1.05-1.18x the CPU, re-measured with the
 * per-batch base: bench/results/decode-hot.md), and plain fields are simpler
 * to log, spread and copy. Headers are the exception: the decoder checks them and
 * keeps one view of their bytes; the strings, views and objects are made on
 * the first read of `headers` (bench/results/decode.md, "Lazy headers").
 */
export class KafkaRecord {
  /**
   * The decoded headers, or where their still undecoded bytes are. One field, so a record without headers
   * is no bigger than when headers were decoded eagerly: three per-record fields for the lazy case made
   * every record 12 bytes bigger and the fetch path 5 % more allocation (bench/results/regression.md).
   */
  private headerState: readonly RecordHeader[] | UndecodedHeaders;

  constructor(
    /** The enclosing batch's base offset and timestamps (one object per batch, shared by its records). */
    readonly batchBase: RecordBatchBase,
    readonly offsetDelta: number,
    /** Milliseconds after the batch's base timestamp, as written (unused under LogAppendTime). */
    readonly timestampDelta: number,
    /** Views into the fetched (or decompressed) bytes, no copies; null when the length was -1. */
    readonly key: Buffer | null,
    readonly value: Buffer | null,
    /**
     * The headers, or (from the decoder, for a record that has some: an UndecodedHeaders, written out here so
     * the public type names no internal class) where their checked bytes are, decoded on first read. The
     * constructor only stores it, so the decoder's hot loop can inline it.
     */
    headers: readonly RecordHeader[] | { readonly source: Buffer; at: number },
  ) {
    this.headerState = headers;
  }

  /**
   * The record's headers, in wire order, decoded from the fetched bytes when read. Equal contents on every
   * read; the array is the same object from the second read on (the first read's is not kept).
   */
  get headers(): readonly RecordHeader[] {
    const state = this.headerState;
    if (!(state instanceof UndecodedHeaders)) return state;
    // The first read decodes without keeping the result: storing a fresh array into a record that has
    // already been promoted to the old generation costs a write barrier and keeps the array alive past
    // the next scavenge, which measured the lazy read at 0.40-0.67x the eager decoder against 0.99x
    // without it (bench/results/decode.md, "Lazy headers"). Marking the read is a small-integer
    // store, which costs neither. A second read (a loop over `headers[i]`) keeps the result.
    if (state.at >= 0) {
      const at = state.at;
      state.at = -1 - at;
      return decodeCheckedHeaders(state.source, at);
    }
    const list = decodeCheckedHeaders(state.source, -1 - state.at);
    this.headerState = list;
    return list;
  }

  /** The enclosing batch's base offset. */
  get baseOffset(): bigint {
    return this.batchBase.baseOffset;
  }

  /** Milliseconds since the epoch; -1 when the producer set none (magic 0). */
  get timestamp(): number {
    const base = this.batchBase;
    return base.logAppendTime ? base.maxTimestamp : base.baseTimestamp + this.timestampDelta;
  }

  /** The record's exact offset in the partition. */
  get offset(): bigint {
    return this.batchBase.baseOffset + BigInt(this.offsetDelta);
  }
}

/**
 * A record batch (magic 2) or a legacy message set entry (magic 0/1: one
 * shallow message, which for a compressed wrapper holds many records).
 * Legacy entries report the v2 sentinels for fields they do not have.
 */
export interface RecordBatch {
  baseOffset: bigint;
  /** Offset of the last record the producer wrote into the batch (compaction may have removed it). */
  lastOffset: bigint;
  /** Bytes of the batch after the 12-byte offset + length prefix. */
  batchLength: number;
  partitionLeaderEpoch: number;
  magic: number;
  /** The stored checksum: CRC-32C for magic 2, CRC-32 for magic 0/1. */
  crc: number;
  attributes: number;
  /** Codec id (0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd). */
  compression: number;
  timestampType: TimestampTypeId;
  isTransactional: boolean;
  /** A control batch (transaction marker etc.): its records are not user data. */
  isControl: boolean;
  /** ControlRecordType of the batch's control record, or -1 when not a control batch. */
  controlType: number;
  hasDeleteHorizonMs: boolean;
  lastOffsetDelta: number;
  baseTimestamp: number;
  maxTimestamp: number;
  producerId: bigint;
  producerEpoch: number;
  baseSequence: number;
  records: KafkaRecord[];
}

/** A batch with every field at its "absent" value, filled in by the decoders. */
export function emptyBatch(baseOffset: bigint, magic: number): RecordBatch {
  return {
    baseOffset,
    lastOffset: baseOffset,
    batchLength: 0,
    partitionLeaderEpoch: NO_PARTITION_LEADER_EPOCH,
    magic,
    crc: 0,
    attributes: 0,
    compression: 0,
    timestampType: TimestampType.createTime,
    isTransactional: false,
    isControl: false,
    controlType: -1,
    hasDeleteHorizonMs: false,
    lastOffsetDelta: 0,
    baseTimestamp: NO_TIMESTAMP,
    maxTimestamp: NO_TIMESTAMP,
    producerId: NO_PRODUCER_ID,
    producerEpoch: NO_PRODUCER_EPOCH,
    baseSequence: NO_SEQUENCE,
    records: [],
  };
}
