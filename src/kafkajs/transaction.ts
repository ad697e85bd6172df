/**
 * kafkajs's `producer.transaction()` on the core's transactional producer: it begins at once, sends through
 * the same partitioner and answer shapes as the producer, and ends with `commit()` or `abort()`.
 */
import type { Producer as CoreProducer, OffsetCommit } from '../index.js';
import { KafkaJSNonRetriableError, translated } from './errors.js';
import type { MessageSender, ProducerBatch, ProducerRecord, RecordMetadata } from './producer.js';

export interface TransactionOffsets {
  consumerGroupId: string;
  topics: { topic: string; partitions: { partition: number; offset: string }[] }[];
}

export interface Transaction {
  send(record: ProducerRecord): Promise<RecordMetadata[]>;
  sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]>;
  sendOffsets(offsets: TransactionOffsets): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
  isActive(): boolean;
}

export function createTransaction(producer: CoreProducer, sender: MessageSender): Transaction {
  try {
    producer.beginTransaction();
  } catch (err) {
    throw new KafkaJSNonRetriableError(err instanceof Error ? err.message : String(err), { cause: err });
  }
  let active = true;
  const whileActive = <T>(call: () => Promise<T>): Promise<T> => {
    if (!active) return Promise.reject(new KafkaJSNonRetriableError('Transaction is not active'));
    return call();
  };
  const end = (finish: () => Promise<void>) =>
    whileActive(async () => {
      active = false;
      await translated(finish);
    });
  return {
    send: (record) =>
      whileActive(() => {
        const { topic, messages, ...rest } = record;
        return sender.sendBatch({ ...rest, topicMessages: [{ topic, messages }] });
      }),
    sendBatch: (batch) => whileActive(() => sender.sendBatch(batch)),
    sendOffsets: ({ consumerGroupId, topics }) =>
      whileActive(() => {
        const offsets: OffsetCommit[] = topics.flatMap(({ topic, partitions }) =>
          partitions.map(({ partition, offset }) => ({ topic, partition, offset: BigInt(offset) })),
        );
        const group = { groupId: consumerGroupId, memberId: '', generationId: -1, groupInstanceId: null };
        return translated(() => producer.sendOffsetsToTransaction(offsets, group));
      }),
    commit: () => end(() => producer.commitTransaction()),
    abort: () => end(() => producer.abortTransaction()),
    isActive: () => active,
  };
}
