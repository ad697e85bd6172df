/**
 * kafkajs's `admin()` on the core Admin, GroupAdmin and Offsets, with kafkajs's result shapes: string
 * offsets, `createTopics` answering false when every topic already existed, `{ topics: [...] }` wrappers, and
 * kafkajs's error classes for what fails (KafkaJSCreateTopicError naming the topic, KafkaJSDeleteGroupsError).
 */
import { type Client, isKafkaError, type KafkaError, TopicErrors } from '../index.js';
import {
  type AclEntry,
  type AclFilter,
  createAcls,
  type DeleteAclResponse,
  type DescribeAclResponse,
  deleteAcls,
  describeAcls,
} from './admin-acls.js';
import {
  type AlterConfigsResponse,
  alterConfigs,
  alterPartitionReassignments,
  type DescribeConfigResponse,
  describeConfigs,
  type IResourceConfig,
  type ListPartitionReassignmentsResponse,
  listPartitionReassignments,
  type PartitionReassignment,
  type ResourceConfigQuery,
} from './admin-configs.js';
import { type CreatePartitionsOptions, createPartitions, deleteGroups, describeGroups } from './admin-groups.js';
import type { Logger } from './constants.js';
import {
  KafkaJSAggregateError,
  KafkaJSCreateTopicError,
  KafkaJSNonRetriableError,
  type KafkaJSProtocolError,
  toKafkaJSError,
  translated,
} from './errors.js';
import { Instrumentation } from './instrumentation.js';
import { partitionMetadataOf } from './partitioners.js';

export interface AdminConfig {
  retry?: unknown;
}

export interface ITopicConfig {
  topic: string;
  numPartitions?: number;
  replicationFactor?: number;
  replicaAssignment?: { partition: number; replicas: number[] }[];
  configEntries?: { name: string; value: string }[];
}

export interface SeekEntry {
  partition: number;
  offset: string;
}

export class Admin {
  readonly events = Instrumentation.adminEvents;
  private client: Client | undefined;
  private readonly instrumentation = new Instrumentation('admin');

  constructor(
    private readonly connectClient: () => Promise<Client>,
    _config: AdminConfig,
    private readonly log: Logger,
  ) {
    reportRequestsOf(this, this.instrumentation);
  }

  protected get core(): Client {
    if (this.client === undefined) throw new KafkaJSNonRetriableError('The admin client is disconnected');
    return this.client;
  }

  async connect(): Promise<void> {
    if (this.client !== undefined) return;
    this.client = await translated(this.connectClient);
    await translated(() => this.core.metadata({ topics: [] }));
    this.instrumentation.emit('admin.connect', {});
  }

  async disconnect(): Promise<void> {
    const client = this.client;
    if (client === undefined) return;
    this.client = undefined;
    await client.close();
    this.instrumentation.emit('admin.disconnect', {});
  }

  listTopics(): Promise<string[]> {
    return translated(() => this.core.admin.listTopics());
  }

