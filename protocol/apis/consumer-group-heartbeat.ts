import {
  array,
  defineApi,
  field,
  type RequestInput,
  type RequestOf,
  type ResponseOf,
  struct,
  structs,
} from '../schema.js';

/**
 * The partitions of one topic, by topic id. Kafka declares it once for the
 * response (and, identically, inline in the request): one constant serves both.
 */
const TopicPartitions = structs('TopicPartitions', [
  field('topicId', 'uuid', '0+'),
  field('partitions', array('int32'), '0+'),
]);

/**
 * ConsumerGroupHeartbeat (key 68): the KIP-848 consumer group protocol, in
 * which the broker computes assignments and every heartbeat may carry a new
 * one. Flexible from its first version.
 *
 * v0 on Kafka 3.9 and 4.x; v1 (server-side regex subscriptions) only on 4.x.
 * Most request fields are nullable meaning "unchanged since the last
 * heartbeat", so steady-state heartbeats stay small.
 */
export const ConsumerGroupHeartbeat = defineApi({
  name: 'ConsumerGroupHeartbeat',
  key: 68,
  versions: '0-1',
  flexible: '0+',
  request: [
    field('groupId', 'string', '0+'),
    // v0 may leave it empty for the coordinator to fill in; from v1 the client must generate it (KIP-1082).
    field('memberId', 'string', '0+'),
    // 0 to join, -1 to leave, -2 for a static member leaving for now; otherwise the current epoch.
    field('memberEpoch', 'int32', '0+'),
    field('instanceId', 'string', '0+', { nullable: '0+', default: null }),
    field('rackId', 'string', '0+', { nullable: '0+', default: null }),
    field('rebalanceTimeoutMs', 'int32', '0+', { default: -1 }),
    field('subscribedTopicNames', array('string'), '0+', { nullable: '0+', default: null }),
    field('subscribedTopicRegex', 'string', '1+', { nullable: '1+', default: null }),
    field('serverAssignor', 'string', '0+', { nullable: '0+', default: null }),
    // The partitions the member currently owns.
    field('topicPartitions', TopicPartitions, '0+', { nullable: '0+', default: null }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field('errorCode', 'int16', '0+'),
    field('errorMessage', 'string', '0+', { nullable: '0+', default: null }),
    field('memberId', 'string', '0+', { nullable: '0+', default: null }),
    field('memberEpoch', 'int32', '0+'),
    field('heartbeatIntervalMs', 'int32', '0+'),
    // Null when the assignment has not changed. A nullable struct: on the
    // wire it is preceded by a presence byte (-1 absent, 1 present).
    field('assignment', struct('Assignment', [field('topicPartitions', TopicPartitions, '0+')]), '0+', {
      nullable: '0+',
      default: null,
    }),
  ],
});

export type ConsumerGroupHeartbeatRequest = RequestOf<typeof ConsumerGroupHeartbeat>;
export type ConsumerGroupHeartbeatRequestInput = RequestInput<typeof ConsumerGroupHeartbeat>;
export type ConsumerGroupHeartbeatResponse = ResponseOf<typeof ConsumerGroupHeartbeat>;
