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
    field('groupId', 'string', '0+'),
    field('sessionTimeoutMs', 'int32', '0+'),
    // v0 brokers use the session timeout for the rebalance too.
    field('rebalanceTimeoutMs', 'int32', '1+', { default: -1, ignorable: true }),
    field('memberId', 'string', '0+'),
    // Static membership (KIP-345).
    field('groupInstanceId', 'string', '5+', { nullable: '5+', default: null }),
    field('protocolType', 'string', '0+'),
    field(
      'protocols',
      structs('JoinGroupRequestProtocol', [
        // Assignor name; metadata is a ConsumerProtocolSubscription for consumers.
        field('name', 'string', '0+'),
        field('metadata', 'bytes', '0+'),
      ]),
      '0+',
    ),
    field('reason', 'string', '8+', { nullable: '8+', default: null, ignorable: true }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '2+', { ignorable: true }),
    field('errorCode', 'int16', '0+'),
    field('generationId', 'int32', '0+', { default: -1 }),
    field('protocolType', 'string', '7+', { nullable: '7+', default: null, ignorable: true }),
    field('protocolName', 'string', '0+', { nullable: '7+' }),
    field('leader', 'string', '0+'),
    // Static leader rejoining: it must not recompute the assignment.
    field('skipAssignment', 'bool', '9+', { default: false }),
    field('memberId', 'string', '0+'),
    // Filled for the leader only.
    field(
      'members',
      structs('JoinGroupResponseMember', [
        field('memberId', 'string', '0+'),
        field('groupInstanceId', 'string', '5+', { nullable: '5+', default: null, ignorable: true }),
        field('metadata', 'bytes', '0+'),
      ]),
      '0+',
    ),
  ],
});

export type JoinGroupRequest = RequestOf<typeof JoinGroup>;
export type JoinGroupRequestInput = RequestInput<typeof JoinGroup>;
export type JoinGroupResponse = ResponseOf<typeof JoinGroup>;
