/**
 * kafkajs's config and replica-move admin calls on the core Admin: describeConfigs, alterConfigs (the legacy
 * whole-set AlterConfigs, as kafkajs sends it), alterPartitionReassignments and listPartitionReassignments, in
 * kafkajs 2.2.4's result shapes (numeric enums, `{ resources }` and `{ topics }` wrappers) and with its errors:
 * the first refused resource's protocol error, each refused partition's KafkaJSAlterPartitionReassignmentsError.
 */
import {
  type Client,
  type ConfigResource,
  type ConfigSource as CoreConfigSource,
  isKafkaError,
  PartitionErrors,
  ResourceErrors,
} from '../index.js';
import { ConfigResourceTypes, ConfigSource } from './constants.js';
import {
  KafkaJSAggregateError,
  KafkaJSAlterPartitionReassignmentsError,
  KafkaJSNonRetriableError,
  type KafkaJSProtocolError,
  toKafkaJSError,
} from './errors.js';

/** A resource to describe; `configNames` empty or absent: all of its configs. */
export interface ResourceConfigQuery {
  type: ConfigResourceTypes;
  name: string;
  configNames?: string[];
}

/** Where else a config's value could come from (includeSynonyms). */
export interface ConfigSynonyms {
  configName: string;
  configValue: string | null;
  configSource: ConfigSource;
}

/** One config of a described resource; a sensitive value is null. */
export interface ConfigEntries {
  configName: string;
  configValue: string | null;
  readOnly: boolean;
  isDefault: boolean;
  configSource: ConfigSource;
  isSensitive: boolean;
  configSynonyms: ConfigSynonyms[];
}

/** describeConfigs: each resource asked for, in the order asked. */
export interface DescribeConfigResponse {
  resources: {
    errorCode: number;
    errorMessage: string | null;
    resourceType: ConfigResourceTypes;
    resourceName: string;
    configEntries: ConfigEntries[];
  }[];
}

/** A resource's whole new set of dynamic configs (alterConfigs). */
export interface IResourceConfig {
  type: ConfigResourceTypes;
  name: string;
  configEntries: { name: string; value: string }[];
}

/** alterConfigs: each altered resource with its (zero) error code. */
export interface AlterConfigsResponse {
  resources: {
    errorCode: number;
    errorMessage: string | null;
    resourceType: ConfigResourceTypes;
    resourceName: string;
  }[];
}

/** The new replicas of some partitions of a topic. */
export interface PartitionReassignment {
  topic: string;
  partitionAssignment: { partition: number; replicas: number[] }[];
}

/** What kafkajs 2.2.4 returns at run time (its .d.ts says `topic`/`partitionIndex`; the decoder gives these). */
export interface ListPartitionReassignmentsResponse {
  topics: {
    name: string;
    partitions: { partition: number; replicas: number[]; addingReplicas: number[]; removingReplicas: number[] }[];
  }[];
}

const CORE_RESOURCE_TYPES: Partial<Record<ConfigResourceTypes, ConfigResource['type']>> = {
  [ConfigResourceTypes.TOPIC]: 'topic',
  [ConfigResourceTypes.BROKER]: 'broker',
  [ConfigResourceTypes.BROKER_LOGGER]: 'broker-logger',
};

/** The core's name of a kafkajs config resource type; an unknown one is refused as kafkajs refuses it. */
function coreResource(r: { type: ConfigResourceTypes; name: string }): ConfigResource {
  const type = CORE_RESOURCE_TYPES[r.type];
  if (type === undefined) throw new KafkaJSNonRetriableError(`Invalid resource type ${r.type}: ${JSON.stringify(r)}`);
  if (!r.name || typeof r.name !== 'string') {
    throw new KafkaJSNonRetriableError(`Invalid resource name ${r.name}: ${JSON.stringify(r)}`);
  }
  return { type, name: r.name };
}

/** kafkajs's number for a source: the same names, but the topic's source is TOPIC_CONFIG there. */
function sourceCode(source: CoreConfigSource): ConfigSource {
  if (source === 'DYNAMIC_TOPIC_CONFIG') return ConfigSource.TOPIC_CONFIG;
  return ConfigSource[source as keyof typeof ConfigSource] ?? ConfigSource.UNKNOWN;
}

function checkResources<T>(resources: T[] | undefined): T[] {
  if (!resources || !Array.isArray(resources))
    throw new KafkaJSNonRetriableError(`Invalid resources array ${resources}`);
  if (resources.length === 0) throw new KafkaJSNonRetriableError('Resources array cannot be empty');
  return resources;
}

/** kafkajs rejects a config or ACL call with the first refused resource's error, not an aggregate. */
export async function firstResourceError<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toKafkaJSError(err instanceof ResourceErrors ? err.errors.values().next().value : err);
  }
}

