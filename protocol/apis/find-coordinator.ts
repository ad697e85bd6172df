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
    field('key', 'string', '0-3', { doc: 'Group id or transactional id whose coordinator is wanted (up to v3).' }),
    // Not ignorable: a v0 broker would look up a transactional id as a group.
    field('keyType', 'int8', '1+', { doc: '0 for a group, 1 for a transaction.', default: 0, ignorable: false }),
    field('coordinatorKeys', array('string'), '4+', {
      doc: 'Group or transactional ids whose coordinators are wanted (v4 and later).',
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '1+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field('errorCode', 'int16', '0-3', { doc: 'Error (up to v3); 0 for none.' }),
    field('errorMessage', 'string', '1-3', {
      doc: 'Why it failed (up to v3), or null.',
      nullable: '1-3',
      ignorable: true,
    }),
    field('nodeId', 'int32', '0-3', { doc: 'Broker id of the coordinator (up to v3).' }),
    field('host', 'string', '0-3', { doc: 'Host of the coordinator (up to v3).' }),
    field('port', 'int32', '0-3', { doc: 'Port of the coordinator (up to v3).' }),
    field(
      'coordinators',
      structs('Coordinator', [
        field('key', 'string', '4+', { doc: 'The group or transactional id.' }),
        field('nodeId', 'int32', '4+', { doc: 'Broker id of its coordinator.' }),
        field('host', 'string', '4+', { doc: 'Host of its coordinator.' }),
        field('port', 'int32', '4+', { doc: 'Port of its coordinator.' }),
        field('errorCode', 'int16', '4+', { doc: 'Error for this key (e.g. COORDINATOR_NOT_AVAILABLE); 0 for none.' }),
        field('errorMessage', 'string', '4+', { doc: 'Why it failed, or null.', nullable: '4+', ignorable: true }),
      ]),
      '4+',
      { doc: 'One coordinator per key asked for (v4 and later).' },
    ),
  ],
});

export type FindCoordinatorRequest = RequestOf<typeof FindCoordinator>;
export type FindCoordinatorRequestInput = RequestInput<typeof FindCoordinator>;
export type FindCoordinatorResponse = ResponseOf<typeof FindCoordinator>;
