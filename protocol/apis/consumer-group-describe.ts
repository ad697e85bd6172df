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
  field('topicId', 'uuid', '0+', { doc: 'Id of the assigned topic.' }),
  field('topicName', 'string', '0+', { doc: 'Name of the assigned topic.' }),
  field('partitions', array('int32'), '0+', { doc: 'Assigned partition indexes of the topic.' }),
]);

/** Declared once by Kafka (a common struct) for both the current and the target assignment. */
const Assignment = struct('Assignment', [
  field('topicPartitions', TopicPartitions, '0+', { doc: 'Assigned partitions, by topic.' }),
]);

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
  request: [
    field('groupIds', array('string'), '0+', { doc: 'Ids of the consumer-protocol groups to describe.' }),
    field('includeAuthorizedOperations', 'bool', '0+', {
      doc: 'Whether to return the operations the caller may perform on each group.',
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field(
      'groups',
      structs('DescribedGroup', [
        field('errorCode', 'int16', '0+', {
          doc: 'Error for this group; 0 for none (GROUP_ID_NOT_FOUND for a classic or unknown group).',
        }),
        field('errorMessage', 'string', '0+', {
          doc: "Broker's explanation of the error, or null.",
          nullable: '0+',
          default: null,
        }),
        field('groupId', 'string', '0+', { doc: 'Id of the described group.' }),
        field('groupState', 'string', '0+', {
          doc: 'Group state, e.g. "Empty", "Assigning", "Reconciling", "Stable", "Dead".',
        }),
        field('groupEpoch', 'int32', '0+', {
          doc: "Epoch of the group's membership and subscriptions; bumps on every change.",
        }),
        field('assignmentEpoch', 'int32', '0+', { doc: 'Group epoch the current target assignment was computed for.' }),
        field('assignorName', 'string', '0+', { doc: 'Server-side assignor in use, e.g. "uniform" or "range".' }),
        field(
          'members',
          structs('Member', [
            field('memberId', 'string', '0+', { doc: 'Id the member joined with.' }),
            field('instanceId', 'string', '0+', {
              doc: 'Static member id (group.instance.id), or null for a dynamic member.',
              nullable: '0+',
              default: null,
            }),
            field('rackId', 'string', '0+', {
              doc: 'Rack the member runs in, or null.',
              nullable: '0+',
              default: null,
            }),
            field('memberEpoch', 'int32', '0+', {
              doc: "Member's current epoch; it trails the group epoch while reconciling.",
            }),
            field('clientId', 'string', '0+', { doc: 'client.id the member connected with.' }),
            field('clientHost', 'string', '0+', { doc: 'Host the member connected from.' }),
            field('subscribedTopicNames', array('string'), '0+', { doc: 'Topic names the member subscribes to.' }),
            field('subscribedTopicRegex', 'string', '0+', {
              doc: 'Regular expression the member subscribes with, or null.',
              nullable: '0+',
              default: null,
            }),
            field('assignment', Assignment, '0+', { doc: 'Partitions the member owns now.' }),
            // What the coordinator is moving the member towards; equal to `assignment` once settled.
            field('targetAssignment', Assignment, '0+', {
              doc: 'Partitions the member will own once reconciliation completes.',
            }),
            // -1 unknown, 0 classic member, 1 consumer (KIP-848) member.
            field('memberType', 'int8', '1+', {
              doc: 'v1+: 0 for a classic-protocol member in an upgraded group, 1 for a consumer-protocol member; -1 if unknown.',
              default: -1,
              ignorable: true,
            }),
          ]),
          '0+',
          { doc: "The group's members." },
        ),
        field('authorizedOperations', 'int32', '0+', {
          doc: 'Bit set of the ACL operation codes the caller may perform; INT32_MIN if not requested.',
          default: -2147483648,
        }),
      ]),
      '0+',
      { doc: 'Description of each requested group.' },
    ),
  ],
});

export type ConsumerGroupDescribeRequestInput = RequestInput<typeof ConsumerGroupDescribe>;
export type ConsumerGroupDescribeRequest = RequestOf<typeof ConsumerGroupDescribe>;
export type ConsumerGroupDescribeResponse = ResponseOf<typeof ConsumerGroupDescribe>;