/** kafkajs `admin.describeConfigs`; a refused resource throws its protocol error. */
export async function describeConfigs(
  client: Client,
  options: { resources: ResourceConfigQuery[]; includeSynonyms?: boolean },
): Promise<DescribeConfigResponse> {
  const queries = checkResources(options.resources);
  for (const q of queries) {
    coreResource(q);
    if (q.configNames != null && !Array.isArray(q.configNames)) {
      throw new KafkaJSNonRetriableError(`Invalid resource configNames ${q.configNames}: ${JSON.stringify(q)}`);
    }
  }
  // The core takes one list of names per call; kafkajs one per resource (empty: all of them).
  const byNames = new Map<string, ResourceConfigQuery[]>();
  for (const q of queries) {
    const key = JSON.stringify(q.configNames?.length ? q.configNames : null);
    byNames.set(key, [...(byNames.get(key) ?? []), q]);
  }
  const described = await firstResourceError(() =>
    Promise.all(
      [...byNames].map(([key, group]) =>
        client.admin.describeConfigs(group.map(coreResource), {
          includeSynonyms: options.includeSynonyms === true,
          ...(key === 'null' ? {} : { configNames: JSON.parse(key) as string[] }),
        }),
      ),
    ),
  );
  const all = described.flat();
  return {
    resources: queries.map((q) => {
      const { type, name } = coreResource(q);
      const found = all.find((r) => r.resource.type === type && r.resource.name === name);
      return {
        errorCode: 0,
        // What kafkajs reads for a described resource: the broker's empty message, not null.
        errorMessage: '',
        resourceType: q.type,
        resourceName: q.name,
        configEntries: (found?.configs ?? []).map((c) => ({
          configName: c.name,
          configValue: c.value,
          readOnly: c.isReadOnly,
          isDefault: c.isDefault,
          configSource: sourceCode(c.source),
          isSensitive: c.isSensitive,
          configSynonyms: c.synonyms.map((s) => ({
            configName: s.name,
            configValue: s.value,
            configSource: sourceCode(s.source),
          })),
        })),
      };
    }),
  };
}

/** kafkajs `admin.alterConfigs` (AlterConfigs: configs not named return to their defaults). */
export async function alterConfigs(
  client: Client,
  options: { resources: IResourceConfig[]; validateOnly?: boolean },
): Promise<AlterConfigsResponse> {
  const resources = checkResources(options.resources);
  for (const r of resources) {
    coreResource(r);
    if (!Array.isArray(r.configEntries)) {
      throw new KafkaJSNonRetriableError(`Invalid resource configEntries ${r.configEntries}: ${JSON.stringify(r)}`);
    }
    if (r.configEntries.some((e) => typeof e.name !== 'string' || typeof e.value !== 'string')) {
      throw new KafkaJSNonRetriableError(`Invalid resource config value: ${JSON.stringify(r)}`);
    }
  }
  await firstResourceError(() =>
    client.admin.alterConfigs(
      resources.map((r) => ({
        resource: coreResource(r),
        configs: Object.fromEntries(r.configEntries.map((e) => [e.name, e.value])),
      })),
      { validateOnly: options.validateOnly === true },
    ),
  );
  return {
    resources: resources.map((r) => ({ errorCode: 0, errorMessage: null, resourceType: r.type, resourceName: r.name })),
  };
}

/** kafkajs `admin.alterPartitionReassignments`; refused partitions throw KafkaJSAggregateError. */
export async function alterPartitionReassignments(
  client: Client,
  options: { topics: PartitionReassignment[]; timeout?: number },
): Promise<void> {
  const { topics } = options;
  if (!topics || !Array.isArray(topics)) throw new KafkaJSNonRetriableError(`Invalid topics array ${topics}`);
  if (new Set(topics.map((t) => t.topic)).size < topics.length) {
    throw new KafkaJSNonRetriableError('Invalid topics array, it cannot have multiple entries for the same topic');
  }
  const moves = topics.flatMap(({ topic, partitionAssignment }) => {
    if (!Array.isArray(partitionAssignment)) {
      throw new KafkaJSNonRetriableError(`Invalid partitions array: ${partitionAssignment} for topic: ${topic}`);
    }
    return partitionAssignment.map(({ partition, replicas }) => ({ topic, partition, replicas }));
  });
  try {
    await client.admin.alterPartitionReassignments(
      moves,
      options.timeout === undefined ? {} : { timeoutMs: options.timeout },
    );
  } catch (err) {
    const failures = err instanceof PartitionErrors ? err.failures : isKafkaError(err) ? [err] : undefined;
    if (failures === undefined) throw toKafkaJSError(err);
    throw new KafkaJSAggregateError(
      'Errors altering partition reassignments',
      failures.map((f) => {
        const error = 'error' in f ? f.error : f;
        const where = 'error' in f ? f : (f.context as { topic?: string; partition?: number });
        return new KafkaJSAlterPartitionReassignmentsError(
          toKafkaJSError(error) as KafkaJSProtocolError,
          where.topic,
          where.partition,
        );
      }),
    );
  }
}

/** kafkajs `admin.listPartitionReassignments`: the moves in progress, by topic. */
export async function listPartitionReassignments(
  client: Client,
  options: { topics?: { topic: string; partitions: number[] }[] | null; timeout?: number } = {},
): Promise<ListPartitionReassignmentsResponse> {
  const { topics } = options;
  if (topics != null && !Array.isArray(topics)) throw new KafkaJSNonRetriableError(`Invalid topics array ${topics}`);
  const partitions = topics?.flatMap(({ topic, partitions: ps }) => ps.map((partition) => ({ topic, partition })));
  const ongoing = await firstResourceError(() =>
    client.admin.listPartitionReassignments(
      partitions ?? null,
      options.timeout === undefined ? {} : { timeoutMs: options.timeout },
    ),
  );
  const byTopic = new Map<string, ListPartitionReassignmentsResponse['topics'][number]>();
  for (const r of ongoing) {
    let t = byTopic.get(r.topic);
    if (t === undefined) {
      t = { name: r.topic, partitions: [] };
      byTopic.set(r.topic, t);
    }
    t.partitions.push({
      partition: r.partition,
      replicas: r.replicas,
      addingReplicas: r.addingReplicas,
      removingReplicas: r.removingReplicas,
    });
  }
  return { topics: [...byTopic.values()] };
}
