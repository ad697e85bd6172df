import type { Cluster } from '../cluster/cluster.js';
import type { TopicPartition } from '../cluster/partition-errors.js';
import { Coordinators } from '../coordinator/coordinators.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../network/connection.js';
import type { AdminCallOptions } from './admin-context.js';
import {
  type ClusterDescription,
  type DescribeClusterOptions,
  describeCluster,
  describeLogDirs,
  type ElectionResult,
  type ElectionType,
  electLeaders,
  type LogDirDescription,
} from './cluster.js';
import type { ConfigResource } from './config-resource.js';
import {
  type AlterConfigsOptions,
  alterConfigs,
  type ConfigChange,
  type DescribeConfigsOptions,
  describeConfigs,
  incrementalAlterConfigs,
  type ResourceConfigs,
} from './configs.js';
import {
  type CreatedPartitions,
  type CreatePartitionsOptions,
  createPartitions,
  type NewPartitions,
} from './partitions.js';
import {
  type AlterReassignmentsOptions,
  alterPartitionReassignments,
  listPartitionReassignments,
  type OngoingReassignment,
  type ReplicaMove,
} from './reassignments.js';
import { type DeletedRecords, type DeleteRecordsOptions, deleteRecords, type RecordsToDelete } from './records.js';
import { TopicAdmin } from './topics.js';
import {
  describeProducers,
  describeTransactions,
  type ListedTransaction,
  type ListTransactionsOptions,
  listTransactions,
  type PartitionProducers,
  type TransactionAdminContext,
  type TransactionDescription,
} from './transactions.js';

/**
 * `client.admin`: topics (TopicAdmin) and the rest of the cluster administration Kafka's AdminClient offers:
 * configs, partitions, records, the cluster, leaders and replica moves. Each method is one module's function.
 */
export class Admin extends TopicAdmin {
  private readonly ctx: TransactionAdminContext;

  /**
   * `coordinators`: the client's coordinator cache, shared so that a transaction coordinator found here
   * (FindCoordinator key type 1, for describeTransactions) is the one the producer uses; its own when omitted.
   */
  constructor(cluster: Cluster, options: { requestTimeoutMs?: number; coordinators?: Coordinators } = {}) {
    super(cluster, options);
    const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const coordinators = options.coordinators ?? new Coordinators(cluster, { requestTimeoutMs });
    this.ctx = { cluster, requestTimeoutMs, coordinators };
  }

  /** The configs of topics, brokers, broker loggers and groups (DescribeConfigs), with sources and synonyms. */
  describeConfigs(resources: readonly ConfigResource[], options?: DescribeConfigsOptions): Promise<ResourceConfigs[]> {
    return describeConfigs(this.ctx, resources, options);
  }

  /** Sets, deletes, appends to or subtracts from single config entries (IncrementalAlterConfigs). */
  incrementalAlterConfigs(
    changes: readonly { resource: ConfigResource; changes: readonly ConfigChange[] }[],
    options?: AlterConfigsOptions,
  ): Promise<ConfigResource[]> {
    return incrementalAlterConfigs(this.ctx, changes, options);
  }

  /** Replaces each resource's whole set of dynamic configs (legacy AlterConfigs). */
  alterConfigs(
    changes: readonly { resource: ConfigResource; configs: Readonly<Record<string, string | null>> }[],
    options?: AlterConfigsOptions,
  ): Promise<ConfigResource[]> {
    return alterConfigs(this.ctx, changes, options);
  }

  /** Raises topics' partition counts, optionally placing the new replicas (CreatePartitions). */
  createPartitions(topics: readonly NewPartitions[], options?: CreatePartitionsOptions): Promise<CreatedPartitions[]> {
    return createPartitions(this.ctx, topics, options);
  }

  /** Deletes the records before the given offsets; returns each partition's new low watermark. */
  deleteRecords(targets: readonly RecordsToDelete[], options?: DeleteRecordsOptions): Promise<DeletedRecords[]> {
    return deleteRecords(this.ctx, targets, options);
  }

  /** Cluster id, controller and brokers (DescribeCluster). */
  describeCluster(options?: DescribeClusterOptions): Promise<ClusterDescription> {
    return describeCluster(this.ctx, options);
  }

  /** Each broker's log directories with the size and lag of every replica in them. */
  describeLogDirs(brokers: readonly number[], options?: AdminCallOptions): Promise<LogDirDescription[]> {
    return describeLogDirs(this.ctx, brokers, options);
  }

  /** Elects the preferred (or, unclean, any live) replica as leader; null partitions: all of the cluster. */
  electLeaders(
    type: ElectionType,
    partitions: readonly TopicPartition[] | null,
    options?: AdminCallOptions,
  ): Promise<ElectionResult[]> {
    return electLeaders(this.ctx, type, partitions, options);
  }

  /** Starts (or, with null replicas, cancels) moving partition replicas to other brokers. */
  alterPartitionReassignments(
    moves: readonly ReplicaMove[],
    options?: AlterReassignmentsOptions,
  ): Promise<TopicPartition[]> {
    return alterPartitionReassignments(this.ctx, moves, options);
  }

  /** The replica moves in progress (of the given partitions, or all). */
  listPartitionReassignments(
    partitions?: readonly TopicPartition[] | null,
    options?: AdminCallOptions,
  ): Promise<OngoingReassignment[]> {
    return listPartitionReassignments(this.ctx, partitions ?? null, options);
  }

  /** The producers each partition's leader holds state for, with their open transaction's start offset. */
  describeProducers(partitions: readonly TopicPartition[], options?: AdminCallOptions): Promise<PartitionProducers[]> {
    return describeProducers(this.ctx, partitions, options);
  }

  /** Transactional ids as their coordinators describe them (state, producer, partitions of the open one). */
  describeTransactions(
    transactionalIds: readonly string[],
    options?: AdminCallOptions,
  ): Promise<TransactionDescription[]> {
    return describeTransactions(this.ctx, transactionalIds, options);
  }

  /** Every transaction of the cluster (each broker lists those it coordinates), optionally filtered. */
  listTransactions(options?: ListTransactionsOptions): Promise<ListedTransaction[]> {
    return listTransactions(this.ctx, options);
  }
}
