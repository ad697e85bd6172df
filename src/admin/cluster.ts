import { TidemarkError } from '../../codecs/errors.js';
import { DescribeCluster } from '../../protocol/apis/describe-cluster.js';
import { DescribeLogDirs } from '../../protocol/apis/describe-log-dirs.js';
import { ElectLeaders } from '../../protocol/apis/elect-leaders.js';
import { type KafkaError, kafkaError } from '../../protocol/kafka-error.js';
import { groupBy } from '../cluster/group-by.js';
import { type PartitionFailure, type TopicPartition, throwPartitionFailures } from '../cluster/partition-errors.js';
import { nameOf, OPERATION } from './acl-codes.js';
import { type AdminCallOptions, type AdminContext, connectionFor, deadlineOf } from './admin-context.js';

/** The cluster as a whole: who is in it (DescribeCluster), what its disks hold (DescribeLogDirs), leaders. */

export interface ClusterBroker {
  nodeId: number;
  host: string;
  port: number;
  rack: string | null;
  /** Fenced brokers are listed only when asked for (DescribeCluster v2+, Kafka 4.x). */
  isFenced: boolean;
}

export interface ClusterDescription {
  clusterId: string;
  /** The controller's id; a KRaft broker names some live broker (it forwards to the quorum), -1 if none. */
  controller: number;
  brokers: ClusterBroker[];
  /** The operations this client may perform on the cluster, when asked for (sorted names, e.g. ALTER). */
  authorizedOperations: string[] | undefined;
}

const OPERATIONS_NOT_ASKED = -2147483648;

/** The names of the bits set in an authorized-operations field; undefined when the broker did not say. */
export function authorizedOperations(bits: number): string[] | undefined {
  if (bits === OPERATIONS_NOT_ASKED) return undefined;
  const names: string[] = [];
  for (let code = 0; code < 32; code++) {
    if ((bits & (1 << code)) !== 0) names.push(operationName(code));
  }
  return names.sort();
}

/** An operation's name from acl-codes.ts; a bit newer than that table keeps its number rather than reading UNKNOWN. */
function operationName(code: number): string {
  const name = nameOf(OPERATION, code);
  return name === 'UNKNOWN' && code !== 0 ? `OPERATION_${code}` : name;
}

export interface DescribeClusterOptions extends AdminCallOptions {
  includeAuthorizedOperations?: boolean;
  /** Kafka 4.x (v2+): also list fenced brokers. */
  includeFencedBrokers?: boolean;
}

/** Cluster id, controller and brokers, as a broker sees them. */
export async function describeCluster(
  ctx: AdminContext,
  options: DescribeClusterOptions = {},
): Promise<ClusterDescription> {
  const deadline = deadlineOf(ctx, 'DescribeCluster', options);
  const connection = await connectionFor(ctx, undefined, deadline);
  const version = options.version ?? connection.versionFor(DescribeCluster);
  if (options.includeFencedBrokers && version < 2) {
    throw new TidemarkError(`listing fenced brokers needs DescribeCluster v2+ (Kafka 4.x), not v${version}`);
  }
  const r = await connection.request(
    DescribeCluster,
    {
      includeClusterAuthorizedOperations: options.includeAuthorizedOperations === true,
      includeFencedBrokers: options.includeFencedBrokers === true,
    },
    { ...deadline.requestOptions(ctx.requestTimeoutMs), version },
  );
  if (r.errorCode !== 0) {
    throw kafkaError(r.errorCode, { message: r.errorMessage, context: { api: 'DescribeCluster', version } });
  }
  return {
    clusterId: r.clusterId,
    controller: r.controllerId,
    brokers: r.brokers
      .map((b) => ({ nodeId: b.brokerId, host: b.host, port: b.port, rack: b.rack, isFenced: b.isFenced }))
      .sort((a, b) => a.nodeId - b.nodeId),
    authorizedOperations: authorizedOperations(r.clusterAuthorizedOperations),
  };
}

export interface ReplicaLogInfo {
  topic: string;
  partition: number;
  /** Bytes on disk. */
  size: bigint;
  /** How far the replica's log end is behind the high watermark (or, for a future log, the current one). */
  offsetLag: bigint;
  /** A copy being moved into this directory (AlterReplicaLogDirs) that will replace the current one. */
  isFuture: boolean;
}

