/**
 * The topic configs the fake knows, with Kafka's defaults: what CreateTopics accepts and DescribeConfigs
 * answers (a value set on the topic is a DYNAMIC_TOPIC_CONFIG, the rest DEFAULT_CONFIG).
 */
export const TOPIC_CONFIG_DEFAULTS: Record<string, string> = {
  'cleanup.policy': 'delete',
  'compression.type': 'producer',
  'max.message.bytes': '1048588',
  'min.insync.replicas': '1',
  'retention.bytes': '-1',
  'retention.ms': '604800000',
  'segment.bytes': '1073741824',
};

/** Kafka's ConfigSource codes the fake reports. */
export const DYNAMIC_TOPIC_CONFIG = 1;
export const DEFAULT_CONFIG = 5;

/** Every known config of a topic with `set` configs: value, source, and whether it is the default. */
export function topicConfigEntries(set: Map<string, string>) {
  return Object.entries(TOPIC_CONFIG_DEFAULTS).map(([name, value]) => ({
    name,
    value: set.get(name) ?? value,
    configSource: set.has(name) ? DYNAMIC_TOPIC_CONFIG : DEFAULT_CONFIG,
    isSensitive: false,
  }));
}
