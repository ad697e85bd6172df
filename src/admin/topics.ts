import { TidemarkError } from '../../codecs/errors.js';
import { CreateTopics, type CreateTopicsRequestInput } from '../../protocol/apis/create-topics.js';
import { DeleteTopics, type DeleteTopicsRequestInput } from '../../protocol/apis/delete-topics.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { type KafkaError, kafkaError } from '../../protocol/kafka-error.js';
import type { ApiDef, RequestInput, ResponseOf } from '../../protocol/schema.js';
import { backoffDelay, sleep } from '../cluster/backoff.js';
import type { Cluster } from '../cluster/cluster.js';
import { type ClusterMetadata, type TopicMetadata, topicOrThrow, ZERO_TOPIC_ID } from '../cluster/metadata.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../network/connection.js';
import { throwTopicErrors } from './errors.js';
import {
  type DescribedTopicPartitions,
  type DescribeTopicPartitionsOptions,
  describeTopicPartitions,
} from './topic-partitions.js';

export interface NewTopic {
  name: string;
  /** Defaults to -1: the broker's `num.partitions` (CreateTopics v4+). */
  numPartitions?: number;
  /** Defaults to -1: the broker's `default.replication.factor` (CreateTopics v4+). */
  replicationFactor?: number;
  configs?: Record<string, string | null>;
  /** Replica node ids per partition, index = partition; replaces numPartitions and replicationFactor. */
  replicaAssignment?: readonly (readonly number[])[];
}

export interface TopicConfigEntry {
  name: string;
  value: string | null;
  readOnly: boolean;
  isSensitive: boolean;
  /** Kafka's ConfigSource code; -1 when unknown. */
  source: number;
}

export interface CreatedTopic {
  name: string;
  /** From the response (v7+), else from metadata once the topic is visible; undefined for a validateOnly run. */
  topicId: string | undefined;
  numPartitions: number;
  replicationFactor: number;
  /** The topic's resulting configs, when the broker reports them (v5+). */
  configs: TopicConfigEntry[] | undefined;
}

export interface DeletedTopic {
  /** Null when deleted by id and the broker did not name it. */
  name: string | null;
  topicId: string | undefined;
}

export interface VersionedOptions {
  /** Forces the request's version (for tests of each version). */
  version?: number;
}

export interface CreateTopicsOptions extends VersionedOptions {
  /** Only check that the topics could be created. */
  validateOnly?: boolean;
  /** How long the broker may take, and then how long to wait for leaders. Defaults to the request timeout. */
  timeoutMs?: number;
  /** Resolve only once every partition of every created topic has a leader in metadata (default true). */
  waitForLeaders?: boolean;
}

export interface DeleteTopicsOptions extends VersionedOptions {
  timeoutMs?: number;
  /** Resolve only once metadata no longer lists the topics (default true). */
  waitForDeletion?: boolean;
}

const NOT_CONTROLLER_RETRIES = 3;

/** Creating, deleting, listing and describing topics. */
export class TopicAdmin {
  private readonly requestTimeoutMs: number;

