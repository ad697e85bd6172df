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
    field('transactionalId', 'string', '0+', { doc: 'Transactional id of the producer ending its transaction.' }),
    field('producerId', 'int64', '0+', { doc: 'Producer id from InitProducerId.' }),
    field('producerEpoch', 'int16', '0+', { doc: 'Producer epoch; an older epoch is fenced.' }),
    // True to commit, false to abort.
    field('committed', 'bool', '0+', { doc: 'True to commit the transaction, false to abort it.' }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field('errorCode', 'int16', '0+', { doc: 'Error; 0 for none.' }),
    field('producerId', 'int64', '5+', {
      doc: 'v5+: producer id to use for the next transaction (KIP-890 bumps the epoch each time); -1 if not given.',
      default: -1n,
      ignorable: true,
    }),
    field('producerEpoch', 'int16', '5+', {
      doc: 'v5+: producer epoch to use for the next transaction; -1 if not given.',
      default: -1,
      ignorable: true,
    }),
  ],
});

export type EndTxnRequest = RequestOf<typeof EndTxn>;
export type EndTxnRequestInput = RequestInput<typeof EndTxn>;
export type EndTxnResponse = ResponseOf<typeof EndTxn>;