export interface LogDirDescription {
  broker: number;
  path: string;
  /** The directory's error (KAFKA_STORAGE_ERROR: offline), or null. */
  error: KafkaError | null;
  /** Volume size and free space (v4+; -1 when unknown). */
  totalBytes: bigint;
  usableBytes: bigint;
  replicas: ReplicaLogInfo[];
}

/** Every log directory of each broker, with the size and lag of each replica in it. */
export async function describeLogDirs(
  ctx: AdminContext,
  brokers: readonly number[],
  options: AdminCallOptions = {},
): Promise<LogDirDescription[]> {
  if (brokers.length === 0) throw new TidemarkError('no brokers given');
  const deadline = deadlineOf(ctx, 'DescribeLogDirs', options);
  const perBroker = await Promise.all(
    [...new Set(brokers)].map(async (broker) => {
      const connection = await connectionFor(ctx, broker, deadline);
      const version = options.version ?? connection.versionFor(DescribeLogDirs);
      const r = await connection.request(
        DescribeLogDirs,
        { topics: null },
        { ...deadline.requestOptions(ctx.requestTimeoutMs), version },
      );
      if (r.errorCode !== 0) {
        throw kafkaError(r.errorCode, { context: { api: 'DescribeLogDirs', version, broker } });
      }
      return r.results.map((d) => ({
        broker,
        path: d.logDir,
        error: d.errorCode === 0 ? null : kafkaError(d.errorCode, { context: { api: 'DescribeLogDirs', broker } }),
        totalBytes: d.totalBytes,
        usableBytes: d.usableBytes,
        replicas: d.topics
          .flatMap((t) =>
            t.partitions.map((p) => ({
              topic: t.name,
              partition: p.partitionIndex,
              size: p.partitionSize,
              offsetLag: p.offsetLag,
              isFuture: p.isFutureKey,
            })),
          )
          .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition),
      }));
    }),
  );
  return perBroker.flat();
}

export type ElectionType = 'preferred' | 'unclean';

export interface ElectionResult extends TopicPartition {
  /** False when the partition already had the leader asked for (ELECTION_NOT_NEEDED). */
  elected: boolean;
}

/**
 * Elects leaders: the preferred (first) replica, or with `unclean` any live replica even outside the ISR (may
 * lose records). `partitions` null means every partition of the cluster. Partitions that fail throw
 * (PartitionErrors carries the results of the others).
 */
export async function electLeaders(
  ctx: AdminContext,
  type: ElectionType,
  partitions: readonly TopicPartition[] | null,
  options: AdminCallOptions = {},
): Promise<ElectionResult[]> {
  if (type !== 'preferred' && type !== 'unclean') throw new TidemarkError(`unknown election type ${String(type)}`);
  const deadline = deadlineOf(ctx, 'ElectLeaders', options);
  const connection = await deadline.race(ctx.cluster.controllerConnection());
  const version = options.version ?? connection.versionFor(ElectLeaders);
  if (type === 'unclean' && version < 1) throw new TidemarkError('unclean elections need ElectLeaders v1+');
  const timeoutMs = Math.max(1, deadline.remaining());
  const r = await connection.request(
    ElectLeaders,
    {
      electionType: type === 'preferred' ? 0 : 1,
      topicPartitions:
        partitions === null
          ? null
          : [...groupBy(partitions, (p) => p.topic)].map(([topic, list]) => ({
              topic,
              partitions: list.map((p) => p.partition),
            })),
      timeoutMs,
    },
    { ...deadline.requestOptions(ctx.requestTimeoutMs + timeoutMs), version },
  );
  if (r.errorCode !== 0) throw kafkaError(r.errorCode, { context: { api: 'ElectLeaders', version } });
  const results: ElectionResult[] = [];
  const failures: PartitionFailure[] = [];
  for (const t of r.replicaElectionResults) {
    for (const p of t.partitionResult) {
      const where = { topic: t.topic, partition: p.partitionId };
      if (p.errorCode === 0) results.push({ ...where, elected: true });
      else if (p.errorCode === ELECTION_NOT_NEEDED) results.push({ ...where, elected: false });
      else {
        const context = { api: 'ElectLeaders', version, ...where };
        failures.push({ ...where, error: kafkaError(p.errorCode, { message: p.errorMessage, context }) });
      }
    }
  }
  results.sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
  throwPartitionFailures('ElectLeaders', failures, results);
  return results;
}

const ELECTION_NOT_NEEDED = 84;