  constructor(
    private readonly cluster: Cluster,
    options: { requestTimeoutMs?: number } = {},
  ) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  /**
   * Creates topics. Resolves when all were created (and, by default, have leaders). When one fails its
   * KafkaError is thrown (e.g. TOPIC_ALREADY_EXISTS); when several fail, TopicErrors.
   */
  async createTopics(topics: readonly NewTopic[], options: CreateTopicsOptions = {}): Promise<CreatedTopic[]> {
    checkNames(topics.map((t) => t.name));
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    const request: CreateTopicsRequestInput = {
      topics: topics.map((t) => ({
        name: t.name,
        numPartitions: t.replicaAssignment === undefined ? (t.numPartitions ?? -1) : -1,
        replicationFactor: t.replicaAssignment === undefined ? (t.replicationFactor ?? -1) : -1,
        assignments: (t.replicaAssignment ?? []).map((brokerIds, partitionIndex) => ({
          partitionIndex,
          brokerIds: [...brokerIds],
        })),
        configs: Object.entries(t.configs ?? {}).map(([name, value]) => ({ name, value })),
      })),
      timeoutMs,
    };
    if (options.validateOnly) request.validateOnly = true;

    const { response, version } = await this.toController(
      CreateTopics,
      () => request,
      timeoutMs,
      options.version,
      (r) => r.topics.map((t) => t.errorCode),
    );
    const errors = new Map<string, KafkaError>();
    const created: CreatedTopic[] = [];
    for (const r of response.topics) {
      if (r.errorCode !== 0) {
        const context = { api: 'CreateTopics', version, topic: r.name };
        errors.set(r.name, kafkaError(r.errorCode, { message: r.errorMessage, context }));
        continue;
      }
      const asked = topics.find((t) => t.name === r.name);
      created.push({
        name: r.name,
        topicId: r.topicId === ZERO_TOPIC_ID ? undefined : r.topicId,
        numPartitions:
          r.numPartitions >= 0 ? r.numPartitions : (asked?.replicaAssignment?.length ?? asked?.numPartitions ?? -1),
        replicationFactor:
          r.replicationFactor >= 0
            ? r.replicationFactor
            : (asked?.replicaAssignment?.[0]?.length ?? asked?.replicationFactor ?? -1),
        // Absent before v5, which decodes as an empty list; null from v5 on when the broker could not say.
        configs: (version < 5 ? null : r.configs)?.map((c) => ({
          name: c.name,
          value: c.value,
          readOnly: c.readOnly,
          isSensitive: c.isSensitive,
          source: c.configSource,
        })),
      });
    }
    if (!options.validateOnly && options.waitForLeaders !== false && created.length > 0) {
      const md = await this.waitFor(
        created.map((t) => t.name),
        deadline,
        (topic, name) => {
          if (topic === undefined || topic.error !== undefined || topic.partitions.length === 0) return false;
          const expected = created.find((c) => c.name === name)?.numPartitions ?? -1;
          if (expected > 0 && topic.partitions.length !== expected) return false;
          return topic.partitions.every((p) => p.leader >= 0);
        },
      );
      for (const c of created) {
        const t = md.topics.get(c.name);
        if (t === undefined) continue;
        c.topicId ??= t.topicId;
        if (c.numPartitions < 0) c.numPartitions = t.partitions.length;
        if (c.replicationFactor < 0) c.replicationFactor = t.partitions[0]?.replicas.length ?? -1;
      }
    }
    throwTopicErrors('CreateTopics', errors, created);
    return created;
  }

  /** Deletes topics by name; errors as for createTopics. */
  async deleteTopics(names: readonly string[], options: DeleteTopicsOptions = {}): Promise<DeletedTopic[]> {
    checkNames(names);
    return this.delete(
      (version) => (version >= 6 ? { topics: names.map((name) => ({ name })) } : { topicNames: [...names] }),
      options,
    );
  }

  /** Deletes topics by id (DeleteTopics v6+: Kafka 2.8 and later). */
  async deleteTopicsById(topicIds: readonly string[], options: DeleteTopicsOptions = {}): Promise<DeletedTopic[]> {
    checkNames(topicIds);
    return this.delete((version) => {
      if (version < 6) throw new TidemarkError(`deleting topics by id needs DeleteTopics v6+, not v${version}`);
      return { topics: topicIds.map((topicId) => ({ topicId })) };
    }, options);
  }

  /** Names of every topic, sorted; internal topics (`__consumer_offsets` and the like) only when asked for. */
  async listTopics(options: { includeInternal?: boolean } = {}): Promise<string[]> {
    const md = await this.cluster.metadata();
    return [...md.topics.values()]
      .filter((t) => t.error === undefined && (options.includeInternal || !t.isInternal))
      .map((t) => t.name)
      .sort();
  }

  /** Partitions, leaders and replicas of the named topics; an unknown topic throws UNKNOWN_TOPIC_OR_PARTITION. */
  async describeTopics(names: readonly string[]): Promise<TopicMetadata[]> {
    checkNames(names);
    const md = await this.cluster.metadata({ topics: names });
    const errors = new Map<string, KafkaError>();
    const found: TopicMetadata[] = [];
    for (const name of names) {
      try {
        found.push(topicOrThrow(md, name));
      } catch (err) {
        errors.set(name, err as KafkaError);
      }
    }
    throwTopicErrors('Metadata', errors, found);
    return found;
  }

