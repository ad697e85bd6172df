import { TxnOffsetCommit } from '../../protocol/apis/txn-offset-commit.js';
import { KafkaError } from '../../protocol/kafka-error.js';
import type { Deadline } from '../cluster/deadline.js';
import type { Coordinators } from '../coordinator/coordinators.js';
import { InvalidOffsetCommitError } from '../offsets/errors.js';
import type { ConsumerGroupMetadata } from '../offsets/group-metadata.js';
import type { OffsetCommit } from '../offsets/offset-store.js';
import { LAST_CLASSIC, TRANSACTION_V2_MAX, transactionRequestVersion } from './transaction-protocol.js';

export interface TransactionalOffsets {
  transactionalId: string;
  /** The transaction uses Transactions v2: v5 adds the offsets partition itself (no AddOffsetsToTxn before). */
  transactionV2: boolean;
  producerId: bigint;
  producerEpoch: number;
  group: ConsumerGroupMetadata;
  offsets: readonly OffsetCommit[];
  requestTimeoutMs: number;
}

/** Checks what `sendOffsetsToTransaction()` was given before anything goes to a broker. */
export function checkTransactionalOffsets(offsets: readonly OffsetCommit[], group: ConsumerGroupMetadata): void {
  if (group === null || typeof group !== 'object' || typeof group.groupId !== 'string' || group.groupId === '') {
    throw new InvalidOffsetCommitError('sendOffsetsToTransaction() needs the consumer group metadata with a groupId');
  }
  if (!Number.isInteger(group.generationId) || typeof group.memberId !== 'string') {
    throw new InvalidOffsetCommitError(
      `group metadata of ${group.groupId} needs an integer generationId and a memberId`,
    );
  }
  if (!Array.isArray(offsets)) throw new InvalidOffsetCommitError('offsets must be an array');
  for (const o of offsets) {
    const where = `${String(o?.topic)}-${String(o?.partition)}`;
    if (typeof o?.topic !== 'string' || o.topic === '' || !Number.isInteger(o.partition) || o.partition < 0) {
      throw new InvalidOffsetCommitError(`offset for ${where}: needs a topic name and a partition >= 0`);
    }
    if (typeof o.offset !== 'bigint' || o.offset < 0n) {
      throw new InvalidOffsetCommitError(
        `offset for ${where}: expected a bigint >= 0 (next offset to read), got ${String(o.offset)}`,
      );
    }
  }
}

/**
 * Sends the offsets to the group's coordinator as part of the transaction (they become the group's committed
 * offsets only when it commits). Carries the consumer's generation, member id and instance id (KIP-447), so a
 * member that is no longer in the group gets ILLEGAL_GENERATION / UNKNOWN_MEMBER_ID / FENCED_INSTANCE_ID
 * (abortable) instead of committing over the member that replaced it. Retriable errors are retried until the
 * deadline; the first other partition error is thrown.
 */
export async function commitTransactionalOffsets(
  coordinators: Coordinators,
  deadline: Deadline,
  t: TransactionalOffsets,
): Promise<void> {
  if (t.offsets.length === 0) return;
  const byTopic = new Map<string, OffsetCommit[]>();
  for (const o of t.offsets) byTopic.set(o.topic, [...(byTopic.get(o.topic) ?? []), o]);
  await coordinators.call('group', t.group.groupId, deadline, async (c) => {
    const version = transactionRequestVersion(
      c.versionFor(TxnOffsetCommit),
      LAST_CLASSIC.TxnOffsetCommit,
      TRANSACTION_V2_MAX.TxnOffsetCommit,
      t.transactionV2,
    );
    const r = await c.request(
      TxnOffsetCommit,
      {
        transactionalId: t.transactionalId,
        groupId: t.group.groupId,
        producerId: t.producerId,
        producerEpoch: t.producerEpoch,
        generationIdOrMemberEpoch: t.group.generationId,
        memberId: t.group.memberId,
        groupInstanceId: t.group.groupInstanceId,
        topics: [...byTopic].map(([name, list]) => ({
          name,
          partitions: list.map((o) => ({
            partitionIndex: o.partition,
            committedOffset: o.offset,
            committedLeaderEpoch: o.leaderEpoch ?? -1,
            committedMetadata: o.metadata ?? '',
          })),
        })),
      },
      { version, timeoutMs: t.requestTimeoutMs },
    );
    for (const topic of r.topics) {
      for (const p of topic.partitions) {
        if (p.errorCode === 0) continue;
        throw new KafkaError(p.errorCode, {
          context: { api: 'TxnOffsetCommit', groupId: t.group.groupId, topic: topic.name, partition: p.partitionIndex },
        });
      }
    }
  });
}
