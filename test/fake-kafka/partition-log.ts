/**
 * One partition of the fake cluster: its log of encoded record batches (offsets assigned on append, as a leader
 * does), log start, high watermark and last stable offset (both the log end: the fake has no replication lag and
 * no open transactions), leadership with the epoch history OffsetForLeaderEpoch answers from, and the idempotent
 * producers' state (Kafka's ProducerStateManager rules, simplified).
 */
import { decodeRecords, encodeRecordBatch, type KafkaRecord, type RecordBatch } from '../../codecs/records/index.js';
import { ErrorCode } from '../../protocol/error-codes.js';

/** An idempotent producer's state on one partition. */
interface ProducerEntry {
  epoch: number;
  lastSequence: number;
  /** The last five appended batches: first and last sequence, base offset (a resend answers with its offset). */
  recent: { first: number; last: number; baseOffset: bigint }[];
}

export interface StoredBatch {
  baseOffset: bigint;
  lastOffset: bigint;
  /** The batch as a Fetch returns it (tests may corrupt it). */
  bytes: Buffer;
}

/** A record of the log, decoded, with the batch it came in. */
export interface LogEntry {
  batch: RecordBatch;
  record: KafkaRecord;
  offset: bigint;
}

export class PartitionLog {
  readonly batches: StoredBatch[] = [];
  logStart = 0n;
  leaderEpoch = 0;
  /** Where each leader epoch's part of the log starts. */
  readonly epochStarts: { epoch: number; start: bigint }[] = [{ epoch: 0, start: 0n }];
  private readonly producers = new Map<bigint, ProducerEntry>();

  constructor(public leader: number) {}

  get logEnd(): bigint {
    return this.batches.length === 0 ? this.logStart : this.batches[this.batches.length - 1].lastOffset + 1n;
  }

  get highWatermark(): bigint {
    return this.logEnd;
  }

  get lastStableOffset(): bigint {
    return this.logEnd;
  }

  /** Appends `count` records (values `v<offset>`) in batches of `perBatch`, written in the current leader epoch. */
  appendValues(count: number, perBatch = 10): void {
    let next = this.logEnd;
    for (let left = count; left > 0; ) {
      const n = Math.min(perBatch, left);
      const records = [...Array(n)].map((_, i) => ({ value: Buffer.from(`v${next + BigInt(i)}`) }));
      const bytes = encodeRecordBatch(records, { baseOffset: next, partitionLeaderEpoch: this.leaderEpoch });
      this.batches.push({ baseOffset: next, lastOffset: next + BigInt(n - 1), bytes });
      next += BigInt(n);
      left -= n;
    }
  }

  /**
   * A produced batch, as the leader appends it: idempotence checks first, then the base offset and leader epoch
   * written into the bytes (neither is covered by the batch CRC). Answers [error code, base offset].
   */
  appendProduced(bytes: Uint8Array): [number, bigint] {
    const [batch] = decodeRecords(Buffer.from(bytes)).batches;
    const next = this.logEnd;
    const refused = this.checkSequence(batch, next);
    if (refused !== undefined) return refused;
    const stored = Buffer.from(bytes);
    stored.writeBigInt64BE(next, 0);
    stored.writeInt32BE(this.leaderEpoch, 12);
    this.batches.push({ baseOffset: next, lastOffset: next + BigInt(batch.records.length - 1), bytes: stored });
    return [0, next];
  }

  /** Kafka's checks for an idempotent append (ProducerAppendInfo), simplified; undefined lets the batch in. */
  private checkSequence(batch: RecordBatch, next: bigint): [number, bigint] | undefined {
    if (batch.producerId < 0n) return undefined;
    const entry = this.producers.get(batch.producerId);
    const first = batch.baseSequence;
    const last = first + batch.records.length - 1;
    if (entry !== undefined) {
      if (batch.producerEpoch < entry.epoch) return [ErrorCode.INVALID_PRODUCER_EPOCH, -1n];
      if (batch.producerEpoch === entry.epoch) {
        const dup = entry.recent.find((r) => r.first === first && r.last === last);
        if (dup !== undefined) return [0, dup.baseOffset];
        if (first !== entry.lastSequence + 1) return [ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, -1n];
      } else if (first !== 0) return [ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, -1n];
    }
    // No state for this producer (new, or expired): Kafka accepts any first sequence.
    const updated: ProducerEntry =
      entry !== undefined && entry.epoch === batch.producerEpoch
        ? entry
        : { epoch: batch.producerEpoch, lastSequence: -1, recent: [] };
    updated.lastSequence = last;
    updated.recent.push({ first, last, baseOffset: next });
    if (updated.recent.length > 5) updated.recent.shift();
    this.producers.set(batch.producerId, updated);
    return undefined;
  }

  /** The log decoded, record by record, in offset order. */
  entries(): LogEntry[] {
    const out: LogEntry[] = [];
    for (const stored of this.batches) {
      for (const batch of decodeRecords(stored.bytes).batches) {
        for (const record of batch.records) out.push({ batch, record, offset: record.offset });
      }
    }
    return out;
  }

  /** Moves leadership; the new leader's epoch is one higher and starts at the current log end. */
  moveTo(leader: number): void {
    this.leader = leader;
    this.leaderEpoch++;
    this.epochStarts.push({ epoch: this.leaderEpoch, start: this.logEnd });
  }
}
