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
    field('transactionalId', 'string', '0+'),
    field('producerId', 'int64', '0+'),
    field('producerEpoch', 'int16', '0+'),
    field('groupId', 'string', '0+'),
  ],
  response: [field('throttleTimeMs', 'int32', '0+', { ignorable: true }), field('errorCode', 'int16', '0+')],
});

export type AddOffsetsToTxnRequest = RequestOf<typeof AddOffsetsToTxn>;
export type AddOffsetsToTxnRequestInput = RequestInput<typeof AddOffsetsToTxn>;
export type AddOffsetsToTxnResponse = ResponseOf<typeof AddOffsetsToTxn>;
