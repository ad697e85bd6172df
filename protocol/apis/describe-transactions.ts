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
  request: [field('transactionalIds', array('string'), '0+')],
  response: [
    field('throttleTimeMs', 'int32', '0+', { ignorable: true }),
    field(
      'transactionStates',
      structs('TransactionState', [
        field('errorCode', 'int16', '0+'),
        field('transactionalId', 'string', '0+'),
        // Empty, Ongoing, PrepareCommit, PrepareAbort, CompleteCommit, CompleteAbort, Dead, PrepareEpochFence.
        field('transactionState', 'string', '0+'),
        field('transactionTimeoutMs', 'int32', '0+'),
        field('transactionStartTimeMs', 'int64', '0+'),
        field('producerId', 'int64', '0+'),
        field('producerEpoch', 'int16', '0+'),
        field(
          'topics',
          structs('TopicData', [field('topic', 'string', '0+'), field('partitions', array('int32'), '0+')]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
});

export type DescribeTransactionsRequest = RequestOf<typeof DescribeTransactions>;
export type DescribeTransactionsRequestInput = RequestInput<typeof DescribeTransactions>;
export type DescribeTransactionsResponse = ResponseOf<typeof DescribeTransactions>;
