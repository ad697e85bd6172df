import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * OffsetForLeaderEpoch (key 23): the end offset of a leader epoch, which a
 * consumer uses to detect that its position lies past a log truncation.
 *
 * v0-1 exist only on Kafka 3.9 (4.0 dropped them); v2-4 on both.
 */
export const OffsetForLeaderEpoch = defineApi({
  name: 'OffsetForLeaderEpoch',
  key: 23,
  versions: '0-4',
  flexible: '4+',
  request: [
    // -1 for a consumer. Versions without the field are read by brokers as -2.
    field('replicaId', 'int32', '3+', { default: -2, ignorable: true }),
    field(
      'topics',
      structs('OffsetForLeaderTopic', [
        field('topic', 'string', '0+'),
        field(
          'partitions',
          structs('OffsetForLeaderPartition', [
            field('partition', 'int32', '0+'),
            field('currentLeaderEpoch', 'int32', '2+', { default: -1, ignorable: true }),
            // The epoch whose end offset is wanted.
            field('leaderEpoch', 'int32', '0+'),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '2+', { ignorable: true }),
    field(
      'topics',
      structs('OffsetForLeaderTopicResult', [
        field('topic', 'string', '0+'),
        field(
          'partitions',
          structs('EpochEndOffset', [
            field('errorCode', 'int16', '0+'),
            field('partition', 'int32', '0+'),
            field('leaderEpoch', 'int32', '1+', { default: -1, ignorable: true }),
            field('endOffset', 'int64', '0+', { default: -1n }),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
});

export type OffsetForLeaderEpochRequest = RequestOf<typeof OffsetForLeaderEpoch>;
export type OffsetForLeaderEpochRequestInput = RequestInput<typeof OffsetForLeaderEpoch>;
export type OffsetForLeaderEpochResponse = ResponseOf<typeof OffsetForLeaderEpoch>;
