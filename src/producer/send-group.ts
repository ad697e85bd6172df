/**
 * `producer.sendBatch(records)` (send-batch.ts): one promise for many records; and `send(record, callback)`,
 * a group of one settled through a callback. Each record still goes through the producer one by one (its own
 * checks, partition, batch and sequence, in the order given), but instead of a promise per record it points
 * at its group and its index there, and the group settles once every record has its answer.
 * That takes the promise, its two settling functions and the caller's reaction off each record: what a
 * per-record `send()` costs beyond the record itself.
 */
import { TidemarkError } from '../../codecs/errors.js';
import type { DeliveryCallback, PendingRecord, RecordGroup, RecordMetadata } from './batch.js';

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
 * `send(record, callback)`: a group of one that calls back instead of settling a promise, so the record costs
 * no promise, no settling functions and no reaction (what the Java client's `send(record, callback)` costs).
 * A callback that throws does not keep the batch's later records from their answers: its error is thrown again
 * on the next tick, where an uncaught error is the application's to see.
 */
export class CallbackDelivery implements RecordGroup {
  /** Set once send() has handed the record over: until then an answer is put off to a later turn. */
  submitted = false;

  constructor(private readonly callback: DeliveryCallback) {}

  delivered(_index: number, metadata: RecordMetadata): void {
    this.answer(undefined, metadata);
  }

  failed(err: Error): void {
    // A record can fail inside send() itself (a partitioner that throws): the callback never runs before
    // send() returned. Later failures are answered at once, so every callback has run when flush() resolves.
    if (this.submitted) this.answer(err, undefined);
    else setImmediate(this.callback, err, undefined);
  }

  private answer(err: Error | undefined, metadata: RecordMetadata | undefined): void {
    try {
      this.callback(err, metadata);
    } catch (thrown) {
      process.nextTick(rethrow, thrown);
    }
  }
}

function rethrow(err: unknown): never {
  throw err;
}

/**
 * A grouped record's settlers: shared functions that find the group through `this` (every caller settles a
 * record as `record.resolve(...)` / `record.reject(...)`), so grouping allocates nothing per record.
 */
export function joinGroup(record: PendingRecord, group: RecordGroup, index: number): void {
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
