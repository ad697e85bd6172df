import { AddPartitionsToTxn } from '../../protocol/apis/add-partitions-to-txn.js';
import { KafkaError } from '../../protocol/kafka-error.js';
import type { Connection } from '../network/connection.js';

/**
 * Which transaction protocol a coordinator speaks, and the request versions each one uses.
 *
 * Classic (KIP-98): partitions join a transaction with AddPartitionsToTxn before their first batch, the group's
 * offsets partition with AddOffsetsToTxn; the epoch stays for the producer's life. Transactions v2 (KIP-890
 * part 2), when the cluster finalizes the feature `transaction.version` at 2 or more (Kafka 4.x by default): a
 * Produce v12+ or TxnOffsetCommit v5+ adds its partition itself (the broker asks the coordinator, which also
 * verifies the producer's epoch), and EndTxn v5+ bumps the epoch at the end of every transaction and returns
 * it. As in Java, the version a request goes in is what tells the broker which protocol the producer uses.
 */

/** The last request versions of the classic protocol; the next ones ask for Transactions v2. */
export const LAST_CLASSIC = { Produce: 11, AddPartitionsToTxn: 3, TxnOffsetCommit: 4, EndTxn: 4 } as const;

/** The highest versions used under Transactions v2: TxnOffsetCommit v6 names topics by id, which we do not. */
export const TRANSACTION_V2_MAX = { TxnOffsetCommit: 5, EndTxn: 5 } as const;

/** The level of `transaction.version` the broker behind `c` had finalized when the connection opened (0: none). */
export function transactionVersionOf(c: Connection): number {
  return c.apiVersions?.finalizedFeatures.get('transaction.version') ?? 0;
}

/** The version to send `api` in: the highest both sides speak, capped for the protocol in use. */
export function transactionRequestVersion(negotiated: number, classicMax: number, v2Max: number, v2: boolean): number {
  return Math.min(negotiated, v2 ? v2Max : classicMax);
}

const OPERATION_NOT_ATTEMPTED = 55;

/** Classic protocol: one AddPartitionsToTxn; resolves with the first partition error, if any. */
export async function addPartitionsOnce(
  c: Connection,
  txn: { transactionalId: string; producerId: bigint; producerEpoch: number; requestTimeoutMs: number },
  partitions: readonly { topic: string; partition: number }[],
): Promise<KafkaError | undefined> {
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of partitions) byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
  const version = Math.min(c.versionFor(AddPartitionsToTxn), LAST_CLASSIC.AddPartitionsToTxn);
  const r = await c.request(
    AddPartitionsToTxn,
    {
      transactions: [],
      v3AndBelowTransactionalId: txn.transactionalId,
      v3AndBelowProducerId: txn.producerId,
      v3AndBelowProducerEpoch: txn.producerEpoch,
      v3AndBelowTopics: [...byTopic].map(([name, ps]) => ({ name, partitions: ps })),
    },
    { version, timeoutMs: txn.requestTimeoutMs },
  );
  // OPERATION_NOT_ATTEMPTED only echoes another partition's error; report that one.
  let first: KafkaError | undefined;
  for (const t of r.resultsByTopicV3AndBelow) {
    for (const p of t.resultsByPartition) {
      if (p.partitionErrorCode === 0 || p.partitionErrorCode === OPERATION_NOT_ATTEMPTED) continue;
      const context = { api: 'AddPartitionsToTxn', topic: t.name, partition: p.partitionIndex };
      first ??= new KafkaError(p.partitionErrorCode, { context });
    }
  }
  return first;
}
