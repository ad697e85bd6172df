import { crc32c } from '../../codecs/crc.js';
import { V2 } from '../../codecs/records/decode-batch.js';
import { NO_PRODUCER_EPOCH, NO_PRODUCER_ID, NO_SEQUENCE } from '../../codecs/records/types.js';
import type { BatchBuffers } from './batch-buffers.js';
import { BatchRecords } from './batch-records.js';
import type { BatchSettings } from './send-options.js';

/** What `send()` resolves with: where the record was written. */
export interface RecordMetadata {
  topic: string;
  partition: number;
  /** -1n with acks 0 (the broker does not answer), or for a duplicate an old broker answered without offset. */
  offset: bigint;
  /** The record's timestamp, or the broker's append time when the topic uses LogAppendTime. */
  timestamp: number;
}

/**
 * `send(record, callback)`: called once, on a later turn of the event loop, with the error that ended the
 * record or with where it was written, as `send()`'s promise would settle.
 */
export type DeliveryCallback = (err: Error | undefined, metadata: RecordMetadata | undefined) => void;

/** What a grouped record settles into: a sendBatch() call or a send() with a callback (send-group.ts). */
export interface RecordGroup {
  delivered(index: number, metadata: RecordMetadata): void;
  failed(err: Error): void;
}

/** A record accepted by `send()`: its bytes resolved, its timestamp fixed, its promise's settlers kept. */
export interface PendingRecord {
  topic: string;
  /** The caller's partition, or -1 until the partitioner has chosen. */
  partition: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: { key: string; value: Buffer | null }[];
  timestamp: number;
  /** Estimated encoded size, counted against the batch size and the buffer memory. */
  size: number;
  /** The send's own acks and compression (send-options.ts); undefined: the producer's. */
  settings?: BatchSettings;
  /** Settle it as methods (`record.resolve(...)`): a grouped record's settlers find their group through `this`. */
  resolve: (metadata: RecordMetadata) => void;
  reject: (err: Error) => void;
  /** The sendBatch() call it belongs to (send-group.ts), and its index there; undefined for a send(). */
  group: RecordGroup | undefined;
  index: number;
}

/** Header of a v2 batch, which every batch pays once. */
export const BATCH_OVERHEAD = V2.headerSize;

/**
 * Records bound for one partition, sent together as one RecordBatch. A batch is open (taking records) until it
 * is drained for its first send; from then on its bytes are fixed, and a retry resends them unchanged, except
 * that idempotence may give them another producer epoch and sequence (patched in place, CRC recomputed).
 */
