import { AddOffsetsToTxn } from './apis/add-offsets-to-txn.js';
import { AddPartitionsToTxn } from './apis/add-partitions-to-txn.js';
import { AlterClientQuotas } from './apis/alter-client-quotas.js';
import { AlterConfigs } from './apis/alter-configs.js';
import { AlterPartitionReassignments } from './apis/alter-partition-reassignments.js';
import { AlterUserScramCredentials } from './apis/alter-user-scram-credentials.js';
import { ApiVersions } from './apis/api-versions.js';
import { ConsumerGroupDescribe } from './apis/consumer-group-describe.js';
import { ConsumerGroupHeartbeat } from './apis/consumer-group-heartbeat.js';
import { CreateAcls } from './apis/create-acls.js';
import { CreatePartitions } from './apis/create-partitions.js';
import { CreateTopics } from './apis/create-topics.js';
import { DeleteAcls } from './apis/delete-acls.js';
import { DeleteGroups } from './apis/delete-groups.js';
import { DeleteRecords } from './apis/delete-records.js';
import { DeleteTopics } from './apis/delete-topics.js';
import { DescribeAcls } from './apis/describe-acls.js';
import { DescribeClientQuotas } from './apis/describe-client-quotas.js';
import { DescribeCluster } from './apis/describe-cluster.js';
import { DescribeConfigs } from './apis/describe-configs.js';
import { DescribeGroups } from './apis/describe-groups.js';
import { DescribeLogDirs } from './apis/describe-log-dirs.js';
import { DescribeProducers } from './apis/describe-producers.js';
import { DescribeTopicPartitions } from './apis/describe-topic-partitions.js';
import { DescribeTransactions } from './apis/describe-transactions.js';
import { DescribeUserScramCredentials } from './apis/describe-user-scram-credentials.js';
import { ElectLeaders } from './apis/elect-leaders.js';
import { EndTxn } from './apis/end-txn.js';
import { Fetch } from './apis/fetch.js';
import { FindCoordinator } from './apis/find-coordinator.js';
import { Heartbeat } from './apis/heartbeat.js';
import { IncrementalAlterConfigs } from './apis/incremental-alter-configs.js';
import { InitProducerId } from './apis/init-producer-id.js';
import { JoinGroup } from './apis/join-group.js';
import { LeaveGroup } from './apis/leave-group.js';
import { ListGroups } from './apis/list-groups.js';
import { ListOffsets } from './apis/list-offsets.js';
import { ListPartitionReassignments } from './apis/list-partition-reassignments.js';
import { ListTransactions } from './apis/list-transactions.js';
import { Metadata } from './apis/metadata.js';
import { OffsetCommit } from './apis/offset-commit.js';
import { OffsetDelete } from './apis/offset-delete.js';
import { OffsetFetch } from './apis/offset-fetch.js';
import { OffsetForLeaderEpoch } from './apis/offset-for-leader-epoch.js';
import { Produce } from './apis/produce.js';
import { SaslAuthenticate } from './apis/sasl-authenticate.js';
import { SaslHandshake } from './apis/sasl-handshake.js';
import { SyncGroup } from './apis/sync-group.js';
import { TxnOffsetCommit } from './apis/txn-offset-commit.js';
import type { ApiDef } from './schema.js';

