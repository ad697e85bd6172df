import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * DescribeProducers (key 61): the producers a partition leader holds state for (KIP-664), with their last
 * sequence and the start offset of their open transaction, for finding hanging transactions. Sent to each
 * partition's leader. One version, flexible, on Kafka 3.9 and 4.x.
 */
export const DescribeProducers = defineApi({
  name: 'DescribeProducers',
  key: 61,
  versions: '0',
  flexible: '0+',
  request: [
    field(
      'topics',
      structs('TopicRequest', [field('name', 'string', '0+'), field('partitionIndexes', array('int32'), '0+')]),
      '0+',
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', { ignorable: true }),
    field(
      'topics',
      structs('TopicResponse', [
        field('name', 'string', '0+'),
        field(
          'partitions',
          structs('PartitionResponse', [
            field('partitionIndex', 'int32', '0+'),
            field('errorCode', 'int16', '0+'),
            field('errorMessage', 'string', '0+', { nullable: '0+', default: null }),
            field(
              'activeProducers',
              structs('ProducerState', [
                field('producerId', 'int64', '0+'),
                // int32 on the wire although producer epochs are int16 elsewhere.
                field('producerEpoch', 'int32', '0+'),
                field('lastSequence', 'int32', '0+', { default: -1 }),
                field('lastTimestamp', 'int64', '0+', { default: -1n }),
                field('coordinatorEpoch', 'int32', '0+'),
                // -1 when the producer has no open transaction on this partition.
                field('currentTxnStartOffset', 'int64', '0+', { default: -1n }),
              ]),
              '0+',
            ),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
});

export type DescribeProducersRequest = RequestOf<typeof DescribeProducers>;
export type DescribeProducersRequestInput = RequestInput<typeof DescribeProducers>;
export type DescribeProducersResponse = ResponseOf<typeof DescribeProducers>;
