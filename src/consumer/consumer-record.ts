import { inspect } from 'node:util';
import type { KafkaRecord, RecordHeader } from '../../codecs/records/types.js';

/**
 * What every record of one record batch shares: where it came from. One of these per decoded batch (about a
 * hundred records), so records carry topic, partition and leader epoch for the price of one pointer each.
 */
export class RecordSource {
  constructor(
    readonly topic: string,
    readonly partition: number,
    /** The batch's partition leader epoch (-1 for legacy messages), committed with the offset (KIP-320). */
    readonly leaderEpoch: number,
  ) {}
}

/**
 * One consumed record. A thin view over the decoder's KafkaRecord (whose key and value are views into the
 * fetched bytes) plus the batch it came from: two pointers per record, no copies. The exact int64 offset is
 * made on demand, so records whose offset nobody reads cost no BigInt.
 */
export class ConsumerRecord {
  constructor(
    private readonly source: RecordSource,
    private readonly record: KafkaRecord,
  ) {}

  get topic(): string {
    return this.source.topic;
  }

  get partition(): number {
    return this.source.partition;
  }

  /** The record's offset in the partition. */
  get offset(): bigint {
    return this.record.offset;
  }

  /** The leader epoch of the batch the record was written in; -1 when unknown (legacy message formats). */
  get leaderEpoch(): number {
    return this.source.leaderEpoch;
  }

  /** Milliseconds since the epoch (create time or log-append time, as the topic is configured); -1 for none. */
  get timestamp(): number {
    return this.record.timestamp;
  }

  /** A view into the fetched bytes; null for a null key. */
  get key(): Buffer | null {
    return this.record.key;
  }

  /** A view into the fetched bytes; null for a tombstone. */
  get value(): Buffer | null {
    return this.record.value;
  }

  get headers(): readonly RecordHeader[] {
    return this.record.headers;
  }

  /** The offset within its batch, as a number: cheap ordering inside one batch without a BigInt. */
  get offsetDelta(): number {
    return this.record.offsetDelta;
  }

  /** The offset after this one, as the commit of "this record is done" stores it. */
  nextOffset(): bigint {
    return this.record.baseOffset + BigInt(this.record.offsetDelta + 1);
  }

  toJSON(): Record<string, unknown> {
    return {
      topic: this.topic,
      partition: this.partition,
      offset: String(this.offset),
      leaderEpoch: this.leaderEpoch,
      timestamp: this.timestamp,
      key: this.key?.toString('base64') ?? null,
      value: this.value?.toString('base64') ?? null,
      headers: this.headers.map((h) => ({ key: h.key, value: h.value?.toString('base64') ?? null })),
    };
  }

  [inspect.custom](): object {
    const { topic, partition, offset, leaderEpoch, timestamp, key, value, headers } = this;
    return { topic, partition, offset, leaderEpoch, timestamp, key, value, headers };
  }
}

/**
 * Consecutive records of one partition, in offset order, as `for await (const batch of consumer)` hands them
 * out: whole record batches of one fetch, about 32 KiB or 256 records of them at a time (a fetched chunk is
 * decoded a slice at a time, so decoded records die young). Transaction markers and records of aborted
 * transactions (read_committed) are already gone, so offsets may have gaps; `nextOffset` is where the partition
 * continues. A slice holding nothing else (say the commit marker after a slice that ended at its record count)
 * hands out no batch: the partition counts as processed through it and `consumer.position()` moves past it, so
 * to read up to an end offset, compare that with `position()`, not with the last batch's `nextOffset`.
 */
export interface ConsumerBatch {
  readonly topic: string;
  readonly partition: number;
  readonly records: readonly ConsumerRecord[];
  /** The offset after the last record this fetch covered (markers and aborted records included). */
  readonly nextOffset: bigint;
  /** The partition's high watermark when fetched: the offset after the last fully replicated record. */
  readonly highWatermark: bigint;
  /** The last stable offset (read_committed reads up to it); -1 when the broker did not say. */
  readonly lastStableOffset: bigint;
  /** The log start offset; -1 when the broker did not say. */
  readonly logStartOffset: bigint;
  /** How far this batch's end is behind the log end the broker reported (high watermark, or LSO with read_committed). */
  readonly lag: bigint;
  /**
   * Marks records as processed before the loop body returns: `ack()` the whole batch, `ack(record)` everything
   * up to and including `record`. Processed offsets are what commits store.
   */
  ack(record?: ConsumerRecord): void;
}
