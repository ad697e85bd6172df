import { TidemarkError } from '../../codecs/errors.js';
import { Metadata, type MetadataRequestInput, type MetadataResponse } from '../../protocol/apis/metadata.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { type KafkaError, kafkaError } from '../../protocol/kafka-error.js';
import type { Connection, RequestOptions } from '../network/connection.js';
import { ImplausibleResponseError } from '../network/errors.js';

/** Kafka's "no topic id": sixteen zero bytes. */
export const ZERO_TOPIC_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

export interface BrokerInfo {
  nodeId: number;
  host: string;
  port: number;
  rack: string | null;
}

export interface PartitionMetadata {
  partition: number;
  /** Node id of the leader; -1 while there is none. */
  leader: number;
  /** -1 when the broker's version does not report it (Metadata v0-6). */
  leaderEpoch: number;
  replicas: number[];
  isr: number[];
  offlineReplicas: number[];
  error: KafkaError | undefined;
}

export interface TopicMetadata {
  name: string;
  /** Undefined when the version does not carry ids (Metadata v0-9) or the broker has none for it. */
  topicId: string | undefined;
  isInternal: boolean;
  /** Sorted by partition number. */
  partitions: PartitionMetadata[];
  /** Set for a topic the broker could not describe, e.g. UNKNOWN_TOPIC_OR_PARTITION. */
  error: KafkaError | undefined;
}

/** One Metadata response, as a model. */
export interface ClusterMetadata {
  clusterId: string | null;
  /** -1 when unknown (v0) or when no controller is available. */
  controllerId: number;
  brokers: Map<number, BrokerInfo>;
  /** Every topic the response named, including those with an error. */
  topics: Map<string, TopicMetadata>;
  /** The Metadata version that produced this. */
  version: number;
}

export interface MetadataQuery {
  /** Topic names; `null` or absent for every topic. */
  topics?: readonly string[] | null;
  /** Topic ids instead of names (Metadata v12+). */
  topicIds?: readonly string[];
  /** Forces a Metadata version (tests of each version). */
  version?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Builds the request for a version: the meaning of an empty topic list and the id fields change across them. */
export function metadataRequest(query: MetadataQuery, version: number): MetadataRequestInput {
  const request: MetadataRequestInput = { allowAutoTopicCreation: false };
  if (query.topicIds !== undefined) {
    if (version < 12) {
      throw new TidemarkError(`looking topics up by id needs Metadata v12+, but this broker is using v${version}`);
    }
    request.topics = query.topicIds.map((topicId) => ({ topicId, name: null }));
  } else if (query.topics == null) {
    // v0 has no null array: there the empty list means "all".
    request.topics = version === 0 ? [] : null;
  } else {
    request.topics = query.topics.map((name) => ({ name }));
  }
  if (version < 4) delete request.allowAutoTopicCreation;
  return request;
}

/** Sends Metadata on one connection and models the answer. Auto-creation is always off (v4+). */
export async function fetchMetadata(connection: Connection, query: MetadataQuery = {}): Promise<ClusterMetadata> {
  const version = query.version ?? connection.versionFor(Metadata);
  if (query.topics?.length === 0 && version === 0) return parseMetadata(await onlyBrokers(connection, query), 0);
  const options: RequestOptions = { version, timeoutMs: query.timeoutMs, signal: query.signal };
  const response = await connection.request(Metadata, metadataRequest(query, version), options);
  return parseMetadata(response, version);
}

/** v0 cannot ask for no topics (an empty list means all), so it asks for all and keeps only the brokers. */
async function onlyBrokers(connection: Connection, query: MetadataQuery): Promise<MetadataResponse> {
  const response = await connection.request(Metadata, { topics: [] }, { version: 0, timeoutMs: query.timeoutMs });
  return { ...response, topics: [] };
}

export function parseMetadata(response: MetadataResponse, version: number): ClusterMetadata {
  const context = { api: 'Metadata', version };
  if (response.errorCode !== 0) throw kafkaError(response.errorCode, { context });
  const brokers = new Map<number, BrokerInfo>();
  for (const b of response.brokers) {
    if (!Number.isInteger(b.port) || b.port < 1 || b.port > 65_535) {
      // Cached, it would send every later connection to a port that cannot exist.
      throw new ImplausibleResponseError(`broker ${b.nodeId} at port ${b.port}`, { ...context, field: 'brokers.port' });
    }
    brokers.set(b.nodeId, { nodeId: b.nodeId, host: b.host, port: b.port, rack: b.rack });
  }
  const topics = new Map<string, TopicMetadata>();
  for (const t of response.topics) {
    // v12+ names no topic asked for by an unknown id; key it by id so the error is not lost.
    const name = t.name ?? t.topicId;
    const partitions = t.partitions
      .map(
        (p): PartitionMetadata => ({
          partition: p.partitionIndex,
          leader: p.leaderId,
          leaderEpoch: p.leaderEpoch,
          replicas: p.replicaNodes,
          isr: p.isrNodes,
          offlineReplicas: p.offlineReplicas,
          error:
            p.errorCode === 0
              ? undefined
              : kafkaError(p.errorCode, { context: { ...context, topic: name, partition: p.partitionIndex } }),
        }),
      )
      .sort((a, b) => a.partition - b.partition);
    topics.set(name, {
      name,
      topicId: t.topicId === ZERO_TOPIC_ID ? undefined : t.topicId,
      isInternal: t.isInternal,
      partitions,
      error: t.errorCode === 0 ? undefined : kafkaError(t.errorCode, { context: { ...context, topic: name } }),
    });
  }
  return {
    clusterId: response.clusterId,
    controllerId: response.controllerId,
    brokers,
    topics,
    version,
  };
}

/** The topic's metadata, or the typed error that explains why there is none. */
export function topicOrThrow(metadata: ClusterMetadata, name: string): TopicMetadata {
  const topic = metadata.topics.get(name);
  if (topic === undefined) {
    throw kafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, { context: { api: 'Metadata', topic: name } });
  }
  if (topic.error !== undefined) throw topic.error;
  return topic;
}

/**
 * Codes after which cached leadership is wrong: Java's InvalidMetadataException family. A request that fails
 * with one of these should refresh metadata before it is retried.
 */
const STALE_METADATA_CODES: ReadonlySet<number> = new Set([
  ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  ErrorCode.LEADER_NOT_AVAILABLE,
  ErrorCode.NOT_LEADER_OR_FOLLOWER,
  ErrorCode.REPLICA_NOT_AVAILABLE,
  ErrorCode.NETWORK_EXCEPTION,
  ErrorCode.KAFKA_STORAGE_ERROR,
  ErrorCode.FENCED_LEADER_EPOCH,
  ErrorCode.UNKNOWN_LEADER_EPOCH,
  ErrorCode.UNKNOWN_TOPIC_ID,
  ErrorCode.INCONSISTENT_TOPIC_ID,
]);

export function isStaleMetadataCode(code: number): boolean {
  return STALE_METADATA_CODES.has(code);
}
