/**
 * An in-process Kafka cluster for unit tests (after franz-go's kfake): brokers, topics with partition logs,
 * idempotent producer ids, and per-API handlers (apis/) that answer requests already decoded by tidemark's own
 * request codecs. Tests reach it through the views in views.ts (the producer's and the consumer's cluster) and
 * steer it with `control()` hooks, fetch hooks and produce faults. It models the logic a client depends on, never
 * the broker's timing or storage; the real-broker tests (test/integration) stay the proof.
 */

import { ErrorCode } from '../../protocol/error-codes.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import type { ClusterMetadata, MetadataQuery, PartitionMetadata, TopicMetadata } from '../../src/cluster/metadata.js';
import { answerApiVersions } from './apis/api-versions.js';
import { answerConsumerGroupHeartbeat } from './apis/consumer-group-heartbeat.js';
import { answerCreatePartitions } from './apis/create-partitions.js';
import { answerCreateTopics } from './apis/create-topics.js';
import { answerDeleteTopics } from './apis/delete-topics.js';
import { answerDescribeConfigs } from './apis/describe-configs.js';
import { answerFetch, type FetchHooks, type Sessions } from './apis/fetch.js';
import { answerFindCoordinator } from './apis/find-coordinator.js';
import { answerHeartbeat } from './apis/heartbeat.js';
import { answerInitProducerId } from './apis/init-producer-id.js';
import { answerJoinGroup } from './apis/join-group.js';
import { answerLeaveGroup } from './apis/leave-group.js';
import { answerListOffsets } from './apis/list-offsets.js';
import { answerMetadata } from './apis/metadata.js';
import { answerOffsetCommit } from './apis/offset-commit.js';
import { answerOffsetFetch } from './apis/offset-fetch.js';
import { answerOffsetForLeaderEpoch } from './apis/offset-for-leader-epoch.js';
import { answerProduce, type ProduceCall, type ProduceFault } from './apis/produce.js';
import { answerSyncGroup } from './apis/sync-group.js';
import { type ControlHook, Controls, type FakeRequest } from './control.js';
import { FakeGroup } from './groups.js';
import { type LogEntry, PartitionLog } from './partition-log.js';

type Handler = (kafka: FakeKafka, request: FakeRequest, signal?: AbortSignal) => unknown;

/** The APIs the fake serves, by name; add one file in apis/ and a line here (see README.md). */
const HANDLERS: Record<string, Handler> = {
  ApiVersions: answerApiVersions,
  Metadata: answerMetadata,
  Produce: answerProduce,
  InitProducerId: answerInitProducerId,
  Fetch: answerFetch,
  ListOffsets: answerListOffsets,
  OffsetForLeaderEpoch: answerOffsetForLeaderEpoch,
  FindCoordinator: answerFindCoordinator,
  ConsumerGroupHeartbeat: answerConsumerGroupHeartbeat,
  OffsetCommit: answerOffsetCommit,
  OffsetFetch: answerOffsetFetch,
  JoinGroup: answerJoinGroup,
  SyncGroup: answerSyncGroup,
  Heartbeat: answerHeartbeat,
  LeaveGroup: answerLeaveGroup,
  CreateTopics: answerCreateTopics,
  DeleteTopics: answerDeleteTopics,
  CreatePartitions: answerCreatePartitions,
  DescribeConfigs: answerDescribeConfigs,
};

/** The versions the brokers offer (the client uses these, as it would the negotiated ones). */
const VERSIONS: Record<string, number> = {
  Produce: 11,
  InitProducerId: 4,
  Fetch: 12,
  ListOffsets: 7,
  OffsetForLeaderEpoch: 4,
  Metadata: 12,
  FindCoordinator: 6,
  ConsumerGroupHeartbeat: 1,
  OffsetCommit: 9,
  OffsetFetch: 9,
  ApiVersions: 4,
  JoinGroup: 9,
  SyncGroup: 5,
  Heartbeat: 4,
  LeaveGroup: 5,
  CreateTopics: 7,
  DeleteTopics: 6,
  CreatePartitions: 3,
  DescribeConfigs: 4,
};

