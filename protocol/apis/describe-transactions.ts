import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * DescribeTransactions (key 65): the state of transactional ids at their coordinator (KIP-664), for admin
 * tools and tests. One version, flexible, on Kafka 3.9 and 4.x.
 */
export const DescribeTransactions = defineApi({
  name: 'DescribeTransactions',
  key: 65,
  versions: '0',
  flexible: '0+',
  request: [
    field('transactionalIds', array('string'), '0+', {
      doc: 'Transactional ids to describe, each asked of its transaction coordinator.',
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field(
      'transactionStates',
      structs('TransactionState', [
        field('errorCode', 'int16', '0+', {
          doc: 'Error for this id; 0 for none (TRANSACTIONAL_ID_NOT_FOUND if unknown).',
        }),
        field('transactionalId', 'string', '0+', { doc: 'Transactional id described.' }),
        // Empty, Ongoing, PrepareCommit, PrepareAbort, CompleteCommit, CompleteAbort, Dead, PrepareEpochFence.
        field('transactionState', 'string', '0+', {
          doc: 'Coordinator state, e.g. "Empty", "Ongoing", "PrepareCommit", "CompleteAbort".',
        }),
        field('transactionTimeoutMs', 'int32', '0+', {
          doc: 'Transaction timeout (ms) the producer asked for in InitProducerId.',
        }),
        field('transactionStartTimeMs', 'int64', '0+', {
          doc: 'When the open transaction started (epoch ms); -1 if none is open.',
        }),
        field('producerId', 'int64', '0+', { doc: 'Producer id currently bound to the transactional id.' }),
        field('producerEpoch', 'int16', '0+', { doc: 'Current producer epoch.' }),
        field(
          'topics',
          structs('TopicData', [
            field('topic', 'string', '0+', { doc: 'Topic name.' }),
            field('partitions', array('int32'), '0+', { doc: 'Partition indexes of the topic in the transaction.' }),
          ]),
          '0+',
          { doc: 'Partitions in the open transaction, by topic.' },
        ),
      ]),
      '0+',
      { doc: 'State of each requested transactional id.' },
    ),
  ],
});

export type DescribeTransactionsRequest = RequestOf<typeof DescribeTransactions>;
export type DescribeTransactionsRequestInput = RequestInput<typeof DescribeTransactions>;
export type DescribeTransactionsResponse = ResponseOf<typeof DescribeTransactions>;