export { AddOffsetsToTxn } from './apis/add-offsets-to-txn.js';
export { AddPartitionsToTxn } from './apis/add-partitions-to-txn.js';
export { AlterClientQuotas } from './apis/alter-client-quotas.js';
export { AlterConfigs } from './apis/alter-configs.js';
export { AlterPartitionReassignments } from './apis/alter-partition-reassignments.js';
export { AlterUserScramCredentials } from './apis/alter-user-scram-credentials.js';
export { ApiVersions } from './apis/api-versions.js';
export { ConsumerGroupDescribe } from './apis/consumer-group-describe.js';
export { ConsumerGroupHeartbeat } from './apis/consumer-group-heartbeat.js';
export { ConsumerProtocolAssignment, ConsumerProtocolSubscription } from './apis/consumer-protocol.js';
export { CreateAcls } from './apis/create-acls.js';
export { CreatePartitions } from './apis/create-partitions.js';
export { CreateTopics } from './apis/create-topics.js';
export { DeleteAcls } from './apis/delete-acls.js';
export { DeleteGroups } from './apis/delete-groups.js';
export { DeleteRecords } from './apis/delete-records.js';
export { DeleteTopics } from './apis/delete-topics.js';
export { DescribeAcls } from './apis/describe-acls.js';
export { DescribeClientQuotas } from './apis/describe-client-quotas.js';
export { DescribeCluster } from './apis/describe-cluster.js';
export { DescribeConfigs } from './apis/describe-configs.js';
export { DescribeGroups } from './apis/describe-groups.js';
export { DescribeLogDirs } from './apis/describe-log-dirs.js';
export { DescribeProducers } from './apis/describe-producers.js';
export { DescribeTopicPartitions } from './apis/describe-topic-partitions.js';
export { DescribeTransactions } from './apis/describe-transactions.js';
export { DescribeUserScramCredentials } from './apis/describe-user-scram-credentials.js';
export { ElectLeaders } from './apis/elect-leaders.js';
export { EndTxn } from './apis/end-txn.js';
export { Fetch } from './apis/fetch.js';
export { FindCoordinator } from './apis/find-coordinator.js';
export { Heartbeat } from './apis/heartbeat.js';
export { IncrementalAlterConfigs } from './apis/incremental-alter-configs.js';
export { InitProducerId } from './apis/init-producer-id.js';
export { JoinGroup } from './apis/join-group.js';
export { LeaveGroup } from './apis/leave-group.js';
export { ListGroups } from './apis/list-groups.js';
export { ListOffsets } from './apis/list-offsets.js';
export { ListPartitionReassignments } from './apis/list-partition-reassignments.js';
export { ListTransactions } from './apis/list-transactions.js';
export { Metadata } from './apis/metadata.js';
export { OffsetCommit } from './apis/offset-commit.js';
export { OffsetDelete } from './apis/offset-delete.js';
export { OffsetFetch } from './apis/offset-fetch.js';
export { OffsetForLeaderEpoch } from './apis/offset-for-leader-epoch.js';
export { Produce } from './apis/produce.js';
export { SaslAuthenticate } from './apis/sasl-authenticate.js';
export { SaslHandshake } from './apis/sasl-handshake.js';
export { SyncGroup } from './apis/sync-group.js';
export { TxnOffsetCommit } from './apis/txn-offset-commit.js';
export { type MessageCodec, messageCodec, requestCodec, responseCodec } from './codec.js';
export { RequestHeader, ResponseHeader, requestHeaderVersion, responseHeaderVersion } from './headers.js';
export type { ApiDef, RequestInput, RequestOf, ResponseInput, ResponseOf } from './schema.js';

/** Every API tidemark defines, by API key; conformance checks each against Kafka. */
export const API_DEFINITIONS: readonly ApiDef[] = [
  Produce,
  Fetch,
  ListOffsets,
  Metadata,
  OffsetCommit,
  OffsetFetch,
  FindCoordinator,
  JoinGroup,
  Heartbeat,
  LeaveGroup,
  SyncGroup,
  DescribeGroups,
  ListGroups,
  SaslHandshake,
  ApiVersions,
  CreateTopics,
  DeleteTopics,
  DeleteRecords,
  InitProducerId,
  OffsetForLeaderEpoch,
  AddPartitionsToTxn,
  AddOffsetsToTxn,
  EndTxn,
  TxnOffsetCommit,
  SaslAuthenticate,
  DeleteGroups,
  OffsetDelete,
  DescribeProducers,
  DescribeTransactions,
  ListTransactions,
  ConsumerGroupHeartbeat,
  DescribeConfigs,
  AlterConfigs,
  CreatePartitions,
  DescribeLogDirs,
  ElectLeaders,
  IncrementalAlterConfigs,
  AlterPartitionReassignments,
  ListPartitionReassignments,
  DescribeCluster,
  ConsumerGroupDescribe,
  DescribeAcls,
  CreateAcls,
  DeleteAcls,
  DescribeClientQuotas,
  AlterClientQuotas,
  DescribeUserScramCredentials,
  AlterUserScramCredentials,
  DescribeTopicPartitions,
];
