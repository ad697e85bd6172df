import { AlterClientQuotas } from './apis/alter-client-quotas.js';
import { AlterUserScramCredentials } from './apis/alter-user-scram-credentials.js';
import { ApiVersions } from './apis/api-versions.js';
import { ConsumerGroupHeartbeat } from './apis/consumer-group-heartbeat.js';
import { CreateAcls } from './apis/create-acls.js';
import { CreateTopics } from './apis/create-topics.js';
import { DeleteAcls } from './apis/delete-acls.js';
import { DeleteGroups } from './apis/delete-groups.js';
import { DeleteRecords } from './apis/delete-records.js';
import { DeleteTopics } from './apis/delete-topics.js';
import { DescribeAcls } from './apis/describe-acls.js';
import { DescribeClientQuotas } from './apis/describe-client-quotas.js';
import { DescribeGroups } from './apis/describe-groups.js';
import { DescribeTopicPartitions } from './apis/describe-topic-partitions.js';
import { DescribeUserScramCredentials } from './apis/describe-user-scram-credentials.js';
import { Fetch } from './apis/fetch.js';
import { FindCoordinator } from './apis/find-coordinator.js';
import { Heartbeat } from './apis/heartbeat.js';
import { InitProducerId } from './apis/init-producer-id.js';
import { JoinGroup } from './apis/join-group.js';
import { LeaveGroup } from './apis/leave-group.js';
import { ListGroups } from './apis/list-groups.js';
import { ListOffsets } from './apis/list-offsets.js';
import { Metadata } from './apis/metadata.js';
import { OffsetCommit } from './apis/offset-commit.js';
import { OffsetDelete } from './apis/offset-delete.js';
import { OffsetFetch } from './apis/offset-fetch.js';
import { OffsetForLeaderEpoch } from './apis/offset-for-leader-epoch.js';
import { Produce } from './apis/produce.js';
import { SaslAuthenticate } from './apis/sasl-authenticate.js';
import { SaslHandshake } from './apis/sasl-handshake.js';
import { SyncGroup } from './apis/sync-group.js';
import type { ApiDef } from './schema.js';

export { AlterClientQuotas } from './apis/alter-client-quotas.js';
export { AlterUserScramCredentials } from './apis/alter-user-scram-credentials.js';
export { ApiVersions } from './apis/api-versions.js';
export { ConsumerGroupHeartbeat } from './apis/consumer-group-heartbeat.js';
export { ConsumerProtocolAssignment, ConsumerProtocolSubscription } from './apis/consumer-protocol.js';
export { CreateAcls } from './apis/create-acls.js';
export { CreateTopics } from './apis/create-topics.js';
export { DeleteAcls } from './apis/delete-acls.js';
export { DeleteGroups } from './apis/delete-groups.js';
export { DeleteRecords } from './apis/delete-records.js';
export { DeleteTopics } from './apis/delete-topics.js';
export { DescribeAcls } from './apis/describe-acls.js';
export { DescribeClientQuotas } from './apis/describe-client-quotas.js';
export { DescribeGroups } from './apis/describe-groups.js';
export { DescribeTopicPartitions } from './apis/describe-topic-partitions.js';
export { DescribeUserScramCredentials } from './apis/describe-user-scram-credentials.js';
export { Fetch } from './apis/fetch.js';
export { FindCoordinator } from './apis/find-coordinator.js';
export { Heartbeat } from './apis/heartbeat.js';
export { InitProducerId } from './apis/init-producer-id.js';
export { JoinGroup } from './apis/join-group.js';
export { LeaveGroup } from './apis/leave-group.js';
export { ListGroups } from './apis/list-groups.js';
export { ListOffsets } from './apis/list-offsets.js';
export { Metadata } from './apis/metadata.js';
export { OffsetCommit } from './apis/offset-commit.js';
export { OffsetDelete } from './apis/offset-delete.js';
export { OffsetFetch } from './apis/offset-fetch.js';
export { OffsetForLeaderEpoch } from './apis/offset-for-leader-epoch.js';
export { Produce } from './apis/produce.js';
export { SaslAuthenticate } from './apis/sasl-authenticate.js';
export { SaslHandshake } from './apis/sasl-handshake.js';
export { SyncGroup } from './apis/sync-group.js';
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
  DescribeAcls,
  CreateAcls,
  DeleteAcls,
  SaslAuthenticate,
  DeleteGroups,
  OffsetDelete,
  DescribeClientQuotas,
  AlterClientQuotas,
  DescribeUserScramCredentials,
  AlterUserScramCredentials,
  ConsumerGroupHeartbeat,
  DescribeTopicPartitions,
];