export class FakeKafka {
  readonly topics = new Map<string, { topicId: string; partitions: PartitionLog[]; configs: Map<string, string> }>();
  /** Every request, in arrival order. */
  readonly seen: FakeRequest[] = [];
  readonly controls = new Controls();
  readonly fetchHooks: FetchHooks = {};
  readonly fetchSessions: Sessions = new Map();
  readonly produceCalls: ProduceCall[] = [];
  readonly produceFaults = new Map<string, ProduceFault[]>();
  readonly groups = new Map<string, FakeGroup>();
  /** Every connection a client opened, in order (a request's `connection` indexes it). */
  readonly connections: { nodeId: number; isClosed: boolean }[] = [];
  versions: Record<string, number> = { ...VERSIONS };
  /** How long each API takes to answer (ms); a producer's requests take at least a timer tick, as on a socket. */
  readonly latencyMs: Record<string, number> = { Produce: 1, InitProducerId: 1 };
  /** Quota throttle time each API's responses report (ms). */
  readonly throttleTimeMs: Record<string, number> = {};
  /** Set to refuse new connections as a closed client does (not retriable). */
  refuseConnections = false;
  /** Brokers that are down: connecting to them fails with a (retriable) ConnectionError. */
  readonly down = new Set<number>();
  /** Which broker coordinates a group (key type 0) or transactional id (1); the first broker by default. */
  coordinatorOf: (key: string, keyType: number) => number = () => this.nodes[0];
  nextProducerId = 1000n;
  private readonly inFlightNow = new Map<string, number>();
  private readonly inFlightPeak = new Map<string, number>();
  private nextTopicId = 1;

  constructor(readonly nodes: number[] = [1]) {}

  createTopic(
    name: string,
    partitions: number,
    leaderOf: (p: number) => number = () => this.nodes[0],
    configs = new Map<string, string>(),
  ): void {
    const id = Buffer.alloc(16);
    id.writeUInt32BE(this.nextTopicId++, 12);
    const logs = [...Array(partitions)].map((_, p) => new PartitionLog(leaderOf(p)));
    this.topics.set(name, { topicId: id.toString('base64url'), partitions: logs, configs });
  }

  partition(topic: string, partition: number): PartitionLog {
    const log = this.topics.get(topic)?.partitions[partition];
    if (log === undefined) throw new Error(`fake kafka: no partition ${topic}/${partition}`);
    return log;
  }

  /** Appends `count` records (values `v<offset>`) in batches of `perBatch`, in the current leader epoch. */
  append(topic: string, partition: number, count: number, perBatch = 10): void {
    this.partition(topic, partition).appendValues(count, perBatch);
  }

  /** A consumer group, created when first named (as a broker does). */
  group(groupId: string): FakeGroup {
    const group = this.groups.get(groupId) ?? new FakeGroup(groupId);
    this.groups.set(groupId, group);
    return group;
  }

  /** A partition's records, decoded, in offset order. */
  log(topic: string, partition = 0): LogEntry[] {
    return this.partition(topic, partition).entries();
  }

  /** The values in a partition's log, as strings, in offset order. */
  values(topic: string, partition = 0): string[] {
    return this.log(topic, partition).map((e) => e.record.value?.toString() ?? '<null>');
  }

  moveLeader(topic: string, partition: number, to: number): void {
    this.partition(topic, partition).moveTo(to);
  }

  /** The requests of one API (to one broker, if given). */
  requests(api: string, node?: number): FakeRequest[] {
    return this.seen.filter((r) => r.api === api && (node === undefined || r.node === node));
  }

  fetches(node?: number): FakeRequest[] {
    return this.requests('Fetch', node);
  }

  /** Intercepts requests of `api`: see control.ts. Returns a function that removes the hook. */
  control(api: string, hook: ControlHook, options: { times?: number; node?: number } = {}): () => void {
    return this.controls.add(api, hook, options);
  }

