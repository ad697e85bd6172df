/**
 * The consumer's two loops over the shared delivery cursor (delivery.ts): `for await (const batch of consumer)`
 * and `for await (const record of consumer.records())`. The record loop walks the batch loop's batches, so
 * ownership of the cursor, stop requests and giving up a batch unfinished are written once, in BatchIterator.
 */
import type { ConsumerBatch, ConsumerRecord } from './consumer-record.js';
import type { DeliveredBatch } from './delivered-batch.js';
import type { Delivery } from './delivery.js';

/**
 * `for await (const batch of consumer)`: one partition's records per step. Asking for the next batch is what
 * marks the previous one processed; leaving the loop early (break, throw, return) leaves it unprocessed, and
 * the partition goes back to its first unprocessed record (`batch.ack(record)` marks progress inside a batch).
 */
export class BatchIterator implements AsyncIterableIterator<ConsumerBatch> {
  private finished = false;
  /** The batch this iterator handed out last. */
  private last: DeliveredBatch | undefined;

  constructor(
    private readonly delivery: Delivery,
    private readonly signal: AbortSignal | undefined,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The batch this iterator handed out, while the application still holds it (not finished or given up). */
  get inHand(): DeliveredBatch | undefined {
    const held = this.delivery.inHand;
    return held !== undefined && held === this.last ? held : undefined;
  }

  async next(): Promise<IteratorResult<ConsumerBatch>> {
    const batch = await this.nextBatch();
    return batch === undefined ? { done: true, value: undefined } : { done: false, value: batch };
  }

  /** The next batch (the one in hand counts as processed now); undefined once the consumer is closed. */
  async nextBatch(): Promise<DeliveredBatch | undefined> {
    if (this.finished) return undefined;
    this.delivery.acquire(this);
    let batch: DeliveredBatch | undefined;
    try {
      batch = await this.delivery.next(this.signal);
    } catch (err) {
      // for-await does not call return() after next() throws: let go here, so a later loop can start.
      this.last = undefined;
      this.delivery.releaseOwner(this);
      throw err;
    }
    if (batch === undefined) {
      this.end();
      return undefined;
    }
    this.last = batch;
    return batch;
  }

  /** Gives up the batch in hand unfinished: its partition goes back to its first unprocessed record. */
  abandon(): void {
    if (this.inHand !== undefined) this.delivery.abandon();
  }

  async return(): Promise<IteratorResult<ConsumerBatch>> {
    if (!this.finished) this.abandon();
    this.end();
    return { done: true, value: undefined };
  }

  private end(): void {
    this.finished = true;
    this.last = undefined;
    this.delivery.releaseOwner(this);
  }
}

/**
 * `for await (const record of consumer.records())`: one record per step. Asking for the next record marks the
 * previous one processed, so a consumer stopped in the middle of a batch commits exactly up to the last record
 * whose loop body returned, and a restart begins at the first one that had not.
 */
export class RecordIterator implements AsyncIterableIterator<ConsumerRecord> {
  private readonly batches: BatchIterator;
  private batch: DeliveredBatch | undefined;
  private index = 0;

  constructor(
    private readonly delivery: Delivery,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.batches = new BatchIterator(delivery, signal);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<ConsumerRecord>> {
    const batch = this.batch;
    if (batch !== undefined) {
      // Under explicit acks only batch.ack() marks progress (explicit-ack.ts).
      if (this.index > 0 && !this.delivery.explicitAck) batch.recordDone(batch.records[this.index - 1]);
      // A stop request ends at this record: the rest of the batch goes back unprocessed, to be read again, and
      // the batch loop's next step rejects with the signal's reason.
      if (this.signal?.aborted) this.batches.abandon();
      // A batch sought away from (or revoked) mid-way is not read on: its remaining records are void.
      else if (this.index < batch.records.length && batch.current && this.batches.inHand === batch) {
        return { done: false, value: batch.records[this.index++] };
      }
    }
    this.batch = undefined;
    const next = await this.batches.nextBatch();
    if (next === undefined) return { done: true, value: undefined };
    this.batch = next;
    this.index = 1;
    return { done: false, value: next.records[0] };
  }

  async return(): Promise<IteratorResult<ConsumerRecord>> {
    this.batch = undefined;
    await this.batches.return();
    return { done: true, value: undefined };
  }
}
