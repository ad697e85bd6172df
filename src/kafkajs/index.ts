/**
 * `tidemark/kafkajs`: kafkajs 2.2.4's public API on tidemark's core, so a kafkajs program runs with only its
 * import changed. Every difference that remains is listed, with its reason, in docs/migrating-from-kafkajs.md.
 */
export { Admin, type AdminConfig, type ITopicConfig, type SeekEntry } from './admin.js';
export type {
  Acl,
  AclEntry,
  AclFilter,
  AclResource,
  DeleteAclResponse,
  DescribeAclResponse,
  MatchingAcl,
} from './admin-acls.js';
export type {
  AlterConfigsResponse,
  ConfigEntries,
  ConfigSynonyms,
  DescribeConfigResponse,
  IResourceConfig,
  ListPartitionReassignmentsResponse,
  PartitionReassignment,
  ResourceConfigQuery,
} from './admin-configs.js';
export type {
  CreatePartitionsOptions,
  GroupDescription,
  ITopicPartitionConfig,
  MemberDescription,
} from './admin-groups.js';
export { AssignerProtocol, type PartitionAssigner, PartitionAssigners } from './assigners.js';
export type { KafkaConfig, RetryOptions, SASLOptions } from './config.js';
export {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  CompressionCodecs,
  CompressionTypes,
  ConfigResourceTypes,
  ConfigSource,
  type LogEntry,
  type Logger,
  type logCreator,
  logLevel,
  ResourcePatternTypes,
} from './constants.js';
export {
  Consumer,
  type ConsumerConfig,
  type TopicPartitionOffsetAndMetadata,
  type TopicPartitions,
} from './consumer.js';
export * from './errors.js';
export type { InstrumentationEvent } from './instrumentation.js';
export { Kafka } from './kafka.js';
export {
  DefaultPartitioner,
  type ICustomPartitioner,
  LegacyPartitioner,
  type PartitionerArgs,
  Partitioners,
  type PartitionMetadata,
} from './partitioners.js';
export type { Batch, IHeaders, KafkaMessage } from './payloads.js';
export {
  type Message,
  Producer,
  type ProducerBatch,
  type ProducerConfig,
  type ProducerRecord,
  type RecordMetadata,
} from './producer.js';
export type {
  ConsumerRunConfig,
  EachBatchPayload,
  EachMessagePayload,
  OffsetsByTopicPartition,
} from './runner.js';
export type { Transaction, TransactionOffsets } from './transaction.js';
