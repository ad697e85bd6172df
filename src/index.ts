export type { CompressionCodec, CompressionCodecName } from '../codecs/compression/codec.js';
export {
  CompressionError,
  DecompressionLimitError,
  UnsupportedCompressionError,
} from '../codecs/compression/errors.js';
export { ProtocolError, type ProtocolErrorContext, TidemarkError } from '../codecs/errors.js';
export type { UnknownTaggedField } from '../codecs/reader.js';
export { CorruptRecordError, type RecordsContext } from '../codecs/records/errors.js';
export {
  type KafkaRecord,
  type RecordBatch,
  type RecordBatchBase,
  type RecordHeader,
  TimestampType,
  type TimestampTypeId,
} from '../codecs/records/types.js';
export type { ApiVersions } from '../protocol/apis/api-versions.js';
export { ErrorCode, type ErrorName } from '../protocol/error-codes.js';
export type * as Protocol from '../protocol/generated/types.js';
export {
  isKafkaError,
  KafkaError,
  type KafkaErrorContext,
  type KafkaErrorName,
  type KafkaErrorOptions,
} from '../protocol/kafka-error.js';
export type {
  ApiDef,
  ArrayType,
  DefaultValue,
  Field,
  FieldOptions,
  FieldType,
  InputOf,
  InputOfValue,
  MessageDef,
  Nullable,
  NumberType,
  PrimitiveType,
  RequestInput,
  ResponseOf,
  StructInput,
  StructType,
  StructValue,
  ValueOf,
} from '../protocol/schema.js';
export type { VersionRange } from '../protocol/versions.js';
export type { AclOperation, AclPatternType, AclPermission, AclResourceType } from './admin/acl-codes.js';
export type { AclAdmin, AclBinding, AclFilter } from './admin/acls.js';
export type { Admin } from './admin/admin.js';
export type { AdminCallOptions, AdminContext } from './admin/admin-context.js';
export type {
  ClusterBroker,
  ClusterDescription,
  DescribeClusterOptions,
  ElectionResult,
  ElectionType,
  LogDirDescription,
  ReplicaLogInfo,
} from './admin/cluster.js';
export type { ConfigResource, ConfigResourceType, ConfigSource, ConfigType } from './admin/config-resource.js';
export type {
  AlterConfigsOptions,
  ConfigChange,
  ConfigEntry,
  ConfigOperation,
  ConfigSynonym,
  DescribeConfigsOptions,
  ResourceConfigs,
} from './admin/configs.js';
export type { DescribeGroupsOptions, GroupDescription, GroupMemberDescription } from './admin/describe-groups.js';
export { TopicErrors } from './admin/errors.js';
export type { GroupAdminContext } from './admin/group-context.js';
export { GroupNotEmptyError, InvalidOffsetsExportError, NoCommittedOffsetError } from './admin/group-errors.js';
export type { DescribeGroupOffsetsOptions, GroupOffsetsDescription, PartitionLag } from './admin/group-lag.js';
export type { GroupAdmin } from './admin/groups.js';
export type { ListedGroup, ListGroupsOptions } from './admin/list-groups.js';
export type { EpochOptions, OffsetForTime, Offsets, PartitionsOf } from './admin/offsets.js';
export {
  type ExportedOffset,
  type ImportOffsetsOptions,
  OFFSETS_EXPORT_FORMAT,
  type OffsetsExport,
  parseOffsetsExport,
} from './admin/offsets-json.js';
export type { CreatedPartitions, CreatePartitionsOptions, NewPartitions } from './admin/partitions.js';
export type {
  ClientQuotaEntry,
  QuotaAdmin,
  QuotaAlteration,
  QuotaEntity,
  QuotaFilter,
  QuotaFilterComponent,
} from './admin/quotas.js';
export type { AlterReassignmentsOptions, OngoingReassignment, ReplicaMove } from './admin/reassignments.js';
export type { DeletedRecords, DeleteRecordsOptions, RecordsToDelete } from './admin/records.js';
export type { MemberToRemove, RemovedMember, RemoveMembersOptions } from './admin/remove-members.js';
export type { ResetOffsetsOptions, ResetPlan, ResetPlanEntry, ResetTarget } from './admin/reset-offsets.js';
export { ResourceErrors } from './admin/resource-errors.js';
export type {
  ScramAlteration,
  ScramCredentialAdmin,
  ScramCredentialInfo,
  ScramDeletion,
  ScramMechanismName,
  ScramUpsertion,
  UserScramCredentials,
} from './admin/scram.js';
export type {
  DescribedPartition,
  DescribedTopicPartitions,
  DescribeTopicPartitionsOptions,
} from './admin/topic-partitions.js';
export type {
  CreatedTopic,
  CreateTopicsOptions,
  DeletedTopic,
  DeleteTopicsOptions,
  NewTopic,
  TopicAdmin,
  TopicConfigEntry,
  VersionedOptions,
} from './admin/topics.js';
export type {
  ActiveProducer,
  ListedTransaction,
  ListTransactionsOptions,
  PartitionProducers,
  TransactionDescription,
} from './admin/transactions.js';
export { Client, type ClientConfig } from './client.js';
export type { BackoffOptions } from './cluster/backoff.js';
export type { BrokerPool, PoolConnectionOptions } from './cluster/broker-pool.js';
export type { ClusterOptions } from './cluster/cluster.js';
export { type CallOptions, CallTimeoutError, type Deadline, isRetriable } from './cluster/deadline.js';
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
export type { MetadataQuery } from './cluster/metadata.js';
export type { MetadataCache } from './cluster/metadata-cache.js';
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
} from './commit/index.js';
export type { CommitCluster, CommitContext } from './commit/types.js';
export {
  AREAS,
  type Area,
  type CheckResult,
  type ConformanceOptions,
  type ConformanceReport,
  type ConformanceTarget,
  type Exchange,
  formatJunit,
  type Outcome,
  runConformance,
} from './conformance/index.js';
export {
  type AssignmentMetadata,
  AssignorError,
  type AssignorMember,
  type GroupAssignment,
  type MemberAssignment,
  type PartitionAssignor,
  type RebalanceProtocol,
  type TopicInfo,
  type TopicPartitions,
} from './consumer/assignors/assignor.js';
export { BUILT_IN_ASSIGNORS, type BuiltInAssignorName } from './consumer/assignors/index.js';
export { KafkajsRoundRobinAssignor } from './consumer/assignors/kafkajs-round-robin.js';
export type { BatchHandler, ProcessBatchesOptions } from './consumer/concurrent.js';
export type { RecordSource } from './consumer/consumer-record.js';
export type { AckMode } from './consumer/explicit-ack.js';
export type { FetchSettings } from './consumer/fetch/fetch-request.js';
export {
  FencedInstanceIdError,
  GroupJoinRefusedError,
  GroupMaxSizeReachedError,
  GroupMembershipError,
  GroupProtocolUnsupportedError,
  MaxPollIntervalExceededError,
  MemberNotStableError,
  MembershipClosedError,
  RebalanceListenerError,
} from './consumer/group/errors.js';
export type {
  GroupMembershipOptions,
  GroupProtocol,
  RebalanceListener,
  Subscription,
} from './consumer/group/membership.js';
export {
  BrokerOffsetStore,
  CONSUMER_CHANNELS,
  type CommitEvent,
  CommitFailedError,
  type CommitFailedEvent,
  type CommitReason,
  type CommitRetryEvent,
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
  type PartitionLag as ConsumerPartitionLag,
  PartitionNotAssignedError,
  type RebalanceEvent,
  RecordTooLargeError,
  type SeekTarget,
  type TruncationEvent,
  type TruncationSource,
  type WaitOptions,
} from './consumer/index.js';
export type { ResolvedConsumerOptions } from './consumer/options.js';
export type { CoordinatorCluster, CoordinatorsOptions } from './coordinator/coordinators.js';
export { GroupErrors } from './coordinator/group-errors.js';
export type { CoordinatorNode, Coordinators, CoordinatorType } from './coordinator/index.js';
export type { ApiVersionsResponse, BrokerApiVersions } from './network/api-versions.js';
export type { ConnectionOptions, RequestFn, RequestOptions } from './network/connection.js';
export type { BrokerAddress, VersionSpan } from './network/errors.js';
export type { FrameAllocator } from './network/frame-allocator.js';
export {
  AuthenticationError,
  type AuthenticationFailure,
  Connection,
  ConnectionError,
  FrameSizeError,
  ImplausibleResponseError,
  NotKafkaBrokerError,
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
export type { SaslCommon, SecurityConfig } from './network/security/config.js';
export type { Pem } from './network/security/tls.js';
export type { SocketFactory, SocketTarget } from './network/socket.js';
export {
  type BatchRecordView,
  type ConsumerBatchContext,
  type HeaderCarrier,
  type ProducerSendContext,
  type RequestContext,
  TRACING_CHANNELS,
  type TracedRecord,
} from './observability/channels.js';
export type { LogOptions } from './observability/client-log.js';
export {
  type ClientMetrics,
  type ConsumerSnapshot,
  LATENCY_BUCKETS_MS,
  type LatencyHistogram,
  type ProducerSnapshot,
  type Rate,
  type RequestMetrics,
} from './observability/client-metrics.js';
export {
  LOG_EVENT_LEVELS,
  LOG_LEVELS,
  type LogFields,
  type Logger,
  type LoggerOption,
  type LogLevel,
} from './observability/logger.js';
export type { ProducerObserver } from './observability/producer-send.js';
export type { RequestObserver } from './observability/requests.js';
export { type BackwardCommit, InvalidOffsetStoreNameError, type LockHolder } from './offsets/errors.js';
export type { WriteFaults, WriteStep } from './offsets/file/atomic-write.js';
export type { ConsumerGroupMetadata } from './offsets/group-metadata.js';
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
export type {
  CommitOptions,
  GroupGeneration,
  LoadedOffsets,
  OffsetToCommit,
  OffsetToStore,
} from './offsets/offset-store.js';
export type {
  CheckedPosition,
  OffsetCorrection,
  OffsetRange,
  OffsetRangeCheckOptions,
  OffsetRangeCheckResult,
  OffsetReset,
  PartitionRange,
} from './offsets/range-check.js';
export { ConfigError } from './options/config-error.js';
export type { ProduceConnection, ProducerCluster } from './producer/cluster-view.js';
export {
  type Acks,
  BufferExhaustedError,
  type DeliveryCallback,
  DeliveryTimeoutError,
  DeliveryUncertainError,
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
  TransactionalIdAuthorizationError,
  TransactionalOffsetStore,
  type TransactionalProducer,
  TransactionFatalError,
  type TransactionState,
  TransactionStateError,
} from './producer/index.js';
export type { ResolvedProducerOptions } from './producer/options.js';
export type { Bytes } from './producer/record-input.js';
export type { BatchSettings, SendOptions } from './producer/send-options.js';
