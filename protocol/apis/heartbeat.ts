import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf } from '../schema.js';

/**
 * Heartbeat (key 12): a classic group member's keep-alive; its error code
 * tells the member when to rejoin. Same versions on Kafka 3.9 and 4.x.
 */
export const Heartbeat = defineApi({
  name: 'Heartbeat',
  key: 12,
  versions: '0-4',
  flexible: '4+',
  request: [
    field('groupId', 'string', '0+', { doc: 'Id of the group the member belongs to.' }),
    field('generationId', 'int32', '0+', { doc: 'Generation the member is in.' }),
    field('memberId', 'string', '0+', { doc: 'Id the coordinator gave the member.' }),
    field('groupInstanceId', 'string', '3+', { doc: 'Static member id, or null.', nullable: '3+', default: null }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '1+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field('errorCode', 'int16', '0+', {
      doc: 'Error; REBALANCE_IN_PROGRESS means rejoin, ILLEGAL_GENERATION or UNKNOWN_MEMBER_ID that the member is out of date.',
    }),
  ],
});

export type HeartbeatRequest = RequestOf<typeof Heartbeat>;
export type HeartbeatRequestInput = RequestInput<typeof Heartbeat>;
export type HeartbeatResponse = ResponseOf<typeof Heartbeat>;