  /**
   * True when created; false when every topic already existed. Any other failure (an existing topic among new
   * ones included) throws KafkaJSAggregateError of KafkaJSCreateTopicError, as kafkajs does.
   */
  async createTopics(options: {
    topics: ITopicConfig[];
    validateOnly?: boolean;
    waitForLeaders?: boolean;
    timeout?: number;
  }): Promise<boolean> {
    const { topics } = options;
    if (!Array.isArray(topics) || topics.length === 0)
      throw new KafkaJSNonRetriableError(`Invalid topics array ${topics}`);
    const names = new Set(topics.map((t) => t.topic));
    if (names.size < topics.length)
      throw new KafkaJSNonRetriableError('Invalid topics array, it cannot have multiple entries for the same topic');
    const core = this.core;
    try {
      await core.admin.createTopics(
        topics.map((t) => ({
          name: t.topic,
          numPartitions: t.replicaAssignment?.length ? undefined : (t.numPartitions ?? -1),
          replicationFactor: t.replicaAssignment?.length ? undefined : (t.replicationFactor ?? -1),
          ...(t.replicaAssignment?.length
            ? {
                replicaAssignment: [...t.replicaAssignment]
                  .sort((x, y) => x.partition - y.partition)
                  .map((r) => r.replicas),
              }
            : {}),
          configs: Object.fromEntries((t.configEntries ?? []).map((e) => [e.name, e.value])),
        })),
        {
          validateOnly: options.validateOnly === true,
          waitForLeaders: options.waitForLeaders !== false,
          ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout }),
        },
      );
    } catch (err) {
      const failures = topicFailures(err);
      if (failures === undefined) throw toKafkaJSError(err);
      if (failures.every(([, e]) => e.errorName === 'TOPIC_ALREADY_EXISTS')) return false;
      throw new KafkaJSAggregateError(
        'Topic creation errors',
        failures.map(([topic, e]) => new KafkaJSCreateTopicError(toKafkaJSError(e) as KafkaJSProtocolError, topic)),
      );
    }
    return true;
  }

  async deleteTopics(options: { topics: string[]; timeout?: number }): Promise<void> {
    const core = this.core;
    await translated(() =>
      core.admin.deleteTopics(options.topics, options.timeout === undefined ? {} : { timeoutMs: options.timeout }),
    );
  }

  async fetchTopicMetadata(options: { topics?: string[] } = {}) {
    const core = this.core;
    const md = await translated(() => core.metadata(options.topics === undefined ? {} : { topics: options.topics }));
    const names = options.topics ?? [...md.topics.keys()];
    return {
      topics: names.map((name) => {
        const t = md.topics.get(name);
        if (t === undefined || t.error !== undefined)
          throw toKafkaJSError(t?.error ?? new Error(`unknown topic ${name}`));
        return {
          name,
          partitions: t.partitions.map(partitionMetadataOf),
        };
      }),
    };
  }

  /** Per partition: `offset` and `high` the latest offset, `low` the earliest, as strings. */
  async fetchTopicOffsets(topic: string): Promise<{ partition: number; offset: string; high: string; low: string }[]> {
    const core = this.core;
    const [low, high] = await translated(() => Promise.all([core.offsets.earliest(topic), core.offsets.latest(topic)]));
    return high
      .map((h) => {
        const l = low.find((x) => x.partition === h.partition);
        return {
          partition: h.partition,
          offset: String(h.offset),
          high: String(h.offset),
          low: String(l?.offset ?? 0n),
        };
      })
      .sort((a, b) => a.partition - b.partition);
  }

  async fetchTopicOffsetsByTimestamp(topic: string, timestamp?: number): Promise<SeekEntry[]> {
    const core = this.core;
    const [found, high] = await translated(async () => {
      const latest = await core.offsets.latest(topic);
      const at = timestamp ?? Date.now();
      return [await core.offsets.offsetsForTimes(latest.map((l) => ({ ...l, timestamp: at }))), latest] as const;
    });
    return found
      .map((f) => {
        const h = high.find((x) => x.partition === f.partition);
        return { partition: f.partition, offset: String(f.offset ?? h?.offset ?? -1n) };
      })
      .sort((a, b) => a.partition - b.partition);
  }

  /** The group's committed offsets per topic; '-1' where it has none (kafkajs's answer). */
  async fetchOffsets(options: { groupId: string; topics?: string[]; resolveOffsets?: boolean }) {
    const { groupId } = options;
    if (!groupId) throw new KafkaJSNonRetriableError(`Invalid groupId ${groupId}`);
    const core = this.core;
    const topics = options.topics ?? [];
    const result: { topic: string; partitions: { partition: number; offset: string; metadata: string | null }[] }[] =
      [];
    const committed = await translated(async () => {
      if (topics.length === 0) return core.offsets.committed(groupId);
      const md = await core.metadata({ topics });
      const partitions = topics.flatMap((topic) =>
        (md.topics.get(topic)?.partitions ?? []).map((p) => ({ topic, partition: p.partition })),
      );
      return core.offsets.committed(groupId, partitions);
    });
    for (const c of committed) {
      let entry = result.find((r) => r.topic === c.topic);
      if (entry === undefined) {
        entry = { topic: c.topic, partitions: [] };
        result.push(entry);
      }
      entry.partitions.push({ partition: c.partition, offset: String(c.offset ?? -1n), metadata: c.metadata });
    }
    for (const r of result) r.partitions.sort((a, b) => a.partition - b.partition);
    return result;
  }

  async setOffsets(options: { groupId: string; topic: string; partitions: SeekEntry[] }): Promise<void> {
    const { groupId, topic, partitions } = options;
    const core = this.core;
    await translated(() =>
      core.offsets.commit(
        groupId,
        partitions.map((p) => ({ topic, partition: p.partition, offset: BigInt(p.offset) })),
      ),
    );
  }

  async resetOffsets(options: { groupId: string; topic: string; earliest?: boolean }): Promise<void> {
    const { groupId, topic } = options;
    const core = this.core;
    const listed = await translated(() =>
      options.earliest === true ? core.offsets.earliest(topic) : core.offsets.latest(topic),
    );
    await this.setOffsets({
      groupId,
      topic,
      partitions: listed.map((l) => ({ partition: l.partition, offset: String(l.offset) })),
    });
  }

  async listGroups(): Promise<{ groups: { groupId: string; protocolType: string }[] }> {
    const core = this.core;
    const groups = await translated(() => core.groups.listGroups());
    return { groups: groups.map((g) => ({ groupId: g.groupId, protocolType: g.protocolType })) };
  }

  async describeCluster() {
    const core = this.core;
    const d = await translated(() => core.admin.describeCluster());
    return {
      brokers: d.brokers.map((b) => ({ nodeId: b.nodeId, host: b.host, port: b.port })),
      controller: d.controller < 0 ? null : d.controller,
      clusterId: d.clusterId,
    };
  }

  async deleteTopicRecords(options: { topic: string; partitions: SeekEntry[] }): Promise<void> {
    const { topic, partitions } = options;
    const core = this.core;
    await translated(() =>
      core.admin.deleteRecords(
        partitions.map((p) => ({
          topic,
          partition: p.partition,
          before: p.offset === '-1' ? ('high-watermark' as const) : BigInt(p.offset),
        })),
      ),
    );
  }

  describeGroups(groupIds: string[]) {
    return describeGroups(this.core, groupIds);
  }

  deleteGroups(groupIds: string[]) {
    return deleteGroups(this.core, groupIds);
  }

  createPartitions(options: CreatePartitionsOptions): Promise<void> {
    return createPartitions(this.core, options);
  }

  describeConfigs(options: {
    resources: ResourceConfigQuery[];
    includeSynonyms?: boolean;
  }): Promise<DescribeConfigResponse> {
    return describeConfigs(this.core, options);
  }

  alterConfigs(options: { resources: IResourceConfig[]; validateOnly?: boolean }): Promise<AlterConfigsResponse> {
    return alterConfigs(this.core, options);
  }

  createAcls(options: { acl: AclEntry[] }): Promise<boolean> {
    return createAcls(this.core, options);
  }

  describeAcls(filter: AclFilter): Promise<DescribeAclResponse> {
    return describeAcls(this.core, filter);
  }

  deleteAcls(options: { filters: AclFilter[] }): Promise<DeleteAclResponse> {
    return deleteAcls(this.core, options);
  }

  alterPartitionReassignments(options: { topics: PartitionReassignment[]; timeout?: number }): Promise<void> {
    return alterPartitionReassignments(this.core, options);
  }

  listPartitionReassignments(
    options: { topics?: { topic: string; partitions: number[] }[] | null; timeout?: number } = {},
  ): Promise<ListPartitionReassignmentsResponse> {
    return listPartitionReassignments(this.core, options);
  }

  on(eventName: string, listener: (event: unknown) => void): () => void {
    return this.instrumentation.on(eventName, listener);
  }

  logger(): Logger {
    return this.log;
  }
}

/**
 * Runs every public method of the admin (those of its subclasses included) inside `instrumentation.within`, so
 * that the requests each causes are reported as this admin's REQUEST, REQUEST_TIMEOUT and REQUEST_QUEUE_SIZE.
 */
function reportRequestsOf(admin: Admin, instrumentation: Instrumentation): void {
  const own = new Set(['constructor', 'on', 'logger']);
  const target = admin as unknown as Record<string, unknown>;
  for (let proto = Object.getPrototypeOf(admin); proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const method = Object.getOwnPropertyDescriptor(proto, name)?.value;
      if (own.has(name) || typeof method !== 'function' || Object.hasOwn(target, name)) continue;
      target[name] = (...args: unknown[]) => instrumentation.within(() => method.apply(admin, args));
    }
  }
}

/** The per-topic broker errors of a failed createTopics (kafkajs reports each), sorted by topic as kafkajs does. */
function topicFailures(err: unknown): [string, KafkaError][] | undefined {
  if (err instanceof TopicErrors)
    return [...(err.errors as Map<string, KafkaError>)].sort(([a], [b]) => (a < b ? -1 : 1));
  if (isKafkaError(err) && typeof err.context.topic === 'string') return [[err.context.topic, err]];
  return undefined;
}
