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
      structs('TopicRequest', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        field('partitionIndexes', array('int32'), '0+', { doc: 'Partition indexes to describe.' }),
      ]),
      '0+',
      { doc: "Topics whose partitions' active producers to describe." },
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field(
      'topics',
      structs('TopicResponse', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        field(
          'partitions',
          structs('PartitionResponse', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            field('errorCode', 'int16', '0+', {
              doc: 'Error for this partition; 0 for none (NOT_LEADER_OR_FOLLOWER if asked of the wrong broker).',
            }),
            field('errorMessage', 'string', '0+', {
              doc: "Broker's explanation of the error, or null.",
              nullable: '0+',
              default: null,
            }),
            field(
              'activeProducers',
              structs('ProducerState', [
                field('producerId', 'int64', '0+', { doc: 'Id of the producer this state belongs to.' }),
                // int32 on the wire although producer epochs are int16 elsewhere.
                field('producerEpoch', 'int32', '0+', {
                  doc: 'Latest epoch seen from this producer (int32 here, unlike other APIs).',
                }),
                field('lastSequence', 'int32', '0+', {
                  doc: 'Sequence number of the last record batch written; -1 if none.',
                  default: -1,
                }),
                field('lastTimestamp', 'int64', '0+', {
                  doc: 'Timestamp (ms) of the last record written by the producer; -1 if unknown.',
                  default: -1n,
                }),
                field('coordinatorEpoch', 'int32', '0+', {
                  doc: 'Epoch of the transaction coordinator that last wrote a marker for it; -1 if none.',
                }),
                // -1 when the producer has no open transaction on this partition.
                field('currentTxnStartOffset', 'int64', '0+', {
                  doc: "First offset of the producer's open transaction; -1 if no transaction is open (a stuck one holds back the LSO).",
                  default: -1n,
                }),
              ]),
              '0+',
              { doc: 'Producers the partition leader still keeps state for.' },
            ),
          ]),
          '0+',
          { doc: 'Result for each requested partition.' },
        ),
      ]),
      '0+',
      { doc: 'Result for each requested topic.' },
    ),
  ],
});

export type DescribeProducersRequest = RequestOf<typeof DescribeProducers>;
export type DescribeProducersRequestInput = RequestInput<typeof DescribeProducers>;
export type DescribeProducersResponse = ResponseOf<typeof DescribeProducers>;
