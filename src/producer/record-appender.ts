/**
 * Where an accepted record goes next: its partition chosen (its own, the user's partitioner, murmur2 of its
 * key, or the sticky partition), its bytes reserved in the buffer, and appended to its partition's open batch.
 * A record whose topic's metadata is not known yet, or that finds the buffer full, waits, with every later record
 * behind it, so records leave in `send()` order.
 */
import { TidemarkError } from '../../codecs/errors.js';
import { Deadline, retry } from '../cluster/deadline.js';
import type { TopicMetadata } from '../cluster/metadata.js';
import type { RecordAccumulator } from './accumulator.js';
import type { PendingRecord } from './batch.js';
import type { BufferMemory } from './buffer-memory.js';
import type { TopicView } from './cluster-view.js';
import { InvalidRecordError } from './errors.js';
import { partitionForKey } from './murmur2.js';
import type { ResolvedProducerOptions } from './options.js';
import { StickyPartitioner } from './partitioner.js';
import { copyPendingRecord } from './record-input.js';
import type { Sender } from './sender.js';
import type { TransactionManager } from './transaction-manager.js';
import { settleWaiters, WaitingRecords } from './waiting-records.js';

export interface RecordAppenderParts {
  options: Readonly<ResolvedProducerOptions>;
  topics: TopicView;
  memory: BufferMemory;
  accumulator: RecordAccumulator;
  sender: Sender;
  transactions: TransactionManager | undefined;
  /** Called when the waiting records are all appended (or failed): backpressure may be over. */
  onWaitingDrained: () => void;
}

export class RecordAppender {
  /** Records waiting for their topic's metadata or for buffer room, in `send()` order. */
  readonly waiting = new WaitingRecords();
  /** Set when a close timed out: records still waiting fail instead of being appended. */
  abandoned: Error | undefined;
  private readonly sticky: StickyPartitioner;

  constructor(private readonly parts: RecordAppenderParts) {
    this.sticky = new StickyPartitioner(parts.options.batchSize);
    const transactions = parts.transactions;
    if (transactions !== undefined) this.recordError = (err) => transactions.onRecordFailed(err) as Error;
  }

  /**
   * Appends a record with its settlers attached, or queues it behind the records waiting. `reused`: `pending`
   * is the producer's reused PendingRecord, refilled by the next send, so a record that waits is queued as a copy.
   */
  submit(pending: PendingRecord, now: number, reused: boolean): void {
    try {
      if (this.waiting.length === 0 && this.appendNow(pending, now)) return;
      this.waiting.push(reused ? copyPendingRecord(pending) : pending, now);
      if (this.waiting.length === 1) void this.appendWaiting();
    } catch (err) {
      // A throwing partitioner rejects this send, as it did when appending ran inside the executor.
      this.reject(pending, err as Error);
    }
  }

  /** Rejects a record not appended to a batch: a transactional producer first learns of the failure. */
  reject(record: PendingRecord, err: Error): void {
    record.reject(this.recordError === undefined ? err : this.recordError(err));
  }

  /** How a transactional producer sees a record's failure (the fatal error when it is one); batches use it too. */
  private readonly recordError: ((err: Error) => Error) | undefined;

  private appendNow(record: PendingRecord, now: number): boolean {
    const metadata = this.parts.topics.get(record.topic, now);
    if (metadata === undefined || !this.parts.memory.tryReserve(record.size)) return false;
    this.append(record, metadata, now);
    return true;
  }

  /**
   * Appends waiting records in order, each once its topic is known and the buffer has room for it. Records
   * whose topic is known and that fit are appended without a pause, so a burst queued behind a first metadata
   * lookup goes in one pass.
   */
  private async appendWaiting(): Promise<void> {
    for (let w = this.waiting.first(); w !== undefined; w = this.waiting.first()) {
      const { record } = w;
      try {
        if (this.abandoned !== undefined) throw this.abandoned;
        const metadata = this.parts.topics.get(record.topic) ?? (await this.awaitMetadata(record.topic, w.since));
        if (!this.parts.memory.tryReserve(record.size)) {
          await this.parts.memory.reserve(
            record.size,
            Math.max(0, w.since + this.parts.options.maxBlockMs - Date.now()),
          );
          if (this.abandoned !== undefined) {
            this.parts.memory.release(record.size);
            throw this.abandoned;
          }
        }
        this.append(record, metadata, Date.now());
      } catch (err) {
        this.reject(record, err instanceof Error ? err : new TidemarkError(String(err)));
      }
      this.waiting.shift();
      settleWaiters(w);
    }
    this.parts.onWaitingDrained();
  }

  /** The topic's metadata, retried (an unknown topic may be being created) until `maxBlockMs` after `since`. */
  private awaitMetadata(topic: string, since: number): Promise<TopicMetadata> {
    const o = this.parts.options;
    const deadline = new Deadline(`metadata for topic ${topic}`, Math.max(0, since + o.maxBlockMs - Date.now()));
    return retry(deadline, () => this.parts.topics.load(topic), {
      backoff: { initialMs: o.retryBackoffMs, maxMs: o.retryBackoffMaxMs },
    });
  }

  private append(record: PendingRecord, metadata: TopicMetadata, now: number): void {
    const { topic } = record;
    const o = this.parts.options;
    const partitions = metadata.partitions;
    const count = partitions.length;
    let partition = record.partition;
    if (partition < 0 && o.partitioner !== undefined) {
      partition = o.partitioner({ topic, key: record.key, value: record.value, partitionCount: count }) ?? -1;
    }
    const sticky = partition < 0 && record.key === null;
    if (partition < 0) {
      partition = record.key === null ? this.sticky.partition(topic, partitions) : partitionForKey(record.key, count);
    }
    if (!Number.isInteger(partition) || partition >= count) {
      this.parts.memory.release(record.size);
      this.reject(
        record,
        new InvalidRecordError(`partition ${partition} is not in topic ${topic} (${count} partitions)`, topic),
      );
      return;
    }
    record.partition = partition;
    this.parts.transactions?.maybeAdd(topic, partition);
    const result = this.parts.accumulator.append(record, now);
    if (result.newBatch) result.batch.recordError = this.recordError;
    if (sticky) this.sticky.onAppend(topic, partition, record.size, result.switchAllowed, partitions);
    if (result.full || o.lingerMs === 0) this.parts.sender.wake();
    else if (result.newBatch) this.parts.sender.wakeAt(now + o.lingerMs);
  }
}
