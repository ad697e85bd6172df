import { TidemarkError } from '../../codecs/errors.js';
import { AlterPartitionReassignments } from '../../protocol/apis/alter-partition-reassignments.js';
import { ListPartitionReassignments } from '../../protocol/apis/list-partition-reassignments.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import { groupBy } from '../cluster/group-by.js';
import {
  type PartitionFailure,
  partitionKey,
  type TopicPartition,
  throwPartitionFailures,
} from '../cluster/partition-errors.js';
import { type AdminCallOptions, type AdminContext, deadlineOf } from './admin-context.js';

/** Moving partition replicas between brokers: starting and cancelling moves, and listing those in progress. */

export interface ReplicaMove extends TopicPartition {
  /** The target replica list (the first is the preferred leader); null cancels the partition's move. */
  replicas: readonly number[] | null;
}

export interface AlterReassignmentsOptions extends AdminCallOptions {
  /** Kafka 4.x (v1+): refuse moves that change a partition's replication factor (default: allowed). */
  allowReplicationFactorChange?: boolean;
}

export interface OngoingReassignment extends TopicPartition {
  /** Every replica while the move lasts: the target ones and those still to be removed. */
  replicas: number[];
  addingReplicas: number[];
  removingReplicas: number[];
}

/**
 * Starts (or cancels) replica moves. The controller checks each partition: a broker that does not exist is
 * INVALID_REPLICA_ASSIGNMENT, cancelling where nothing moves NO_REASSIGNMENT_IN_PROGRESS, each with the
 * controller's message; failing partitions throw (PartitionErrors carries those that were accepted).
 */
export async function alterPartitionReassignments(
  ctx: AdminContext,
  moves: readonly ReplicaMove[],
  options: AlterReassignmentsOptions = {},
): Promise<TopicPartition[]> {
  check(moves);
  const deadline = deadlineOf(ctx, 'AlterPartitionReassignments', options);
  const connection = await deadline.race(ctx.cluster.controllerConnection());
  const version = options.version ?? connection.versionFor(AlterPartitionReassignments);
  if (options.allowReplicationFactorChange === false && version < 1) {
    throw new TidemarkError(`allowReplicationFactorChange needs AlterPartitionReassignments v1+, not v${version}`);
  }
  const timeoutMs = Math.max(1, deadline.remaining());
  const r = await connection.request(
    AlterPartitionReassignments,
    {
      timeoutMs,
      allowReplicationFactorChange: options.allowReplicationFactorChange !== false,
      topics: [...groupBy(moves, (m) => m.topic)].map(([name, list]) => ({
        name,
        partitions: list.map((m) => ({
          partitionIndex: m.partition,
          replicas: m.replicas === null ? null : [...m.replicas],
        })),
      })),
    },
    { ...deadline.requestOptions(ctx.requestTimeoutMs + timeoutMs), version },
  );
  const context = { api: 'AlterPartitionReassignments', version };
  if (r.errorCode !== 0) throw kafkaError(r.errorCode, { message: r.errorMessage, context });
  const accepted: TopicPartition[] = [];
  const failures: PartitionFailure[] = [];
  for (const t of r.responses) {
    for (const p of t.partitions) {
      const where = { topic: t.name, partition: p.partitionIndex };
      if (p.errorCode === 0) accepted.push(where);
      else {
        const error = kafkaError(p.errorCode, { message: p.errorMessage, context: { ...context, ...where } });
        failures.push({ ...where, error });
      }
    }
  }
  throwPartitionFailures('AlterPartitionReassignments', failures, accepted);
  return accepted;
}

/** The replica moves in progress: of the given partitions, or (default) of the whole cluster. */
export async function listPartitionReassignments(
  ctx: AdminContext,
  partitions: readonly TopicPartition[] | null = null,
  options: AdminCallOptions = {},
): Promise<OngoingReassignment[]> {
  const deadline = deadlineOf(ctx, 'ListPartitionReassignments', options);
  const connection = await deadline.race(ctx.cluster.controllerConnection());
  const version = options.version ?? connection.versionFor(ListPartitionReassignments);
  const timeoutMs = Math.max(1, deadline.remaining());
  const r = await connection.request(
    ListPartitionReassignments,
    {
      timeoutMs,
      topics:
        partitions === null
          ? null
          : [...groupBy(partitions, (p) => p.topic)].map(([name, list]) => ({
              name,
              partitionIndexes: list.map((p) => p.partition),
            })),
    },
    { ...deadline.requestOptions(ctx.requestTimeoutMs + timeoutMs), version },
  );
  if (r.errorCode !== 0) {
    throw kafkaError(r.errorCode, { message: r.errorMessage, context: { api: 'ListPartitionReassignments', version } });
  }
  return r.topics
    .flatMap((t) =>
      t.partitions.map((p) => ({
        topic: t.name,
        partition: p.partitionIndex,
        replicas: p.replicas,
        addingReplicas: p.addingReplicas,
        removingReplicas: p.removingReplicas,
      })),
    )
    .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
}

function check(moves: readonly ReplicaMove[]): void {
  if (moves.length === 0) throw new TidemarkError('no partitions given');
  const seen = new Set<string>();
  for (const m of moves) {
    const key = partitionKey(m.topic, m.partition);
    if (seen.has(key)) throw new TidemarkError(`partition ${m.topic}-${m.partition} is named twice`);
    seen.add(key);
    if (m.replicas !== null && (m.replicas.length === 0 || m.replicas.some((id) => !Number.isInteger(id) || id < 0))) {
      throw new TidemarkError(
        `${m.topic}-${m.partition}: replicas must be broker ids, got ${JSON.stringify(m.replicas)}`,
      );
    }
  }
}
