import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * ListTransactions (key 66): the transactional ids a broker coordinates (KIP-664), filtered by state and
 * producer id; v1 adds a minimum running time (KIP-994), v2 (Kafka 4.x) a transactional id pattern (KIP-1152).
 */
export const ListTransactions = defineApi({
  name: 'ListTransactions',
  key: 66,
  versions: '0-2',
  flexible: '0+',
  request: [
    field('stateFilters', array('string'), '0+'),
    field('producerIdFilters', array('int64'), '0+'),
    // Below 0: every transaction; else only those running longer than this many ms.
    field('durationFilter', 'int64', '1+', { default: -1n }),
    field('transactionalIdPattern', 'string', '2+', { nullable: '2+', default: null }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', { ignorable: true }),
    field('errorCode', 'int16', '0+'),
    field('unknownStateFilters', array('string'), '0+'),
    field(
      'transactionStates',
      structs('TransactionState', [
        field('transactionalId', 'string', '0+'),
        field('producerId', 'int64', '0+'),
        field('transactionState', 'string', '0+'),
      ]),
      '0+',
    ),
  ],
});

export type ListTransactionsRequest = RequestOf<typeof ListTransactions>;
export type ListTransactionsRequestInput = RequestInput<typeof ListTransactions>;
export type ListTransactionsResponse = ResponseOf<typeof ListTransactions>;
