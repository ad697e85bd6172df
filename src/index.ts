export { ProtocolError, TidemarkError } from '../codecs/errors.js';
export { ErrorCode } from '../protocol/error-codes.js';
export { isKafkaError, KafkaError } from '../protocol/kafka-error.js';
export type { GroupDescription, GroupMemberDescription } from './admin/describe-groups.js';
export { TopicErrors } from './admin/errors.js';
export { GroupNotEmptyError, InvalidOffsetsExportError, NoCommittedOffsetError } from './admin/group-errors.js';
export type { DescribeGroupOffsetsOptions, GroupOffsetsDescription, PartitionLag } from './admin/group-lag.js';
export type { GroupAdmin } from './admin/groups.js';
export type { ListedGroup, ListGroupsOptions } from './admin/list-groups.js';
export type { OffsetForTime, Offsets, PartitionsOf } from './admin/offsets.js';
export {
  type ExportedOffset,
  type ImportOffsetsOptions,
  OFFSETS_EXPORT_FORMAT,
  type OffsetsExport,
  parseOffsetsExport,
} from './admin/offsets-json.js';
export type { ResetOffsetsOptions, ResetPlan, ResetPlanEntry, ResetTarget } from './admin/reset-offsets.js';
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
export { type CallOptions, CallTimeoutError } from './cluster/deadline.js';
export {
  type BrokerInfo,
  BrokerNotFoundError,
  Cluster,
  type ClusterMetadata,
  type PartitionMetadata,
  type TopicMetadata,
} from './cluster/index.js';
export {
  type IsolationLevel,
  type ListedOffset,
  type ListOffsetsOptions,
  type ListOffsetsQuery,
  type OffsetSpec,
  UnsupportedOffsetSpecError,
} from './cluster/list-offsets.js';
export type {
  EpochEndOffset,
  EpochPosition,
  EpochQuery,
  TruncationCheck,
  TruncationStatus,
} from './cluster/offset-for-leader-epoch.js';
export { PartitionErrors, type PartitionFailure, type TopicPartition } from './cluster/partition-errors.js';
export type {
  CommitOffsetsOptions,
  CommittedOffset,
  FetchOffsetsOptions,
  GroupMembership,
  GroupOffsetsQuery,
  OffsetToCommit,
} from './commit/index.js';
export type { ConsumerGroupMetadata } from './consumer/group-metadata.js';
export {
  BrokerOffsetStore,
  CONSUMER_CHANNELS,
  type CommitEvent,
  CommitFailedError,
  type CommitFailedEvent,
  type CommitReason,
  Consumer,
  type ConsumerBatch,
  ConsumerClosedError,
  type ConsumerEventMap,
  type ConsumerEventName,
  type ConsumerHost,
  type ConsumerLogger,
  type ConsumerMetrics,
  type ConsumerOptions,
  ConsumerRecord,
  type ConsumerWarningEvent,
  type FetchEvent,
  IteratorInUseError,
  type LatencySummary,
  LogTruncationError,
  type OffsetResetEvent,
  type OffsetToStore,
  type PartitionLag as ConsumerPartitionLag,
  PartitionNotAssignedError,
  type RebalanceEvent,
  RecordTooLargeError,
  type SeekTarget,
  type TruncationEvent,
  type TruncationSource,
  type WaitOptions,
} from './consumer/index.js';
export { GroupErrors } from './coordinator/group-errors.js';
export type { CoordinatorNode, Coordinators, CoordinatorType } from './coordinator/index.js';
export {
  AuthenticationError,
  type AuthenticationFailure,
  ConfigError,
  Connection,
  ConnectionError,
  FrameSizeError,
  type OAuthBearerToken,
  type OAuthBearerTokenProvider,
  RequestAbortedError,
  RequestTimeoutError,
  type SaslConfig,
  type SecurityLogger,
  type TlsConfig,
  TlsError,
  TlsNameMismatchError,
  UnsupportedMechanismError,
  UnsupportedVersionError,
} from './network/index.js';
export {
  AtomicWriteError,
  type AutoOffsetReset,
  BackwardCommitError,
  CorruptOffsetFileError,
  checkOffsetRanges,
  describeRangeEvent,
  FileOffsetStore,
  type FileOffsetStoreEvent,
  type FileOffsetStoreOptions,
  InvalidOffsetCommitError,
  MemoryOffsetStore,
  NoStoredOffsetError,
  type OffsetCommit,
  OffsetOutOfRangeError,
  type OffsetRangeEvent,
  type OffsetStore,
  OffsetStoreClosedError,
  OffsetStoreLockedError,
  type OutOfRangePolicy,
  type StoredOffset,
} from './offsets/index.js';
export {
  type Acks,
  BufferExhaustedError,
  DeliveryTimeoutError,
  InvalidRecordError,
  murmur2,
  type Partitioner,
  Producer,
  ProducerClosedError,
  type ProducerCloseOptions,
  ProducerFencedError,
  type ProducerOptions,
  type ProducerRecord,
  partitionForKey,
  type RecordMetadata,
  TransactionAbortableError,
  TransactionalCommitAbortedError,
  TransactionalOffsetStore,
  type TransactionalProducer,
  TransactionFatalError,
  type TransactionState,
  TransactionStateError,
} from './producer/index.js';
