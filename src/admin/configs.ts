import { TidemarkError } from '../../codecs/errors.js';
import { AlterConfigs } from '../../protocol/apis/alter-configs.js';
import { DescribeConfigs, type DescribeConfigsResponse } from '../../protocol/apis/describe-configs.js';
import { IncrementalAlterConfigs } from '../../protocol/apis/incremental-alter-configs.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import type { Deadline } from '../cluster/deadline.js';
import { groupBy } from '../cluster/group-by.js';
import { type AdminCallOptions, type AdminContext, connectionFor, deadlineOf } from './admin-context.js';
import {
  type ConfigResource,
  type ConfigSource,
  type ConfigType,
  configSource,
  configType,
  resourceCode,
  resourceKey,
  resourceNode,
  resourceType,
} from './config-resource.js';
import { throwResourceErrors } from './resource-errors.js';

/**
 * Reading and changing the configs of topics, brokers, broker loggers and (Kafka 4.x) groups: DescribeConfigs,
 * AlterConfigs and IncrementalAlterConfigs, as Kafka's AdminClient offers them.
 */

export interface ConfigSynonym {
  name: string;
  /** Null when sensitive. */
  value: string | null;
  source: ConfigSource;
}

export interface ConfigEntry {
  name: string;
  /** Null for a sensitive value (a password): brokers never send those. */
  value: string | null;
  source: ConfigSource;
  isDefault: boolean;
  isSensitive: boolean;
  isReadOnly: boolean;
  type: ConfigType;
  /** Null unless asked for (`includeDocumentation`). */
  documentation: string | null;
  /** Every place the value could come from, highest precedence first (empty unless `includeSynonyms`). */
  synonyms: ConfigSynonym[];
}

export interface ResourceConfigs {
  resource: ConfigResource;
  configs: ConfigEntry[];
}

export interface DescribeConfigsOptions extends AdminCallOptions {
  /** Only these configs (default: all of each resource). */
  configNames?: readonly string[];
  includeSynonyms?: boolean;
  includeDocumentation?: boolean;
}

export interface AlterConfigsOptions extends AdminCallOptions {
  /** Only check the change: the broker validates it and changes nothing. */
  validateOnly?: boolean;
}

export type ConfigOperation = 'set' | 'delete' | 'append' | 'subtract';

const OPERATION_CODES: Record<ConfigOperation, number> = { set: 0, delete: 1, append: 2, subtract: 3 };

export interface ConfigChange {
  name: string;
  op: ConfigOperation;
  /** Required except for `delete`; for append and subtract, a comma-separated list of items. */
  value?: string | null;
}

/** Describes the configs of each resource. A failing resource throws its KafkaError (several: ResourceErrors). */
export async function describeConfigs(
  ctx: AdminContext,
  resources: readonly ConfigResource[],
  options: DescribeConfigsOptions = {},
): Promise<ResourceConfigs[]> {
  const deadline = deadlineOf(ctx, 'DescribeConfigs', options);
  const errors = new Map<string, TidemarkError>();
  const found = new Map<string, ResourceConfigs>();
  await Promise.all(
    [...groupBy(checkResources(resources), resourceNode)].map(async ([node, group]) => {
      const connection = await connectionFor(ctx, node, deadline);
      const version = options.version ?? connection.versionFor(DescribeConfigs);
      const response = await connection.request(
        DescribeConfigs,
        {
          resources: group.map((r) => ({
            resourceType: resourceCode(r.type),
            resourceName: r.name,
            configurationKeys: options.configNames === undefined ? null : [...options.configNames],
          })),
          includeSynonyms: options.includeSynonyms === true,
          includeDocumentation: options.includeDocumentation === true,
        },
        { ...deadline.requestOptions(ctx.requestTimeoutMs), version },
      );
      for (const r of response.results) {
        const resource = { type: resourceType(r.resourceType) ?? group[0].type, name: r.resourceName };
        if (r.errorCode !== 0) {
          const context = { api: 'DescribeConfigs', version, resource: resourceKey(resource) };
          errors.set(resourceKey(resource), kafkaError(r.errorCode, { message: r.errorMessage, context }));
        } else {
          found.set(resourceKey(resource), { resource, configs: r.configs.map((c) => toEntry(c, version)) });
        }
      }
    }),
  );
  const ordered = resources.flatMap((r) => found.get(resourceKey(r)) ?? []);
  throwResourceErrors('DescribeConfigs', errors, ordered);
  return ordered;
}

type DescribedConfig = DescribeConfigsResponse['results'][number]['configs'][number];

function toEntry(c: DescribedConfig, version: number): ConfigEntry {
  // v0 (Kafka 3.9 only) says only whether the value is the default.
  const source = version === 0 ? (c.isDefault ? 'DEFAULT_CONFIG' : 'UNKNOWN') : configSource(c.configSource);
  return {
    name: c.name,
    value: c.value,
    source,
    isDefault: source === 'DEFAULT_CONFIG',
    isSensitive: c.isSensitive,
    isReadOnly: c.readOnly,
    type: configType(c.configType),
    documentation: c.documentation,
    synonyms: c.synonyms.map((s) => ({ name: s.name, value: s.value, source: configSource(s.source) })),
  };
}