  /** Partitions with leader, replicas, ISR and eligible leader replicas (KIP-966), every page of them. */
  describeTopicPartitions(
    names: readonly string[],
    options?: DescribeTopicPartitionsOptions,
  ): Promise<DescribedTopicPartitions[]> {
    return describeTopicPartitions({ cluster: this.cluster, requestTimeoutMs: this.requestTimeoutMs }, names, options);
  }

  private async delete(
    body: (version: number) => DeleteTopicsRequestInput,
    options: DeleteTopicsOptions,
  ): Promise<DeletedTopic[]> {
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    const { response, version } = await this.toController(
      DeleteTopics,
      (v: number) => ({ ...body(v), timeoutMs }),
      timeoutMs,
      options.version,
      (r) => r.responses.map((t) => t.errorCode),
    );
    const errors = new Map<string, KafkaError>();
    const deleted: DeletedTopic[] = [];
    for (const r of response.responses) {
      const topicId = r.topicId === ZERO_TOPIC_ID ? undefined : r.topicId;
      if (r.errorCode !== 0) {
        const key = r.name ?? topicId ?? '?';
        const context = { api: 'DeleteTopics', version, topic: key };
        errors.set(key, kafkaError(r.errorCode, { message: r.errorMessage, context }));
      } else {
        deleted.push({ name: r.name, topicId });
      }
    }
    const names = deleted.flatMap((d) => (d.name === null ? [] : [d.name]));
    for (const name of names) this.cluster.metadataCache.invalidate(name);
    if (options.waitForDeletion !== false && names.length > 0) {
      await this.waitFor(names, deadline, (topic) => topic === undefined || topic.error !== undefined);
    }
    throwTopicErrors('DeleteTopics', errors, deleted);
    return deleted;
  }

  /**
   * Sends an admin request to the controller. When every result is NOT_CONTROLLER the controller moved:
   * metadata is refreshed and the request sent again.
   */
  private async toController<A extends ApiDef>(
    api: A,
    body: (version: number) => RequestInput<A>,
    timeoutMs: number,
    forcedVersion: number | undefined,
    codes: (response: ResponseOf<A>) => number[],
  ): Promise<{ response: ResponseOf<A>; version: number }> {
    for (let attempt = 1; ; attempt++) {
      const connection = await this.cluster.controllerConnection();
      const version = forcedVersion ?? connection.versionFor(api);
      // The broker may use all of timeoutMs before it answers; the request must not time out first.
      const response = await connection.request(api, body(version), {
        version,
        timeoutMs: timeoutMs + this.requestTimeoutMs,
      });
      const all = codes(response);
      const moved = all.length > 0 && all.every((c) => c === ErrorCode.NOT_CONTROLLER);
      if (!moved || attempt >= NOT_CONTROLLER_RETRIES) return { response, version };
      await this.cluster.metadataCache.refresh([]);
    }
  }

  /** Polls metadata until `ready` holds for every topic, with backoff, until the deadline. */
  private async waitFor(
    names: string[],
    deadline: number,
    ready: (topic: TopicMetadata | undefined, name: string) => boolean,
  ): Promise<ClusterMetadata> {
    for (let attempt = 1; ; attempt++) {
      const md = await this.cluster.metadata({ topics: names });
      const pending = names.filter((n) => !ready(md.topics.get(n), n));
      if (pending.length === 0) return md;
      if (Date.now() >= deadline) {
        throw kafkaError(ErrorCode.REQUEST_TIMED_OUT, {
          message: `metadata did not show the change to ${pending.join(', ')} before the timeout`,
          context: { api: 'Metadata', topic: pending[0] },
        });
      }
      await sleep(Math.min(backoffDelay(attempt, { initialMs: 50, maxMs: 1_000 }), Math.max(0, deadline - Date.now())));
    }
  }
}

function checkNames(names: readonly string[]): void {
  if (names.length === 0) throw new TidemarkError('no topics given');
  const seen = new Set<string>();
  for (const name of names) {
    if (typeof name !== 'string' || name === '') throw new TidemarkError(`invalid topic name ${JSON.stringify(name)}`);
    if (seen.has(name)) throw new TidemarkError(`topic ${name} is named twice`);
    seen.add(name);
  }
}
