import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * LeaveGroup (key 13): leave a classic group so it rebalances at once
 * instead of waiting for the session timeout. Same versions on Kafka 3.9
 * and 4.x. Up to v2 one member leaves; from v3 a batch (static members can
 * be removed by instance id).
 */
export const LeaveGroup = defineApi({
  name: 'LeaveGroup',
  key: 13,
  versions: '0-5',
  flexible: '4+',
  request: [
    field('groupId', 'string', '0+'),
    field('memberId', 'string', '0-2'),
    field(
      'members',
      structs('MemberIdentity', [
        field('memberId', 'string', '3+'),
        field('groupInstanceId', 'string', '3+', { nullable: '3+', default: null }),
        field('reason', 'string', '5+', { nullable: '5+', default: null, ignorable: true }),
      ]),
      '3+',
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '1+', { ignorable: true }),
    field('errorCode', 'int16', '0+'),
    field(
      'members',
      structs('MemberResponse', [
        field('memberId', 'string', '3+'),
        field('groupInstanceId', 'string', '3+', { nullable: '3+' }),
        field('errorCode', 'int16', '3+'),
      ]),
      '3+',
    ),
  ],
});

export type LeaveGroupRequest = RequestOf<typeof LeaveGroup>;
export type LeaveGroupRequestInput = RequestInput<typeof LeaveGroup>;
export type LeaveGroupResponse = ResponseOf<typeof LeaveGroup>;
