import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * AddPartitionsToTxn (key 24): add partitions to a producer's open transaction, before the first record is
 * written to each (KIP-98).
 *
 * v0-3 are the client form: one transactional id, top-level. v4+ is the batched form brokers use to verify
 * many transactions at once (KIP-890 part 1); a client never sends it. Same versions on Kafka 3.9 and 4.x.
 */
const topic = (name: string, versions: '0+' | '4+') =>
  structs(name, [field('name', 'string', versions), field('partitions', array('int32'), versions)]);

const topicResult = structs('AddPartitionsToTxnTopicResult', [
  field('name', 'string', '0+'),
  field(
    'resultsByPartition',
    structs('AddPartitionsToTxnPartitionResult', [
      field('partitionIndex', 'int32', '0+'),
      field('partitionErrorCode', 'int16', '0+'),
    ]),
    '0+',
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
        field('transactionalId', 'string', '4+'),
        field('producerId', 'int64', '4+'),
        field('producerEpoch', 'int16', '4+'),
        // True: only check that the partitions are in the transaction (the broker's verification).
        field('verifyOnly', 'bool', '4+', { default: false }),
        field('topics', topic('AddPartitionsToTxnTopic', '4+'), '4+'),
      ]),
      '4+',
    ),
    field('v3AndBelowTransactionalId', 'string', '0-3'),
    field('v3AndBelowProducerId', 'int64', '0-3'),
    field('v3AndBelowProducerEpoch', 'int16', '0-3'),
    field('v3AndBelowTopics', topic('AddPartitionsToTxnTopic', '0+'), '0-3'),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', { ignorable: true }),
    field('errorCode', 'int16', '4+', { ignorable: true }),
    field(
      'resultsByTransaction',
      structs('AddPartitionsToTxnResult', [
        field('transactionalId', 'string', '4+'),
        field('topicResults', topicResult, '4+'),
      ]),
      '4+',
    ),
    field('resultsByTopicV3AndBelow', topicResult, '0-3'),
  ],
});

export type AddPartitionsToTxnRequest = RequestOf<typeof AddPartitionsToTxn>;
export type AddPartitionsToTxnRequestInput = RequestInput<typeof AddPartitionsToTxn>;
export type AddPartitionsToTxnResponse = ResponseOf<typeof AddPartitionsToTxn>;
