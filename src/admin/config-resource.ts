import { TidemarkError } from '../../codecs/errors.js';

/**
 * The things configs belong to, by Kafka's ConfigResource.Type codes, and the names Kafka's AdminClient gives
 * a config's source and type, so that tidemark's results read like `kafka-configs --describe`.
 */

export type ConfigResourceType = 'topic' | 'broker' | 'broker-logger' | 'client-metrics' | 'group';

export interface ConfigResource {
  type: ConfigResourceType;
  /** Topic or group name; broker id as a string (`''`: the cluster-wide broker default). */
  name: string;
}

const RESOURCE_CODES: Record<ConfigResourceType, number> = {
  topic: 2,
  broker: 4,
  'broker-logger': 8,
  'client-metrics': 16,
  group: 32,
};

export function resourceCode(type: ConfigResourceType): number {
  const code = RESOURCE_CODES[type];
  if (code === undefined) {
    throw new TidemarkError(`unknown config resource type ${JSON.stringify(type)}: ${Object.keys(RESOURCE_CODES)}`);
  }
  return code;
}

export function resourceType(code: number): ConfigResourceType | undefined {
  return (Object.keys(RESOURCE_CODES) as ConfigResourceType[]).find((t) => RESOURCE_CODES[t] === code);
}

/** `topic:orders`, `broker:1`: how a resource is named in errors and result maps. */
export function resourceKey(r: ConfigResource): string {
  return `${r.type}:${r.name}`;
}

/**
 * Broker and broker-logger configs of one broker are only known to that broker, so the request goes there;
 * everything else (and the cluster-wide broker default) any broker answers.
 */
export function resourceNode(r: ConfigResource): number | undefined {
  if ((r.type === 'broker' || r.type === 'broker-logger') && r.name !== '') {
    const id = Number(r.name);
    if (!/^\d+$/.test(r.name) || !Number.isSafeInteger(id)) {
      throw new TidemarkError(`${r.type} resource needs a broker id, got ${JSON.stringify(r.name)}`);
    }
    return id;
  }
  return undefined;
}

/** Where a value comes from, as Kafka's ConfigEntry.ConfigSource names it. */
export type ConfigSource =
  | 'UNKNOWN'
  | 'DYNAMIC_TOPIC_CONFIG'
  | 'DYNAMIC_BROKER_CONFIG'
  | 'DYNAMIC_DEFAULT_BROKER_CONFIG'
  | 'STATIC_BROKER_CONFIG'
  | 'DEFAULT_CONFIG'
  | 'DYNAMIC_BROKER_LOGGER_CONFIG'
  | 'DYNAMIC_CLIENT_METRICS_CONFIG'
  | 'DYNAMIC_GROUP_CONFIG';

const SOURCES: readonly ConfigSource[] = [
  'UNKNOWN',
  'DYNAMIC_TOPIC_CONFIG',
  'DYNAMIC_BROKER_CONFIG',
  'DYNAMIC_DEFAULT_BROKER_CONFIG',
  'STATIC_BROKER_CONFIG',
  'DEFAULT_CONFIG',
  'DYNAMIC_BROKER_LOGGER_CONFIG',
  'DYNAMIC_CLIENT_METRICS_CONFIG',
  'DYNAMIC_GROUP_CONFIG',
];

export function configSource(code: number): ConfigSource {
  return SOURCES[code] ?? 'UNKNOWN';
}

/** A value's type, as Kafka's ConfigEntry.ConfigType names it (DescribeConfigs v3+, else UNKNOWN). */
export type ConfigType =
  | 'UNKNOWN'
  | 'BOOLEAN'
  | 'STRING'
  | 'INT'
  | 'SHORT'
  | 'LONG'
  | 'DOUBLE'
  | 'LIST'
  | 'CLASS'
  | 'PASSWORD';

const TYPES: readonly ConfigType[] = [
  'UNKNOWN',
  'BOOLEAN',
  'STRING',
  'INT',
  'SHORT',
  'LONG',
  'DOUBLE',
  'LIST',
  'CLASS',
  'PASSWORD',
];

export function configType(code: number): ConfigType {
  return TYPES[code] ?? 'UNKNOWN';
}
