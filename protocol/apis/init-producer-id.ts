import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf } from '../schema.js';

/**
 * InitProducerId (key 22): a producer id and epoch for an idempotent or
 * transactional producer.
 *
 * v0-5 on Kafka 3.9 and 4.x. Kafka 4.4 also lists a v6 (two-phase commit,
 * KIP-939) but marks it unstable, so it is left out until it is released.
 */
export const InitProducerId = defineApi({
  name: 'InitProducerId',
  key: 22,
  versions: '0-5',
  flexible: '2+',
  request: [
    // Null for an idempotent producer without transactions.
    field('transactionalId', 'string', '0+', {
      doc: 'Transactional id, or null for an idempotent producer without transactions.',
      nullable: '0+',
    }),
    field('transactionTimeoutMs', 'int32', '0+', {
      doc: 'How long a transaction may stay open before the coordinator aborts it.',
    }),
    // v3+: an existing id and epoch, so a producer can bump its epoch instead of starting over.
    field('producerId', 'int64', '3+', {
      doc: 'Current producer id when re-initialising after an error (KIP-360), else -1.',
      default: -1n,
    }),
    field('producerEpoch', 'int16', '3+', {
      doc: 'Current producer epoch when re-initialising, else -1.',
      default: -1,
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field('errorCode', 'int16', '0+', { doc: 'Error; 0 for none.' }),
    field('producerId', 'int64', '0+', { doc: 'Producer id to stamp on every batch.', default: -1n }),
    field('producerEpoch', 'int16', '0+', {
      doc: 'Producer epoch to stamp on every batch; a newer one fences older producers.',
    }),
  ],
});

export type InitProducerIdRequest = RequestOf<typeof InitProducerId>;
export type InitProducerIdRequestInput = RequestInput<typeof InitProducerId>;
export type InitProducerIdResponse = ResponseOf<typeof InitProducerId>;