/**
 * Sets single entries of each resource's configs (set, delete, append, subtract), leaving the rest as they
 * are. A rejected change (unknown name, invalid value) throws the broker's KafkaError with its message.
 */
export async function incrementalAlterConfigs(
  ctx: AdminContext,
  changes: readonly { resource: ConfigResource; changes: readonly ConfigChange[] }[],
  options: AlterConfigsOptions = {},
): Promise<ConfigResource[]> {
  const deadline = deadlineOf(ctx, 'IncrementalAlterConfigs', options);
  checkResources(changes.map((c) => c.resource));
  return alter(ctx, 'IncrementalAlterConfigs', changes, deadline, async (connection, group) => {
    const version = options.version ?? connection.versionFor(IncrementalAlterConfigs);
    const request = {
      resources: group.map((c) => ({
        resourceType: resourceCode(c.resource.type),
        resourceName: c.resource.name,
        configs: c.changes.map((change) => ({
          name: change.name,
          configOperation: operationCode(change),
          value: change.value ?? null,
        })),
      })),
      validateOnly: options.validateOnly === true,
    };
    const { responses } = await connection.request(IncrementalAlterConfigs, request, {
      ...deadline.requestOptions(ctx.requestTimeoutMs),
      version,
    });
    return { responses, version };
  });
}

/**
 * Replaces each resource's whole set of dynamic configs with the given one (configs not named return to their
 * defaults), as the legacy AlterConfigs does; prefer incrementalAlterConfigs.
 */
export async function alterConfigs(
  ctx: AdminContext,
  changes: readonly { resource: ConfigResource; configs: Readonly<Record<string, string | null>> }[],
  options: AlterConfigsOptions = {},
): Promise<ConfigResource[]> {
  const deadline = deadlineOf(ctx, 'AlterConfigs', options);
  checkResources(changes.map((c) => c.resource));
  return alter(ctx, 'AlterConfigs', changes, deadline, async (connection, group) => {
    const version = options.version ?? connection.versionFor(AlterConfigs);
    const request = {
      resources: group.map((c) => ({
        resourceType: resourceCode(c.resource.type),
        resourceName: c.resource.name,
        configs: Object.entries(c.configs).map(([name, value]) => ({ name, value })),
      })),
      validateOnly: options.validateOnly === true,
    };
    const { responses } = await connection.request(AlterConfigs, request, {
      ...deadline.requestOptions(ctx.requestTimeoutMs),
      version,
    });
    return { responses, version };
  });
}

interface AlterResult {
  errorCode: number;
  errorMessage: string | null;
  resourceType: number;
  resourceName: string;
}

/** Sends each broker its resources' changes and collects the per-resource results of both alter APIs. */
async function alter<C extends { resource: ConfigResource }>(
  ctx: AdminContext,
  api: string,
  changes: readonly C[],
  deadline: Deadline,
  send: (
    connection: Awaited<ReturnType<typeof connectionFor>>,
    group: C[],
  ) => Promise<{ responses: AlterResult[]; version: number }>,
): Promise<ConfigResource[]> {
  const errors = new Map<string, TidemarkError>();
  const altered = new Set<string>();
  await Promise.all(
    [...groupBy(changes, (c) => resourceNode(c.resource))].map(async ([node, group]) => {
      const { responses, version } = await send(await connectionFor(ctx, node, deadline), group);
      for (const r of responses) {
        const key = `${resourceType(r.resourceType) ?? '?'}:${r.resourceName}`;
        if (r.errorCode === 0) altered.add(key);
        else
          errors.set(
            key,
            kafkaError(r.errorCode, { message: r.errorMessage, context: { api, version, resource: key } }),
          );
      }
    }),
  );
  const done = changes.map((c) => c.resource).filter((r) => altered.has(resourceKey(r)));
  throwResourceErrors(api, errors, done);
  return done;
}

function operationCode(change: ConfigChange): number {
  const code = OPERATION_CODES[change.op];
  if (code === undefined)
    throw new TidemarkError(`unknown config operation ${JSON.stringify(change.op)} for ${change.name}`);
  if (change.op !== 'delete' && (change.value === undefined || change.value === null)) {
    throw new TidemarkError(`config ${change.name}: ${change.op} needs a value`);
  }
  return code;
}

function checkResources<R extends ConfigResource>(resources: readonly R[]): readonly R[] {
  if (resources.length === 0) throw new TidemarkError('no config resources given');
  const seen = new Set<string>();
  for (const r of resources) {
    resourceCode(r.type);
    resourceNode(r);
    const key = resourceKey(r);
    if (seen.has(key)) throw new TidemarkError(`config resource ${key} is named twice`);
    seen.add(key);
  }
  return resources;
}
