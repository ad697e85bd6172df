import { TidemarkError } from '../../codecs/errors.js';
import { DescribeProducers } from '../../protocol/apis/describe-producers.js';
import { DescribeTransactions } from '../../protocol/apis/describe-transactions.js';
import { ListTransactions } from '../../protocol/apis/list-transactions.js';
import { KafkaError, kafkaError } from '../../protocol/kafka-error.js';
import { retry } from '../cluster/deadline.js';
import { groupBy } from '../cluster/group-by.js';
import { type LeaderAnswer, sendToLeaders } from '../cluster/leader-requests.js';
import { partitionKey, type TopicPartition, throwPartitionFailures } from '../cluster/partition-errors.js';
import { type Coordinators, shouldRediscover } from '../coordinator/coordinators.js';
import { type AdminCallOptions, type AdminContext, deadlineOf } from './admin-context.js';
import { throwResourceErrors } from './resource-errors.js';

/**
 * The transactions administration of KIP-664: the producers each partition leader holds state for
 * (DescribeProducers), the state of transactional ids at their coordinators (DescribeTransactions) and the
 * transactions every broker coordinates (ListTransactions). For finding and explaining hanging transactions.
 */

/** What the transactions administration needs beyond the cluster: the client's coordinator cache. */
export interface TransactionAdminContext extends AdminContext {
  coordinators: Coordinators;
}

/** One producer a partition leader holds state for. */
export interface ActiveProducer {
  producerId: bigint;
  producerEpoch: number;
  /** The sequence number of the producer's last batch on this partition; -1 when unknown. */
  lastSequence: number;
  /** The timestamp of the producer's last batch; -1 when unknown. */
  lastTimestamp: bigint;
  /** The epoch of the transaction coordinator that last wrote a marker for it; -1 when none. */
  coordinatorEpoch: number;
  /** The offset the producer's open transaction starts at on this partition; -1n when it has none open. */
  currentTxnStartOffset: bigint;
}

/** The active producers of one partition. */
export interface PartitionProducers {
  topic: string;
  partition: number;
  activeProducers: ActiveProducer[];
}

/** One transactional id as its coordinator describes it. */
export interface TransactionDescription {
  transactionalId: string;
  /** The coordinator's node id. */
  coordinator: number;
  /** Empty, Ongoing, PrepareCommit, PrepareAbort, CompleteCommit, CompleteAbort, Dead, PrepareEpochFence. */
  state: string;
  transactionTimeoutMs: number;
  /** When the open transaction started (ms since the epoch); -1n when none is open. */
  transactionStartTimeMs: bigint;
  producerId: bigint;
  producerEpoch: number;
  /** The partitions the open transaction has written to, sorted. */
  topicPartitions: TopicPartition[];
}

/** One transaction as the broker that coordinates it lists it. */
export interface ListedTransaction {
  transactionalId: string;
  producerId: bigint;
  state: string;
  /** The node id of the broker that coordinates it. */
  coordinator: number;
}

/** Filters of listTransactions; a transaction must match each one given. */
export interface ListTransactionsOptions extends AdminCallOptions {
  /** Only transactions in these states, e.g. `['Ongoing']`. */
  states?: readonly string[];
  /** Only transactions of these producer ids. */
  producerIds?: readonly bigint[];
}

/** The active producers of each partition, asked of its leader; partitions that fail throw (PartitionErrors). */
export async function describeProducers(
  ctx: AdminContext,
  partitions: readonly TopicPartition[],
  options: AdminCallOptions = {},
): Promise<PartitionProducers[]> {
  if (partitions.length === 0) throw new TidemarkError('no partitions given');
  const deadline = deadlineOf(ctx, 'DescribeProducers', options);
  const { results, failures } = await sendToLeaders(ctx.cluster, partitions, deadline, async (connection, items) => {
    const version = options.version ?? connection.versionFor(DescribeProducers);
    const byTopic = groupBy(items, (i) => i.query.topic);
    const response = await connection.request(
      DescribeProducers,
      { topics: [...byTopic].map(([name, list]) => ({ name, partitionIndexes: list.map((i) => i.query.partition) })) },
      { ...deadline.requestOptions(ctx.requestTimeoutMs), version },
    );
    const asked = new Map(items.map((i) => [partitionKey(i.query.topic, i.query.partition), i.query]));
    const answers: LeaderAnswer<TopicPartition, ActiveProducer[]>[] = [];
    for (const t of response.topics) {
      for (const p of t.partitions) {
        const query = asked.get(partitionKey(t.name, p.partitionIndex));
        if (query === undefined) continue;
        if (p.errorCode === 0) answers.push({ query, result: p.activeProducers.map((a) => ({ ...a })) });
        else {
          const context = { api: 'DescribeProducers', version, topic: t.name, partition: p.partitionIndex };
          answers.push({ query, error: kafkaError(p.errorCode, { message: p.errorMessage, context }) });
        }
      }
    }
    return answers;
  });
  const described = partitions.flatMap((q) => {
    const activeProducers = results.get(q);
    return activeProducers === undefined ? [] : [{ topic: q.topic, partition: q.partition, activeProducers }];
  });
  throwPartitionFailures('DescribeProducers', failures, described);
  return described;
}

