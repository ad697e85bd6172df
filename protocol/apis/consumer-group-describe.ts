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

/** A member's partitions of one topic, by id and by name. */
const TopicPartitions = structs('TopicPartitions', [
  field('topicId', 'uuid', '0+'),
  field('topicName', 'string', '0+'),
  field('partitions', array('int32'), '0+'),
]);

/** Declared once by Kafka (a common struct) for both the current and the target assignment. */
const Assignment = struct('Assignment', [field('topicPartitions', TopicPartitions, '0+')]);

/**
 * ConsumerGroupDescribe (key 69): members, assignments and epochs of KIP-848
 * consumer groups, which DescribeGroups reports without members. v0 on Kafka
 * 3.9 and 4.x; v1 (member type) only on 4.x.
 */
export const ConsumerGroupDescribe = defineApi({
  name: 'ConsumerGroupDescribe',
  key: 69,
  versions: '0-1',
  flexible: '0+',
  request: [field('groupIds', array('string'), '0+'), field('includeAuthorizedOperations', 'bool', '0+')],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field(
      'groups',
      structs('DescribedGroup', [
        field('errorCode', 'int16', '0+'),
        field('errorMessage', 'string', '0+', { nullable: '0+', default: null }),
        field('groupId', 'string', '0+'),
        field('groupState', 'string', '0+'),
        field('groupEpoch', 'int32', '0+'),
        field('assignmentEpoch', 'int32', '0+'),
        field('assignorName', 'string', '0+'),
        field(
          'members',
          structs('Member', [
            field('memberId', 'string', '0+'),
            field('instanceId', 'string', '0+', { nullable: '0+', default: null }),
            field('rackId', 'string', '0+', { nullable: '0+', default: null }),
            field('memberEpoch', 'int32', '0+'),
            field('clientId', 'string', '0+'),
            field('clientHost', 'string', '0+'),
            field('subscribedTopicNames', array('string'), '0+'),
            field('subscribedTopicRegex', 'string', '0+', { nullable: '0+', default: null }),
            field('assignment', Assignment, '0+'),
            // What the coordinator is moving the member towards; equal to `assignment` once settled.
            field('targetAssignment', Assignment, '0+'),
            // -1 unknown, 0 classic member, 1 consumer (KIP-848) member.
            field('memberType', 'int8', '1+', { default: -1, ignorable: true }),
          ]),
          '0+',
        ),
        field('authorizedOperations', 'int32', '0+', { default: -2147483648 }),
      ]),
      '0+',
    ),
  ],
});

export type ConsumerGroupDescribeRequestInput = RequestInput<typeof ConsumerGroupDescribe>;
export type ConsumerGroupDescribeRequest = RequestOf<typeof ConsumerGroupDescribe>;
export type ConsumerGroupDescribeResponse = ResponseOf<typeof ConsumerGroupDescribe>;
