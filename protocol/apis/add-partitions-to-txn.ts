import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * AddPartitionsToTxn (key 24): add partitions to a producer's open transaction, before the first record is
 * written to each (KIP-98).
 *
 * v0-3 are the client form: one transactional id, top-level. v4+ is the batched form brokers use to verify
 * many transactions at once (KIP-890 part 1); a client never sends it. Same versions on Kafka 3.9 and 4.x.
 */
const topic = (name: string, versions: '0+' | '4+') =>
  structs(name, [
    field('name', 'string', versions, { doc: 'Topic name.' }),
    field('partitions', array('int32'), versions, { doc: 'Partition indexes of the topic to add to the transaction.' }),
  ]);

const topicResult = structs('AddPartitionsToTxnTopicResult', [
  field('name', 'string', '0+', { doc: 'Topic name.' }),
  field(
    'resultsByPartition',
    structs('AddPartitionsToTxnPartitionResult', [
      field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
      field('partitionErrorCode', 'int16', '0+', {
        doc: 'Error for this partition; 0 if it is now in the transaction.',
      }),
    ]),
    '0+',
    { doc: 'Outcome for each partition of the topic.' },
  ),
]);

export const AddPartitionsToTxn = defineApi({
  name: 'AddPartitionsToTxn',
  key: 24,
  versions: '0-5',
  flexible: '3+',
  request: [
    field(
      'transactions',
      structs('AddPartitionsToTxnTransaction', [
        field('transactionalId', 'string', '4+', { doc: 'Transactional id of this transaction.' }),
        field('producerId', 'int64', '4+', { doc: 'Producer id of this transaction.' }),
        field('producerEpoch', 'int16', '4+', { doc: 'Producer epoch of this transaction.' }),
        // True: only check that the partitions are in the transaction (the broker's verification).
        field('verifyOnly', 'bool', '4+', {
          doc: 'True to only check that the partitions are already in the transaction, without adding them.',
          default: false,
        }),
        field('topics', topic('AddPartitionsToTxnTopic', '4+'), '4+', {
          doc: 'Topics and partitions of this transaction.',
        }),
      ]),
      '4+',
      { doc: 'v4+ (broker-to-broker): the transactions to add partitions to or verify, in one batch.' },
    ),
    field('v3AndBelowTransactionalId', 'string', '0-3', {
      doc: 'v0-3: transactional id of the producer (the client form).',
    }),
    field('v3AndBelowProducerId', 'int64', '0-3', { doc: 'v0-3: producer id from InitProducerId.' }),
    field('v3AndBelowProducerEpoch', 'int16', '0-3', {
      doc: 'v0-3: producer epoch from InitProducerId; an older epoch is fenced.',
    }),
    field('v3AndBelowTopics', topic('AddPartitionsToTxnTopic', '0+'), '0-3', {
      doc: 'v0-3: topics and partitions to add before writing to them.',
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field('errorCode', 'int16', '4+', {
      doc: 'v4+: error for the whole batch; 0 for none (per-partition errors are below).',
      ignorable: true,
    }),
    field(
      'resultsByTransaction',
      structs('AddPartitionsToTxnResult', [
        field('transactionalId', 'string', '4+', { doc: 'Transactional id the results belong to.' }),
        field('topicResults', topicResult, '4+', { doc: 'Outcome for each topic of this transaction.' }),
      ]),
      '4+',
      { doc: 'v4+: outcome for each transaction of the batch.' },
    ),
    field('resultsByTopicV3AndBelow', topicResult, '0-3', { doc: 'v0-3: outcome for each topic of the request.' }),
  ],
});

export type AddPartitionsToTxnRequest = RequestOf<typeof AddPartitionsToTxn>;
export type AddPartitionsToTxnRequestInput = RequestInput<typeof AddPartitionsToTxn>;
export type AddPartitionsToTxnResponse = ResponseOf<typeof AddPartitionsToTxn>;
