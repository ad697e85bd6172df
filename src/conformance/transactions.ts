/**
 * Transactions driven with raw requests (KIP-98, KIP-447), so ListOffsets and Fetch checks can see an open
 * transaction's last stable offset and an aborted one's entry, and OffsetFetch checks a pending transactional
 * offset commit.
 *
 * Every transaction request goes at v3: the client form of the classic two-phase flow that every Kafka release
 * from 2.4 to 4.x accepts (AddPartitionsToTxn v4+ is the brokers' batched form, and EndTxn v5 bumps the epoch
 * under Transactions v2, which these checks do not need).
 */
import type { RecordInput } from '../../codecs/records/index.js';
import { AddOffsetsToTxn } from '../../protocol/apis/add-offsets-to-txn.js';
import { AddPartitionsToTxn } from '../../protocol/apis/add-partitions-to-txn.js';
import { EndTxn } from '../../protocol/apis/end-txn.js';
import { InitProducerId } from '../../protocol/apis/init-producer-id.js';
import { TxnOffsetCommit } from '../../protocol/apis/txn-offset-commit.js';
import { errorName, type Probe } from './probe.js';

const TXN_COORDINATOR = 1;

/** A transactional producer id with a transaction in progress on its coordinator. */
export interface Transaction {
  transactionalId: string;
  producerId: bigint;
  producerEpoch: number;
  /** Adds the partition to the transaction and writes `records` to it; resolves to the batch's base offset. */
  write(topic: string, partition: number, records: readonly RecordInput[]): Promise<bigint>;
  /** Commits an offset for `groupId` inside the transaction (AddOffsetsToTxn, then TxnOffsetCommit). */
  commitOffset(groupId: string, topic: string, partition: number, offset: bigint): Promise<void>;
  /** Commits or aborts; resolves once the coordinator has accepted (markers follow asynchronously). */
  end(commit: boolean): Promise<void>;
}

export interface OpenTransaction extends Transaction {
  /** Base offset of the transactional batch written. */
  baseOffset: bigint;
}

/**
 * A transactional producer id for `transactionalId`. Skips the check (with the reason) when the broker does not
 * offer the transaction APIs at the version clients use.
 */
export async function beginTransaction(probe: Probe, transactionalId: string): Promise<Transaction> {
  for (const api of [AddPartitionsToTxn, EndTxn, AddOffsetsToTxn, TxnOffsetCommit]) {
    const range = probe.suite.versions.range(api.key);
    if (range === undefined || range.min > 3 || range.max < 3) {
      probe.skip(`a transaction needs ${api.name} v3, which the broker does not offer`);
    }
  }
  let coordinator = await probe.suite.coordinator(probe, transactionalId, TXN_COORDINATOR);
  const init = await probe.suite.retryingCoordinator(
    async () => {
      coordinator = await probe.suite.coordinator(probe, transactionalId, TXN_COORDINATOR);
      return probe.send(coordinator, InitProducerId, { transactionalId, transactionTimeoutMs: 60_000 });
    },
    (answer) => answer.errorCode,
  );
  if (init.errorCode !== 0) probe.fail(`InitProducerId for a transactional id answered ${errorName(init.errorCode)}`);
  const { producerId, producerEpoch } = init;
  const ids = { transactionalId, producerId, producerEpoch };
  const v3 = { version: 3 };
  let sequence = 0;
  return {
    ...ids,
    async write(topic, partition, records) {
      const add = await probe.send(
        coordinator,
        AddPartitionsToTxn,
        {
          v3AndBelowTransactionalId: transactionalId,
          v3AndBelowProducerId: producerId,
          v3AndBelowProducerEpoch: producerEpoch,
          v3AndBelowTopics: [{ name: topic, partitions: [partition] }],
        },
        v3,
      );
      const addError = add.resultsByTopicV3AndBelow[0]?.resultsByPartition[0]?.partitionErrorCode ?? -1;
      if (addError !== 0) probe.fail(`AddPartitionsToTxn answered ${errorName(addError)}`);
      const baseOffset = await probe.suite.produce(probe, topic, partition, records, {
        ...ids,
        baseSequence: sequence,
        transactional: true,
      });
      sequence += records.length;
      return baseOffset;
    },
    async commitOffset(groupId, topic, partition, offset) {
      const added = await probe.send(coordinator, AddOffsetsToTxn, { ...ids, groupId }, v3);
      if (added.errorCode !== 0) probe.fail(`AddOffsetsToTxn answered ${errorName(added.errorCode)}`);
      const groupCoordinator = await probe.suite.coordinator(probe, groupId);
      const committed = await probe.send(
        groupCoordinator,
        TxnOffsetCommit,
        {
          ...ids,
          groupId,
          topics: [
            {
              name: topic,
              partitions: [{ partitionIndex: partition, committedOffset: offset, committedMetadata: '' }],
            },
          ],
        },
        v3,
      );
      const code = committed.topics[0]?.partitions[0]?.errorCode ?? -1;
      if (code !== 0) probe.fail(`TxnOffsetCommit answered ${errorName(code)}`);
    },
    async end(commit) {
      const response = await probe.send(coordinator, EndTxn, { ...ids, committed: commit }, v3);
      if (response.errorCode !== 0) probe.fail(`EndTxn answered ${errorName(response.errorCode)}`);
    },
  };
}

/** Starts a transaction on `transactionalId` and writes `records` to the partition inside it. */
export async function openTransaction(
  probe: Probe,
  transactionalId: string,
  topic: string,
  partition: number,
  records: readonly RecordInput[],
): Promise<OpenTransaction> {
  const txn = await beginTransaction(probe, transactionalId);
  const baseOffset = await txn.write(topic, partition, records);
  return { ...txn, baseOffset };
}
