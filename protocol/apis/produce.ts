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
    field('transactionalId', 'string', '3+', { nullable: '3+', default: null }),
    // 0 = no acknowledgement, 1 = leader only, -1 = full ISR.
    field('acks', 'int16', '0+'),
    field('timeoutMs', 'int32', '0+'),
    field(
      'topicData',
      structs('TopicProduceData', [
        field('name', 'string', '0-12', { ignorable: true }),
        field('topicId', 'uuid', '13+', { ignorable: true }),
        field(
          'partitionData',
          structs('PartitionProduceData', [
            field('index', 'int32', '0+'),
            // Encoded record batches; the record-batch codec builds and parses them.
            field('records', 'records', '0+', { nullable: '0+' }),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
  response: [
    field(
      'responses',
      structs('TopicProduceResponse', [
        field('name', 'string', '0-12', { ignorable: true }),
        field('topicId', 'uuid', '13+', { ignorable: true }),
        field(
          'partitionResponses',
          structs('PartitionProduceResponse', [
            field('index', 'int32', '0+'),
            field('errorCode', 'int16', '0+'),
            field('baseOffset', 'int64', '0+'),
            // -1 unless the topic uses LogAppendTime.
            field('logAppendTimeMs', 'int64', '2+', { default: -1n, ignorable: true }),
            field('logStartOffset', 'int64', '5+', { default: -1n, ignorable: true }),
            // Which batches of the request were rejected, so the others can be retried.
            field(
              'recordErrors',
              structs('BatchIndexAndErrorMessage', [
                field('batchIndex', 'int32', '8+'),
                field('batchIndexErrorMessage', 'string', '8+', { nullable: '8+', default: null }),
              ]),
              '8+',
              { ignorable: true },
            ),
            field('errorMessage', 'string', '8+', { nullable: '8+', default: null, ignorable: true }),
            // Sent with NOT_LEADER_OR_FOLLOWER so the producer can redirect without a metadata round trip.
            field(
              'currentLeader',
              struct('LeaderIdAndEpoch', [
                field('leaderId', 'int32', '10+', { default: -1 }),
                field('leaderEpoch', 'int32', '10+', { default: -1 }),
              ]),
              '10+',
              { tag: 0, taggedVersions: '10+' },
            ),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
    field('throttleTimeMs', 'int32', '1+', { default: 0, ignorable: true }),
    // Addresses of the leaders named in currentLeader.
    field(
      'nodeEndpoints',
      structs('NodeEndpoint', [
        field('nodeId', 'int32', '10+'),
        field('host', 'string', '10+'),
        field('port', 'int32', '10+'),
        field('rack', 'string', '10+', { nullable: '10+', default: null }),
      ]),
      '10+',
      { tag: 0, taggedVersions: '10+' },
    ),
  ],
});

export type ProduceRequest = RequestOf<typeof Produce>;
export type ProduceRequestInput = RequestInput<typeof Produce>;
export type ProduceResponse = ResponseOf<typeof Produce>;
export type ProducePartitionResponse = ProduceResponse['responses'][number]['partitionResponses'][number];
