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
    field('groupId', 'string', '0+', { doc: 'Group to leave.' }),
    field('memberId', 'string', '0-2', { doc: 'Member leaving (up to v2).' }),
    field(
      'members',
      structs('MemberIdentity', [
        field('memberId', 'string', '3+', { doc: 'Id of the member that leaves.' }),
        field('groupInstanceId', 'string', '3+', { doc: 'Static member id, or null.', nullable: '3+', default: null }),
        field('reason', 'string', '5+', {
          doc: 'Why the member leaves, for the broker log; null if none.',
          nullable: '5+',
          default: null,
          ignorable: true,
        }),
      ]),
      '3+',
      { doc: 'Members leaving (v3 and later; several static members may leave at once).' },
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '1+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field('errorCode', 'int16', '0+', { doc: 'Error for the request; 0 for none.' }),
    field(
      'members',
      structs('MemberResponse', [
        field('memberId', 'string', '3+', { doc: 'Id of the member the result is for.' }),
        field('groupInstanceId', 'string', '3+', { doc: 'Static member id, or null.', nullable: '3+' }),
        field('errorCode', 'int16', '3+', { doc: 'Error for this member; 0 for none.' }),
      ]),
      '3+',
      { doc: 'Result for each member that asked to leave.' },
    ),
  ],
});

export type LeaveGroupRequest = RequestOf<typeof LeaveGroup>;
export type LeaveGroupRequestInput = RequestInput<typeof LeaveGroup>;
export type LeaveGroupResponse = ResponseOf<typeof LeaveGroup>;
