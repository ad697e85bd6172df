import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, struct, structs } from '../schema.js';

/**
 * Produce (key 0): append record batches to partition logs.
 *
 * v0-2 exist only on Kafka 3.9 (4.0 dropped them); v12-13 only on 4.x. v13
 * names topics by id instead of by name. Both fields are ignorable, so a
 * caller may fill in both and let the negotiated version pick one.
 */
export const Produce = defineApi({
  name: 'Produce',
  key: 0,
  versions: '0-13',
  flexible: '9+',
  request: [
    field('transactionalId', 'string', '3+', {
      doc: 'Transactional id of a transactional producer, or null.',
      nullable: '3+',
      default: null,
    }),
    // 0 = no acknowledgement, 1 = leader only, -1 = full ISR.
    field('acks', 'int16', '0+', {
      doc: 'Acknowledgements wanted: 0 none (no response), 1 the leader, -1 every in-sync replica.',
    }),
    field('timeoutMs', 'int32', '0+', { doc: 'How long the broker may wait for the acknowledgements acks asks for.' }),
    field(
      'topicData',
      structs('TopicProduceData', [
        field('name', 'string', '0-12', { doc: 'Topic name (up to v12).', ignorable: true }),
        field('topicId', 'uuid', '13+', { doc: 'Topic id (v13 and later).', ignorable: true }),
        field(
          'partitionData',
          structs('PartitionProduceData', [
            field('index', 'int32', '0+', { doc: 'Partition index.' }),
            // Encoded record batches; the record-batch codec builds and parses them.
            field('records', 'records', '0+', { doc: 'The record batches to append, as raw bytes.', nullable: '0+' }),
          ]),
          '0+',
          { doc: 'Records to write to the partitions of this topic.' },
        ),
      ]),
      '0+',
      { doc: 'Records to write, by topic.' },
    ),
  ],
  response: [
    field(
      'responses',
      structs('TopicProduceResponse', [
        field('name', 'string', '0-12', { doc: 'Topic name (up to v12).', ignorable: true }),
        field('topicId', 'uuid', '13+', { doc: 'Topic id (v13 and later).', ignorable: true }),
        field(
          'partitionResponses',
          structs('PartitionProduceResponse', [
            field('index', 'int32', '0+', { doc: 'Partition index.' }),
            field('errorCode', 'int16', '0+', { doc: 'Error for this partition; 0 if the records were appended.' }),
            field('baseOffset', 'int64', '0+', { doc: 'Offset given to the first appended record.' }),
            // -1 unless the topic uses LogAppendTime.
            field('logAppendTimeMs', 'int64', '2+', {
              doc: 'Broker time of the append when the topic uses LogAppendTime, else -1.',
              default: -1n,
              ignorable: true,
            }),
            field('logStartOffset', 'int64', '5+', {
              doc: 'Earliest offset in the log after the append.',
              default: -1n,
              ignorable: true,
            }),
            // Which batches of the request were rejected, so the others can be retried.
            field(
              'recordErrors',
              structs('BatchIndexAndErrorMessage', [
                field('batchIndex', 'int32', '8+', { doc: 'Index of the failing record within its batch.' }),
                field('batchIndexErrorMessage', 'string', '8+', {
                  doc: 'Why that record failed, or null.',
                  nullable: '8+',
                  default: null,
                }),
              ]),
              '8+',
              { doc: 'Records that made the batch fail, by index within the batch.', ignorable: true },
            ),
            field('errorMessage', 'string', '8+', {
              doc: 'Why the partition failed, or null.',
              nullable: '8+',
              default: null,
              ignorable: true,
            }),
            // Sent with NOT_LEADER_OR_FOLLOWER so the producer can redirect without a metadata round trip.
            field(
              'currentLeader',
              struct('LeaderIdAndEpoch', [
                field('leaderId', 'int32', '10+', {
                  doc: 'Broker id of the current leader, or -1 if unknown.',
                  default: -1,
                }),
                field('leaderEpoch', 'int32', '10+', {
                  doc: 'Epoch of the current leader, or -1 if unknown.',
                  default: -1,
                }),
              ]),
              '10+',
              {
                doc: 'The new leader, when the request went to a broker that is no longer leader (KIP-951).',
                tag: 0,
                taggedVersions: '10+',
              },
            ),
          ]),
          '0+',
          { doc: 'Results for the partitions of this topic.' },
        ),
      ]),
      '0+',
      { doc: 'Results, by topic.' },
    ),
    field('throttleTimeMs', 'int32', '1+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      default: 0,
      ignorable: true,
    }),
    // Addresses of the leaders named in currentLeader.
    field(
      'nodeEndpoints',
      structs('NodeEndpoint', [
        field('nodeId', 'int32', '10+', { doc: 'Broker id.' }),
        field('host', 'string', '10+', { doc: 'Broker host name.' }),
        field('port', 'int32', '10+', { doc: 'Broker port.' }),
        field('rack', 'string', '10+', { doc: 'Broker rack, or null.', nullable: '10+', default: null }),
      ]),
      '10+',
      { doc: 'Addresses of the brokers named in currentLeader.', tag: 0, taggedVersions: '10+' },
    ),
  ],
});

export type ProduceRequest = RequestOf<typeof Produce>;
export type ProduceRequestInput = RequestInput<typeof Produce>;
export type ProduceResponse = ResponseOf<typeof Produce>;
export type ProducePartitionResponse = ProduceResponse['responses'][number]['partitionResponses'][number];