/**
 * Describes transactional ids at their coordinators (FindCoordinator key type 1). An id no coordinator knows
 * fails with TRANSACTIONAL_ID_NOT_FOUND naming it; several failing ids throw ResourceErrors.
 */
export async function describeTransactions(
  ctx: TransactionAdminContext,
  transactionalIds: readonly string[],
  options: AdminCallOptions = {},
): Promise<TransactionDescription[]> {
  const ids = [...new Set(transactionalIds)];
  if (ids.length === 0) throw new TidemarkError('no transactional ids given');
  for (const id of ids) if (typeof id !== 'string' || id === '') throw new TidemarkError('empty transactional id');
  const deadline = deadlineOf(ctx, 'DescribeTransactions', options);
  const described = new Map<string, TransactionDescription>();
  const failed = new Map<string, TidemarkError>();
  await Promise.all(
    ids.map((id) =>
      retry(
        deadline,
        async () => {
          const { connection, node } = await ctx.coordinators.connection('transaction', id, deadline);
          const version = options.version ?? connection.versionFor(DescribeTransactions);
          const response = await connection.request(
            DescribeTransactions,
            { transactionalIds: [id] },
            { ...deadline.requestOptions(ctx.requestTimeoutMs), version },
          );
          const s = response.transactionStates.find((t) => t.transactionalId === id);
          if (s === undefined) throw new TidemarkError(`DescribeTransactions v${version}: no answer for ${id}`);
          if (s.errorCode !== 0) {
            const context = { api: 'DescribeTransactions', version, broker: node.nodeId, transactionalId: id };
            const err = kafkaError(s.errorCode, { context });
            if (shouldRediscover(err)) ctx.coordinators.invalidate('transaction', id, node.nodeId);
            throw err;
          }
          described.set(id, {
            transactionalId: id,
            coordinator: node.nodeId,
            state: s.transactionState,
            transactionTimeoutMs: s.transactionTimeoutMs,
            transactionStartTimeMs: s.transactionStartTimeMs,
            producerId: s.producerId,
            producerEpoch: s.producerEpoch,
            topicPartitions: s.topics
              .flatMap((t) => t.partitions.map((partition) => ({ topic: t.topic, partition })))
              .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition),
          });
        },
        { backoff: ctx.coordinators.backoff },
      ).catch((err: unknown) => {
        if (!(err instanceof KafkaError)) throw err;
        failed.set(id, err);
      }),
    ),
  );
  const succeeded = ids.flatMap((id) => described.get(id) ?? []);
  // Keyed in the order the ids were given, not the order the coordinators answered in.
  const errors = new Map(ids.flatMap((id) => (failed.has(id) ? [[`transactionalId:${id}`, failed.get(id)!]] : [])));
  throwResourceErrors('DescribeTransactions', errors, succeeded);
  return succeeded;
}

/** Every transaction of the cluster: each broker lists those it coordinates, so every broker is asked. */
export async function listTransactions(
  ctx: AdminContext,
  options: ListTransactionsOptions = {},
): Promise<ListedTransaction[]> {
  const deadline = deadlineOf(ctx, 'ListTransactions', options);
  const md = await deadline.race(ctx.cluster.metadata({ topics: [] }));
  const lists = await Promise.all(
    [...md.brokers.keys()].map((nodeId) =>
      retry(deadline, async () => {
        const connection = await deadline.race(ctx.cluster.connectionTo(nodeId));
        const version = options.version ?? connection.versionFor(ListTransactions);
        const response = await connection.request(
          ListTransactions,
          { stateFilters: [...(options.states ?? [])], producerIdFilters: [...(options.producerIds ?? [])] },
          { ...deadline.requestOptions(ctx.requestTimeoutMs), version },
        );
        if (response.errorCode !== 0) {
          throw kafkaError(response.errorCode, { context: { api: 'ListTransactions', version, broker: nodeId } });
        }
        return response.transactionStates.map((t) => ({
          transactionalId: t.transactionalId,
          producerId: t.producerId,
          state: t.transactionState,
          coordinator: nodeId,
        }));
      }),
    ),
  );
  return lists.flat().sort((a, b) => a.transactionalId.localeCompare(b.transactionalId));
}
