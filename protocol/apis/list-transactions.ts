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
    field('stateFilters', array('string'), '0+', {
      doc: 'Only list transactions in these states; empty for any state.',
    }),
    field('producerIdFilters', array('int64'), '0+', {
      doc: 'Only list transactions of these producer ids; empty for any.',
    }),
    // Below 0: every transaction; else only those running longer than this many ms.
    field('durationFilter', 'int64', '1+', {
      doc: 'v1+: only list transactions open longer than this many ms; -1 for no limit.',
      default: -1n,
    }),
    field('transactionalIdPattern', 'string', '2+', {
      doc: 'v2+: only list transactional ids matching this regular expression; null or empty for any.',
      nullable: '2+',
      default: null,
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field('errorCode', 'int16', '0+', { doc: 'Error; 0 for none.' }),
    field('unknownStateFilters', array('string'), '0+', {
      doc: 'State filters of the request that the broker does not know.',
    }),
    field(
      'transactionStates',
      structs('TransactionState', [
        field('transactionalId', 'string', '0+', { doc: 'Transactional id of the listed transaction.' }),
        field('producerId', 'int64', '0+', { doc: 'Producer id currently bound to it.' }),
        field('transactionState', 'string', '0+', { doc: 'Coordinator state, e.g. "Ongoing" or "CompleteCommit".' }),
      ]),
      '0+',
      { doc: 'Matching transactions this broker coordinates.' },
    ),
  ],
});

export type ListTransactionsRequest = RequestOf<typeof ListTransactions>;
export type ListTransactionsRequestInput = RequestInput<typeof ListTransactions>;
export type ListTransactionsResponse = ResponseOf<typeof ListTransactions>;
