export { parseBrokerAddress } from './address.js';
export { type BackoffOptions, backoffDelay } from './backoff.js';
export { BrokerPool, type PoolConnectionOptions } from './broker-pool.js';
export { Cluster, type ClusterOptions } from './cluster.js';
export { BrokerNotFoundError } from './errors.js';
export {
  type BrokerInfo,
  type ClusterMetadata,
  fetchMetadata,
  isStaleMetadataCode,
  type MetadataQuery,
  type PartitionMetadata,
  type TopicMetadata,
  topicOrThrow,
} from './metadata.js';
export { MetadataCache } from './metadata-cache.js';
