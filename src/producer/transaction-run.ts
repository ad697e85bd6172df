import type { ConsumerGroupMetadata } from '../offsets/group-metadata.js';
import type { OffsetCommit } from '../offsets/offset-store.js';
import type { RecordMetadata } from './batch.js';
import type { ProducerRecord } from './record-input.js';

/** What the work inside `producer.transaction()` may do: send records and add consumed offsets. */
export interface TransactionalProducer {
  send(record: ProducerRecord): Promise<RecordMetadata>;
  sendOffsetsToTransaction(offsets: readonly OffsetCommit[], group: ConsumerGroupMetadata): Promise<void>;
}

interface TransactionControl extends TransactionalProducer {
  beginTransaction(): void;
  commitTransaction(): Promise<void>;
  abortTransaction(): Promise<void>;
}

/**
 * `producer.transaction(work)`: begin, run `work`, commit when it returns; when it (or the commit) throws,
 * abort and rethrow the first error, so that no record of a failed transaction becomes visible. A failed abort
 * is attached to the error as `abortError` (a fatal one also leaves the producer unusable, as it says).
 */
export async function runTransaction<T>(
  producer: TransactionControl,
  work: (tx: TransactionalProducer) => Promise<T>,
): Promise<T> {
  producer.beginTransaction();
  const tx: TransactionalProducer = {
    send: (record) => producer.send(record),
    sendOffsetsToTransaction: (offsets, group) => producer.sendOffsetsToTransaction(offsets, group),
  };
  let result: T;
  try {
    result = await work(tx);
    await producer.commitTransaction();
  } catch (err) {
    try {
      await producer.abortTransaction();
    } catch (abortError) {
      if (err instanceof Error && abortError !== err) Object.assign(err, { abortError });
    }
    throw err;
  }
  return result;
}
