import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf } from '../schema.js';

/**
 * AddOffsetsToTxn (key 25): add a consumer group's offsets partition to a producer's transaction, before
 * TxnOffsetCommit sends the offsets themselves to the group coordinator (KIP-98).
 */
export const AddOffsetsToTxn = defineApi({
  name: 'AddOffsetsToTxn',
  key: 25,
  versions: '0-4',
  flexible: '3+',
  request: [
    field('transactionalId', 'string', '0+', {
      doc: "Transactional id of the producer whose transaction takes the group's offsets.",
    }),
    field('producerId', 'int64', '0+', { doc: 'Producer id from InitProducerId.' }),
    field('producerEpoch', 'int16', '0+', { doc: 'Producer epoch from InitProducerId; an older epoch is fenced.' }),
    field('groupId', 'string', '0+', {
      doc: 'Consumer group whose offset commits join the transaction (its __consumer_offsets partition is added).',
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field('errorCode', 'int16', '0+', { doc: 'Error; 0 for none.' }),
  ],
});

export type AddOffsetsToTxnRequest = RequestOf<typeof AddOffsetsToTxn>;
export type AddOffsetsToTxnRequestInput = RequestInput<typeof AddOffsetsToTxn>;
export type AddOffsetsToTxnResponse = ResponseOf<typeof AddOffsetsToTxn>;
