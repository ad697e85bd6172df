import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * FindCoordinator (key 10): which broker coordinates a group (key type 0)
 * or a transactional id (key type 1).
 *
 * Same versions on Kafka 3.9 and 4.x. Up to v3 one key is looked up and the
 * answer is top-level; from v4 a batch of keys, answered per key in
 * `coordinators`.
 */
export const FindCoordinator = defineApi({
  name: 'FindCoordinator',
  key: 10,
  versions: '0-6',
  flexible: '3+',
  request: [
    field('key', 'string', '0-3'),
    // Not ignorable: a v0 broker would look up a transactional id as a group.
    field('keyType', 'int8', '1+', { default: 0, ignorable: false }),
    field('coordinatorKeys', array('string'), '4+'),
  ],
  response: [
    field('throttleTimeMs', 'int32', '1+', { ignorable: true }),
    field('errorCode', 'int16', '0-3'),
    field('errorMessage', 'string', '1-3', { nullable: '1-3', ignorable: true }),
    field('nodeId', 'int32', '0-3'),
    field('host', 'string', '0-3'),
    field('port', 'int32', '0-3'),
    field(
      'coordinators',
      structs('Coordinator', [
        field('key', 'string', '4+'),
        field('nodeId', 'int32', '4+'),
        field('host', 'string', '4+'),
        field('port', 'int32', '4+'),
        field('errorCode', 'int16', '4+'),
        field('errorMessage', 'string', '4+', { nullable: '4+', ignorable: true }),
      ]),
      '4+',
    ),
  ],
});

export type FindCoordinatorRequest = RequestOf<typeof FindCoordinator>;
export type FindCoordinatorRequestInput = RequestInput<typeof FindCoordinator>;
export type FindCoordinatorResponse = ResponseOf<typeof FindCoordinator>;
