import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * ListOffsets (key 2): the offset of a partition at a timestamp, or its
 * earliest / latest offset (timestamps -2 / -1). The range checks of stored
 * positions are built on it.
 *
 * v0 exists only on Kafka 3.9 (4.0 dropped it); v10-11 only on 4.x. v0
 * answers with a list of offsets (`oldStyleOffsets`) instead of one
 * timestamp/offset pair.
 */
export const ListOffsets = defineApi({
  name: 'ListOffsets',
  key: 2,
  versions: '0-11',
  flexible: '6+',
  request: [
    // -1 for a consumer.
    field('replicaId', 'int32', '0+'),
    // 0 = read uncommitted (latest = high watermark), 1 = read committed (latest = last stable offset).
    field('isolationLevel', 'int8', '2+'),
    field(
      'topics',
      structs('ListOffsetsTopic', [
        field('name', 'string', '0+'),
        field(
          'partitions',
          structs('ListOffsetsPartition', [
            field('partitionIndex', 'int32', '0+'),
            field('currentLeaderEpoch', 'int32', '4+', { default: -1, ignorable: true }),
            field('timestamp', 'int64', '0+'),
            field('maxNumOffsets', 'int32', '0', { default: 1 }),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
    // How long the broker may wait for a remote-storage lookup.
    field('timeoutMs', 'int32', '10+', { ignorable: true }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '2+', { ignorable: true }),
    field(
      'topics',
      structs('ListOffsetsTopicResponse', [
        field('name', 'string', '0+'),
        field(
          'partitions',
          structs('ListOffsetsPartitionResponse', [
            field('partitionIndex', 'int32', '0+'),
            field('errorCode', 'int16', '0+'),
            field('oldStyleOffsets', array('int64'), '0', { ignorable: false }),
            field('timestamp', 'int64', '1+', { default: -1n, ignorable: false }),
            field('offset', 'int64', '1+', { default: -1n, ignorable: false }),
            field('leaderEpoch', 'int32', '4+', { default: -1 }),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
});

export type ListOffsetsRequest = RequestOf<typeof ListOffsets>;
export type ListOffsetsRequestInput = RequestInput<typeof ListOffsets>;
export type ListOffsetsResponse = ResponseOf<typeof ListOffsets>;
export type ListOffsetsPartitionResponse = ListOffsetsResponse['topics'][number]['partitions'][number];