export class ProducerBatch {
  /** Its records, written into its buffer as they are appended (batch-records.ts). */
  private readonly records: BatchRecords;
  /**
   * What each record rejects with when the batch fails: a transactional producer's view of the failure
   * (TransactionManager.onRecordFailed), set by whoever appends; undefined: the failure itself.
   */
  recordError: ((err: Error) => Error) | undefined;
  /** Estimated encoded size: header plus records. */
  bytes = BATCH_OVERHEAD;
  /** Times sent so far. */
  attempts = 0;
  /** No retry before this (epoch ms). */
  retryAt = 0;
  lastError: unknown;
  /** In a request now, waiting for its response. */
  outstanding = false;
  /** Its last attempt ended without an answer (timeout, lost connection): the broker may have appended it. */
  outcomeUnknown = false;
  /** Some attempt ended without an answer: if the batch fails now, it may still have been written. */
  mayHaveBeenWritten = false;
  done = false;
  producerId = NO_PRODUCER_ID;
  producerEpoch = NO_PRODUCER_EPOCH;
  baseSequence = NO_SEQUENCE;
  /** Written inside a transaction: the batch carries the transactional attribute (set before its first send). */
  transactional = false;
  /**
   * Written inside a Transactions v2 transaction (KIP-890): the broker adds its partition to the transaction
   * itself, so it goes in Produce v12 or later (v11 and below ask for the classic protocol).
   */
  transactionV2 = false;
  private encoded: Buffer | undefined;
  private appendsClosed = false;
  private readonly doneListeners: (() => void)[] = [];

  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly createdAt: number,
    /**
     * Expected compressed size / raw size of its records, so that a compressed batch fills `batchSize` of wire
     * bytes, not of raw bytes (Java's CompressionRatioEstimator). 1 without compression.
     */
    private readonly compressionRatio = 1,
    /** Its records' acks and compression when not the producer's (send-options.ts). */
    readonly settings: BatchSettings | undefined = undefined,
    /** The producer's pool of batch buffers (batch-buffers.ts); none: the batch allocates its own. */
    private readonly buffers: BatchBuffers | undefined = undefined,
  ) {
    this.records = new BatchRecords(buffers);
  }

  /** Bytes of buffer memory its records hold (their sizes), given back when the batch is done. */
  get reservedBytes(): number {
    return this.bytes - BATCH_OVERHEAD;
  }

  get recordCount(): number {
    return this.records.count;
  }

  get hasSequence(): boolean {
    return this.baseSequence !== NO_SEQUENCE;
  }

  /** Whether the batch was ever handed to a broker. */
  get sent(): boolean {
    return this.attempts > 0;
  }

  get isOpen(): boolean {
    return this.encoded === undefined && !this.done;
  }

  /**
   * Adds a record unless it would push the batch past `batchSize` (an empty batch takes any record). A record
   * that does not fit closes the batch for appends: it is full from then on, even if not to the byte.
   */
  tryAppend(record: PendingRecord, batchSize: number): boolean {
    if (!this.isOpen || this.appendsClosed) return false;
    if (this.records.count > 0 && this.estimatedSize(this.bytes + record.size) > batchSize) {
      this.appendsClosed = true;
      return false;
    }
    this.records.append(record);
    this.bytes += record.size;
    return true;
  }

  isFull(batchSize: number): boolean {
    return this.appendsClosed || this.estimatedSize(this.bytes) >= batchSize;
  }

  /** Wire size of a batch with `rawBytes` (header included) once compressed, by the expected ratio. */
  private estimatedSize(rawBytes: number): number {
    return BATCH_OVERHEAD + (rawBytes - BATCH_OVERHEAD) * this.compressionRatio;
  }

  /** The batch's wire bytes, encoded (and compressed) once, at the first send. */
  encode(compression: number, compressionLevel: number | undefined): Buffer {
    if (this.encoded === undefined) {
      this.encoded = this.records.encode(compression, compressionLevel, {
        producerId: this.producerId,
        producerEpoch: this.producerEpoch,
        baseSequence: this.baseSequence,
        transactional: this.transactional,
      });
    }
    return this.encoded;
  }

  /** Encoded size once encoded; the estimate before. */
  get sizeInBytes(): number {
    return this.encoded?.length ?? this.estimatedSize(this.bytes);
  }

  /** Sets the idempotence fields, patching already encoded bytes (header fields sit outside compression). */
  setProducerState(producerId: bigint, producerEpoch: number, baseSequence: number): void {
    this.producerId = producerId;
    this.producerEpoch = producerEpoch;
    this.baseSequence = baseSequence;
    const buf = this.encoded;
    if (buf === undefined) return;
    buf.writeBigInt64BE(producerId, V2.producerId);
    buf.writeInt16BE(producerEpoch, V2.producerEpoch);
    buf.writeInt32BE(baseSequence, V2.baseSequence);
    buf.writeUInt32BE(crc32c(buf, V2.attributes, buf.length), V2.crc);
  }

  /** Two open batches with the first and second half of the records: the answer to MESSAGE_TOO_LARGE. */
  split(): [ProducerBatch, ProducerBatch] {
    const n = this.records.count;
    const half = Math.ceil(n / 2);
    const halve = () =>
      new ProducerBatch(this.topic, this.partition, this.createdAt, this.compressionRatio, this.settings, this.buffers);
    const first = halve();
    const second = halve();
    this.records.moveTo(first.records, 0, half);
    this.records.moveTo(second.records, half, n);
    // The reserved bytes are shared out by raw size, to the byte: the halves give back what this batch holds.
    const reserved = this.reservedBytes;
    const firstReserved = Math.round((reserved * first.records.rawSize) / this.records.rawSize);
    first.bytes += firstReserved;
    second.bytes += reserved - firstReserved;
    // The halves take over: whoever waits for this batch (a flush) waits for both of them.
    let pending = 2;
    for (const b of [first, second]) {
      b.attempts = this.attempts;
      b.transactional = this.transactional;
      b.transactionV2 = this.transactionV2;
      b.recordError = this.recordError;
      b.onDone(() => {
        if (--pending === 0) this.finish();
      });
    }
    return [first, second];
  }

  /**
   * Resolves every record with its offset; `logAppendTime` replaces the timestamps when the topic uses it. Called
   * once the broker answered for the batch (or, with acks 0, once its request was written): its buffer goes back
   * to the pool.
   */
  complete(baseOffset: bigint, logAppendTime: bigint): void {
    if (this.done) return;
    const appendTime = logAppendTime >= 0n ? Number(logAppendTime) : -1;
    this.records.resolveAll(this.topic, this.partition, baseOffset, appendTime);
    this.finish();
    this.records.releaseBuffer();
  }

  fail(err: Error): void {
    if (this.done) return;
    this.records.rejectAll(err, this.recordError);
    this.finish();
  }

  /** Runs `listener` once the batch is done (at once if it is). */
  onDone(listener: () => void): void {
    if (this.done) listener();
    else this.doneListeners.push(listener);
  }

  private finish(): void {
    this.done = true;
    this.encoded = undefined;
    for (const listener of this.doneListeners.splice(0)) listener();
  }
}
