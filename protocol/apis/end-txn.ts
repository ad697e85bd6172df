import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf } from '../schema.js';

/**
 * EndTxn (key 26): commit or abort a producer's transaction; the coordinator then writes the markers.
 *
 * v5 (Kafka 4.x, Transactions v2, KIP-890) answers with the producer id and the epoch the coordinator bumped
 * to, which the producer uses for its next transaction.
 */
export const EndTxn = defineApi({
  name: 'EndTxn',
  key: 26,
  versions: '0-5',
  flexible: '3+',
  request: [
    field('transactionalId', 'string', '0+'),
    field('producerId', 'int64', '0+'),
    field('producerEpoch', 'int16', '0+'),
    // True to commit, false to abort.
    field('committed', 'bool', '0+'),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', { ignorable: true }),
    field('errorCode', 'int16', '0+'),
    field('producerId', 'int64', '5+', { default: -1n, ignorable: true }),
    field('producerEpoch', 'int16', '5+', { default: -1, ignorable: true }),
  ],
});

export type EndTxnRequest = RequestOf<typeof EndTxn>;
export type EndTxnRequestInput = RequestInput<typeof EndTxn>;
export type EndTxnResponse = ResponseOf<typeof EndTxn>;
