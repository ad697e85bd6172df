import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * JoinGroup (key 11): join a classic consumer group, or rejoin it for a
 * rebalance. Same versions on Kafka 3.9 and 4.x.
 *
 * From v4 a member that joins with an empty member id is first answered
 * with MEMBER_ID_REQUIRED and the id to rejoin with.
 */
export const JoinGroup = defineApi({
  name: 'JoinGroup',
  key: 11,
  versions: '0-9',
  flexible: '6+',
  request: [
    field('groupId', 'string', '0+', { doc: 'Group to join.' }),
    field('sessionTimeoutMs', 'int32', '0+', {
      doc: 'How long the coordinator waits for a heartbeat before it removes the member.',
    }),
    // v0 brokers use the session timeout for the rebalance too.
    field('rebalanceTimeoutMs', 'int32', '1+', {
      doc: 'How long the coordinator waits for every member to rejoin during a rebalance.',
      default: -1,
      ignorable: true,
    }),
    field('memberId', 'string', '0+', { doc: 'Member id given by the coordinator; empty on the first join.' }),
    // Static membership (KIP-345).
    field('groupInstanceId', 'string', '5+', {
      doc: 'Static member id (group.instance.id), or null for a dynamic member.',
      nullable: '5+',
      default: null,
    }),
    field('protocolType', 'string', '0+', { doc: 'Kind of group, e.g. "consumer".' }),
    field(
      'protocols',
      structs('JoinGroupRequestProtocol', [
        // Assignor name; metadata is a ConsumerProtocolSubscription for consumers.
        field('name', 'string', '0+', { doc: 'Protocol (assignor) name, e.g. "range" or "cooperative-sticky".' }),
        field('metadata', 'bytes', '0+', {
          doc: 'Protocol metadata: for consumers, the encoded ConsumerProtocolSubscription.',
        }),
      ]),
      '0+',
      { doc: 'Assignment protocols the member supports, in order of preference.' },
    ),
    field('reason', 'string', '8+', {
      doc: 'Why the member is joining, for the broker log; null if none.',
      nullable: '8+',
      default: null,
      ignorable: true,
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '2+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field('errorCode', 'int16', '0+', {
      doc: 'Error; 0 for none (MEMBER_ID_REQUIRED asks to join again with the given memberId).',
    }),
    field('generationId', 'int32', '0+', { doc: 'Generation of the group this join produced.', default: -1 }),
    field('protocolType', 'string', '7+', {
      doc: 'Kind of group, or null.',
      nullable: '7+',
      default: null,
      ignorable: true,
    }),
    field('protocolName', 'string', '0+', { doc: 'Protocol the coordinator chose, or null.', nullable: '7+' }),
    field('leader', 'string', '0+', { doc: 'Member id of the leader, which computes the assignment.' }),
    // Static leader rejoining: it must not recompute the assignment.
    field('skipAssignment', 'bool', '9+', {
      doc: 'The leader should not compute an assignment (the broker already knows it).',
      default: false,
    }),
    field('memberId', 'string', '0+', { doc: "This member's id." }),
    // Filled for the leader only.
    field(
      'members',
      structs('JoinGroupResponseMember', [
        field('memberId', 'string', '0+', { doc: 'Id of this member.' }),
        field('groupInstanceId', 'string', '5+', {
          doc: 'Static member id, or null.',
          nullable: '5+',
          default: null,
          ignorable: true,
        }),
        field('metadata', 'bytes', '0+', { doc: "The member's protocol metadata (its subscription)." }),
      ]),
      '0+',
      { doc: 'Every member with its metadata, sent to the leader only.' },
    ),
  ],
});

export type JoinGroupRequest = RequestOf<typeof JoinGroup>;
export type JoinGroupRequestInput = RequestInput<typeof JoinGroup>;
export type JoinGroupResponse = ResponseOf<typeof JoinGroup>;