  /** The next `times` Produce attempts that include topic-partition meet `fault`. */
  injectProduce(topic: string, partition: number, fault: ProduceFault, times = 1): void {
    const key = `${topic}/${partition}`;
    const list = this.produceFaults.get(key) ?? [];
    for (let i = 0; i < times; i++) list.push(fault);
    this.produceFaults.set(key, list);
  }

  /** The most requests of `api` that were being answered at once. */
  maxInFlight(api: string): number {
    return this.inFlightPeak.get(api) ?? 0;
  }

  topicNameOf(topicId: string): string {
    const name = this.topicNamed(topicId);
    if (name === undefined) throw new Error(`fake kafka: unknown topic id ${topicId}`);
    return name;
  }

  /** The name of the topic with this id, if there is one. */
  topicNamed(topicId: string): string | undefined {
    for (const [name, t] of this.topics) if (t.topicId === topicId) return name;
    return undefined;
  }

  /** The cluster's metadata: every topic, or those the query names (by name or id) that exist. */
  metadata(query: MetadataQuery = {}): ClusterMetadata {
    const topics = new Map<string, TopicMetadata>();
    for (const [name, { topicId }] of this.topics) {
      if (query.topics != null && !query.topics.includes(name)) continue;
      if (query.topicIds !== undefined && !query.topicIds.includes(topicId)) continue;
      topics.set(name, this.topicMetadata(name));
    }
    const brokers = new Map(
      this.nodes.map((nodeId) => [nodeId, { nodeId, host: `fake-${nodeId}`, port: 9092, rack: null }]),
    );
    return { clusterId: 'fake', controllerId: this.nodes[0], brokers, topics, version: 12 };
  }

  /** One topic's metadata; a topic that does not exist throws UNKNOWN_TOPIC_OR_PARTITION, as the cache does. */
  topicMetadata(name: string): TopicMetadata {
    const topic = this.topics.get(name);
    if (topic === undefined) {
      throw kafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, { context: { api: 'Metadata', topic: name } });
    }
    return {
      name,
      topicId: topic.topicId,
      isInternal: false,
      error: undefined,
      partitions: topic.partitions.map(
        (p, partition): PartitionMetadata => ({
          partition,
          leader: p.leader,
          leaderEpoch: p.leaderEpoch,
          replicas: this.nodes,
          isr: this.nodes,
          offlineReplicas: [],
          error: undefined,
        }),
      ),
    };
  }

  /** Answers one request (decoded by the real request codec): control hooks first, then the API's handler. */
  async answer(
    node: number,
    api: string,
    version: number,
    body: unknown,
    signal?: AbortSignal,
    connection = -1,
  ): Promise<unknown> {
    const request: FakeRequest = { node, api, version, body, at: Date.now(), connection };
    this.seen.push(request);
    const controlled = this.controls.consult(request);
    if (controlled !== undefined && 'error' in controlled) throw controlled.error;
    if (controlled !== undefined && 'response' in controlled) return controlled.response;
    const handler = HANDLERS[api];
    if (handler === undefined) throw new Error(`fake kafka does not speak ${api}`);
    const now = (this.inFlightNow.get(api) ?? 0) + 1;
    this.inFlightNow.set(api, now);
    this.inFlightPeak.set(api, Math.max(now, this.maxInFlight(api)));
    try {
      if (controlled?.after !== undefined) await controlled.after;
      const delayMs = (controlled?.delayMs ?? 0) + (this.latencyMs[api] ?? 0);
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      return await handler(this, request, signal);
    } finally {
      this.inFlightNow.set(api, (this.inFlightNow.get(api) ?? 1) - 1);
    }
  }
}

/** A cluster of the given brokers with the given topics (name -> partition count), leaders on the first broker. */
export function fakeKafkaWith(topics: Record<string, number>, nodes: number[] = [1]): FakeKafka {
  const kafka = new FakeKafka(nodes);
  for (const [name, partitions] of Object.entries(topics)) kafka.createTopic(name, partitions);
  return kafka;
}
