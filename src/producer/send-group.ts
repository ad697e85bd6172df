/**
 * `producer.sendBatch(records)` (send-batch.ts): one promise for many records. Each record still goes through the producer
 * one by one (its own checks, partition, batch and sequence, in the order given), but instead of a promise per
 * record it points at its group and its index there, and the group settles once every record has its answer.
 * That takes the promise, its two settling functions and the caller's reaction off each record: what a
 * per-record `send()` costs beyond the record itself.
 */
import { TidemarkError } from '../../codecs/errors.js';
import type { PendingRecord, RecordGroup, RecordMetadata } from './batch.js';

export class SendGroup implements RecordGroup {
  private readonly results: RecordMetadata[];
  private left: number;
  private failure: Error | undefined;

  constructor(
    count: number,
    private readonly resolve: (results: RecordMetadata[]) => void,
    private readonly reject: (err: Error) => void,
  ) {
    this.results = new Array<RecordMetadata>(count);
    this.left = count;
  }

  delivered(index: number, metadata: RecordMetadata): void {
    this.results[index] = metadata;
    this.settleOne();
  }

  failed(err: Error): void {
    this.failure ??= err;
    this.settleOne();
  }

  private settleOne(): void {
    if (--this.left > 0) return;
    if (this.failure === undefined) this.resolve(this.results);
    else this.reject(this.failure);
  }
}

/**
 * A grouped record's settlers: shared functions that find the group through `this` (every caller settles a
 * record as `record.resolve(...)` / `record.reject(...)`), so grouping allocates nothing per record.
 */
export function joinGroup(record: PendingRecord, group: SendGroup, index: number): void {
  record.group = group;
  record.index = index;
  record.resolve = deliveredInGroup;
  record.reject = failedInGroup;
}

function deliveredInGroup(this: PendingRecord, metadata: RecordMetadata): void {
  (this.group as RecordGroup).delivered(this.index, metadata);
}

function failedInGroup(this: PendingRecord, err: Error): void {
  (this.group as RecordGroup).failed(err);
}

/** Why a record was not taken (prepare()); a class, so that telling it from a record is one instanceof. */
export class PendingRecordRefusal {
  constructor(readonly err: unknown) {}
}

export function asError(err: unknown): Error {
  return err instanceof Error ? err : new TidemarkError(String(err));
}

/**
 * A send refused without I/O rejects on a later turn of the event loop, never as a microtask: an application
 * that sends again at once on failure would otherwise spin in the microtask queue and starve every timer (the
 * corruption soak hung the whole test run this way once its producer had failed for good).
 */
export function refuseLater(err: unknown): Promise<never> {
  return new Promise((_, reject) => setImmediate(reject, err));
}
