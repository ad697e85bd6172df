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
    field('replicaId', 'int32', '3+', {
      doc: 'Broker id of a follower asking, or -1 for a client (-2 for a debugging tool).',
      default: -2,
      ignorable: true,
    }),
    field(
      'topics',
      structs('OffsetForLeaderTopic', [
        field('topic', 'string', '0+', { doc: 'Topic name.' }),
        field(
          'partitions',
          structs('OffsetForLeaderPartition', [
            field('partition', 'int32', '0+', { doc: 'Partition index.' }),
            field('currentLeaderEpoch', 'int32', '2+', {
              doc: 'Leader epoch the client believes current; -1 if unknown.',
              default: -1,
              ignorable: true,
            }),
            // The epoch whose end offset is wanted.
            field('leaderEpoch', 'int32', '0+', {
              doc: 'Epoch whose end offset is wanted: the epoch of the last record the client has.',
            }),
          ]),
          '0+',
          { doc: 'Partitions of this topic.' },
        ),
      ]),
      '0+',
      { doc: 'Partitions to look up, by topic.' },
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '2+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field(
      'topics',
      structs('OffsetForLeaderTopicResult', [
        field('topic', 'string', '0+', { doc: 'Topic name.' }),
        field(
          'partitions',
          structs('EpochEndOffset', [
            field('errorCode', 'int16', '0+', { doc: 'Error for this partition; 0 for none.' }),
            field('partition', 'int32', '0+', { doc: 'Partition index.' }),
            field('leaderEpoch', 'int32', '1+', {
              doc: 'Largest epoch at or below the one asked for, or -1.',
              default: -1,
              ignorable: true,
            }),
            field('endOffset', 'int64', '0+', {
              doc: 'End offset of that epoch: where a client with a diverged log must truncate to; -1 if unknown.',
              default: -1n,
            }),
          ]),
          '0+',
          { doc: 'Results for the partitions of this topic.' },
        ),
      ]),
      '0+',
      { doc: 'Results, by topic.' },
    ),
  ],
});

export type OffsetForLeaderEpochRequest = RequestOf<typeof OffsetForLeaderEpoch>;
export type OffsetForLeaderEpochRequestInput = RequestInput<typeof OffsetForLeaderEpoch>;
export type OffsetForLeaderEpochResponse = ResponseOf<typeof OffsetForLeaderEpoch>;
