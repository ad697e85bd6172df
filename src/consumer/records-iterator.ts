import type { ConsumerBatch, ConsumerRecord } from './consumer-record.js';
import type { DeliveredBatch, Delivery } from './delivery.js';

/**
 * `for await (const batch of consumer)`: one partition's records per step. Asking for the next batch is what
 * marks the previous one processed; leaving the loop early (break, throw, return) leaves it unprocessed, and
 * the partition goes back to its first unprocessed record (`batch.ack(record)` marks progress inside a batch).
 */
export class BatchIterator implements AsyncIterableIterator<ConsumerBatch> {
  private finished = false;

  constructor(
    private readonly delivery: Delivery,
    private readonly signal: AbortSignal | undefined,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<ConsumerBatch>> {
    if (this.finished) return { done: true, value: undefined };
    this.delivery.acquire(this);
    let batch: DeliveredBatch | undefined;
    try {
      batch = await this.delivery.next(this.signal);
    } catch (err) {
      // for-await does not call return() after next() throws: let go here, so a later loop can start.
      this.delivery.releaseOwner(this);
      throw err;
    }
    if (batch === undefined) return this.end();
    return { done: false, value: batch };
  }

  async return(): Promise<IteratorResult<ConsumerBatch>> {
    if (!this.finished) this.delivery.abandon();
    return this.end();
  }

  private end(): IteratorResult<ConsumerBatch> {
    this.finished = true;
    this.delivery.releaseOwner(this);
    return { done: true, value: undefined };
  }
}

/**
 * `for await (const record of consumer.records())`: one record per step. Asking for the next record marks the
 * previous one processed, so a consumer stopped in the middle of a batch commits exactly up to the last record
 * whose loop body returned, and a restart begins at the first one that had not.
 */
export class RecordIterator implements AsyncIterableIterator<ConsumerRecord> {
  private batch: DeliveredBatch | undefined;
  private index = 0;
  private finished = false;

  constructor(
    private readonly delivery: Delivery,
    private readonly signal: AbortSignal | undefined,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<ConsumerRecord>> {
    if (this.finished) return { done: true, value: undefined };
    const batch = this.batch;
    if (batch !== undefined) {
      if (this.index > 0 && !this.delivery.explicitAck) batch.recordDone(batch.records[this.index - 1]);
      if (this.signal?.aborted) {
        // Stop at this record: the rest of the batch goes back unprocessed, to be read again.
        if (this.delivery.inHand === batch) this.delivery.abandon();
        this.batch = undefined;
        this.delivery.releaseOwner(this);
        throw this.signal.reason;
      }
      // A batch sought away from (or revoked) mid-way is not read on: its remaining records are void.
      if (this.index < batch.records.length && batch.current && this.delivery.inHand === batch) {
        return { done: false, value: batch.records[this.index++] };
      }
    }
    this.delivery.acquire(this);
    let next: DeliveredBatch | undefined;
    try {
      next = await this.delivery.next(this.signal);
    } catch (err) {
      this.batch = undefined;
      this.delivery.releaseOwner(this);
      throw err;
    }
    if (next === undefined) return this.end();
    this.batch = next;
    this.index = 1;
    return { done: false, value: next.records[0] };
  }

  async return(): Promise<IteratorResult<ConsumerRecord>> {
    if (!this.finished && this.batch !== undefined && this.delivery.inHand === this.batch) this.delivery.abandon();
    return this.end();
  }

  private end(): IteratorResult<ConsumerRecord> {
    this.finished = true;
    this.batch = undefined;
    this.delivery.releaseOwner(this);
    return { done: true, value: undefined };
  }
}
