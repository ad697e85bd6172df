export { ProtocolError, TidemarkError } from '../codecs/errors.js';
export { ErrorCode } from '../protocol/error-codes.js';
export { isKafkaError, KafkaError } from '../protocol/kafka-error.js';
export { TopicErrors } from './admin/errors.js';
export type {
  CreatedTopic,
  CreateTopicsOptions,
  DeletedTopic,
  DeleteTopicsOptions,
  NewTopic,
  TopicAdmin,
  TopicConfigEntry,
} from './admin/topics.js';
export { Client, type ClientConfig } from './client.js';
export {
  type BrokerInfo,
  BrokerNotFoundError,
  Cluster,
  type ClusterMetadata,
  type PartitionMetadata,
  type TopicMetadata,
} from './cluster/index.js';
export {
  ConfigError,
  Connection,
  ConnectionError,
  FrameSizeError,
  RequestAbortedError,
  RequestTimeoutError,
  UnsupportedVersionError,
} from './network/index.js';
