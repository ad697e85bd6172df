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
    field('groupId', 'string', '0+'),
    field('generationId', 'int32', '0+'),
    field('memberId', 'string', '0+'),
    field('groupInstanceId', 'string', '3+', { nullable: '3+', default: null }),
  ],
  response: [field('throttleTimeMs', 'int32', '1+', { ignorable: true }), field('errorCode', 'int16', '0+')],
});

export type HeartbeatRequest = RequestOf<typeof Heartbeat>;
export type HeartbeatRequestInput = RequestInput<typeof Heartbeat>;
export type HeartbeatResponse = ResponseOf<typeof Heartbeat>;
