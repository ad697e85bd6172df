/**
 * `producer.sendBatch(records)` and `producer.send(record, callback)`: the calls themselves. Each record goes
 * through the producer's own intake (the checks, partition, batch and sequence of a `send()`, in the order
 * given), joined to a group (send-group.ts: the call's SendGroup, or a CallbackDelivery of its own) instead of
 * getting a promise of its own. Kept apart from producer.ts, which only lends it its intake.
 */
import type { ProducerObserver } from '../observability/producer-send.js';
import type { DeliveryCallback, PendingRecord, RecordMetadata } from './batch.js';
import { InvalidRecordError } from './errors.js';
import type { ProducerRecord } from './record-input.js';
import { asError, CallbackDelivery, joinGroup, PendingRecordRefusal, refuseLater, SendGroup } from './send-group.js';
import type { SendOptions } from './send-options.js';

/** What sendBatch needs of the producer: its per-record steps, lent without exposing them as public API. */
export interface RecordIntake {
  readonly observer: ProducerObserver | undefined;
  /** The record checked and converted, or why the producer does not take it now. */
  prepare(record: ProducerRecord, options: SendOptions | undefined, now: number): PendingRecord | PendingRecordRefusal;
  /** Appends a prepared record (settlers attached), or queues it behind the records waiting. */
  submit(pending: PendingRecord, now: number): void;
  /** A traced `send()`: one span per record. */
  send(record: ProducerRecord, options: SendOptions | undefined): Promise<RecordMetadata>;
}

/** See Producer.sendBatch. `traced`: a tracing subscriber listens, so each record is sent as its own send(). */
export function sendBatch(
  intake: RecordIntake,
  records: readonly ProducerRecord[],
  options: SendOptions | undefined,
  traced: boolean,
): Promise<RecordMetadata[]> {
  if (!Array.isArray(records)) return refuseLater(new InvalidRecordError('sendBatch() takes an array of records'));
  if (records.length === 0) return Promise.resolve([]);
  if (traced) return settleAll(records.map((r) => intake.send(r, options)));
  return new Promise((resolve, reject) => {
    const group = new SendGroup(records.length, resolve, reject);
    intake.observer?.onSend(records.length);
    // One clock read per call: the records of a call are handed over at the same moment.
    const now = Date.now();
    for (let i = 0; i < records.length; i++) {
      const prepared = intake.prepare(records[i], options, now);
      if (prepared instanceof PendingRecordRefusal) {
        setImmediate(() => group.failed(asError(prepared.err)));
        continue;
      }
      joinGroup(prepared, group, i);
      intake.submit(prepared, now);
    }
  });
}

/**
 * See Producer.send with a callback. `traced`: a tracing subscriber listens, so the record goes through a traced
 * `send()` and its promise, answered through the same CallbackDelivery (a callback that throws is uncaught).
 */
export function sendWithCallback(
  intake: RecordIntake,
  record: ProducerRecord,
  options: SendOptions | undefined,
  callback: DeliveryCallback,
  traced: boolean,
): void {
  if (typeof callback !== 'function') throw new InvalidRecordError('send(): the callback must be a function');
  const delivery = new CallbackDelivery(callback);
  if (traced) {
    delivery.submitted = true;
    intake.send(record, options).then(
      (metadata) => delivery.delivered(0, metadata),
      (err: Error) => delivery.failed(err),
    );
    return;
  }
  intake.observer?.onSend(1);
  const now = Date.now();
  const pending = intake.prepare(record, options, now);
  if (pending instanceof PendingRecordRefusal) {
    setImmediate(callback, asError(pending.err), undefined);
    return;
  }
  joinGroup(pending, delivery, 0);
  intake.submit(pending, now);
  delivery.submitted = true;
}

/** Resolves with every result once all are settled, or rejects with the first failure (in record order). */
async function settleAll(sends: Promise<RecordMetadata>[]): Promise<RecordMetadata[]> {
  const outcomes = await Promise.allSettled(sends);
  const failed = outcomes.find((o) => o.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return outcomes.map((o) => (o as PromiseFulfilledResult<RecordMetadata>).value);
}
