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
    field('groupId', 'string', '0+', { doc: 'Id of the group being synchronized.' }),
    field('generationId', 'int32', '0+', { doc: 'Generation the member joined.' }),
    field('memberId', 'string', '0+', { doc: 'Id the coordinator gave this member.' }),
    field('groupInstanceId', 'string', '3+', { doc: 'Static member id, or null.', nullable: '3+', default: null }),
    // v5: the broker checks these against the group's, to catch a confused member.
    field('protocolType', 'string', '5+', {
      doc: 'Kind of group, or null.',
      nullable: '5+',
      default: null,
      ignorable: true,
    }),
    field('protocolName', 'string', '5+', {
      doc: 'Protocol the coordinator chose, or null.',
      nullable: '5+',
      default: null,
      ignorable: true,
    }),
    // Only the leader sends assignments; followers send an empty array.
    field(
      'assignments',
      structs('SyncGroupRequestAssignment', [
        field('memberId', 'string', '0+', { doc: 'Id of the member the assignment is for.' }),
        field('assignment', 'bytes', '0+', {
          doc: "The member's assignment: for consumers, the encoded ConsumerProtocolAssignment.",
        }),
      ]),
      '0+',
      { doc: 'The assignment of every member, sent by the leader only.' },
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '1+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field('errorCode', 'int16', '0+', { doc: 'Error (e.g. REBALANCE_IN_PROGRESS); 0 for none.' }),
    field('protocolType', 'string', '5+', {
      doc: 'Kind of group, or null.',
      nullable: '5+',
      default: null,
      ignorable: true,
    }),
    field('protocolName', 'string', '5+', {
      doc: 'Protocol the coordinator chose, or null.',
      nullable: '5+',
      default: null,
      ignorable: true,
    }),
    field('assignment', 'bytes', '0+', {
      doc: "This member's assignment: for consumers, the encoded ConsumerProtocolAssignment.",
    }),
  ],
});

export type SyncGroupRequest = RequestOf<typeof SyncGroup>;
export type SyncGroupRequestInput = RequestInput<typeof SyncGroup>;
export type SyncGroupResponse = ResponseOf<typeof SyncGroup>;
