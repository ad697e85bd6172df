import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * SyncGroup (key 14): after JoinGroup, the leader hands in every member's
 * assignment and each member receives its own. Same versions on Kafka 3.9
 * and 4.x. For consumers the assignment bytes are a ConsumerProtocolAssignment.
 */
export const SyncGroup = defineApi({
  name: 'SyncGroup',
  key: 14,
  versions: '0-5',
  flexible: '4+',
  request: [
    field('groupId', 'string', '0+'),
    field('generationId', 'int32', '0+'),
    field('memberId', 'string', '0+'),
    field('groupInstanceId', 'string', '3+', { nullable: '3+', default: null }),
    // v5: the broker checks these against the group's, to catch a confused member.
    field('protocolType', 'string', '5+', { nullable: '5+', default: null, ignorable: true }),
    field('protocolName', 'string', '5+', { nullable: '5+', default: null, ignorable: true }),
    // Only the leader sends assignments; followers send an empty array.
    field(
      'assignments',
      structs('SyncGroupRequestAssignment', [field('memberId', 'string', '0+'), field('assignment', 'bytes', '0+')]),
      '0+',
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '1+', { ignorable: true }),
    field('errorCode', 'int16', '0+'),
    field('protocolType', 'string', '5+', { nullable: '5+', default: null, ignorable: true }),
    field('protocolName', 'string', '5+', { nullable: '5+', default: null, ignorable: true }),
    field('assignment', 'bytes', '0+'),
  ],
});

export type SyncGroupRequest = RequestOf<typeof SyncGroup>;
export type SyncGroupRequestInput = RequestInput<typeof SyncGroup>;
export type SyncGroupResponse = ResponseOf<typeof SyncGroup>;
