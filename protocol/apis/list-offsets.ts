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
    field('replicaId', 'int32', '0+', { doc: 'Broker id of a follower asking, or -1 for a client.' }),
    // 0 = read uncommitted (latest = high watermark), 1 = read committed (latest = last stable offset).
    field('isolationLevel', 'int8', '2+', {
      doc: '0 = read_uncommitted (latest is the high watermark); 1 = read_committed (latest is the last stable offset).',
    }),
    field(
      'topics',
      structs('ListOffsetsTopic', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        field(
          'partitions',
          structs('ListOffsetsPartition', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            field('currentLeaderEpoch', 'int32', '4+', {
              doc: 'Leader epoch the client believes current; -1 if unknown.',
              default: -1,
              ignorable: true,
            }),
            field('timestamp', 'int64', '0+', {
              doc: 'What to find: -1 latest, -2 earliest, -3 max timestamp, -4 earliest local, -5 latest tiered, or the first offset at or after this time (ms).',
            }),
            field('maxNumOffsets', 'int32', '0', { doc: 'How many offsets to return (v0 only).', default: 1 }),
          ]),
          '0+',
          { doc: 'Partitions of this topic to look up.' },
        ),
      ]),
      '0+',
      { doc: 'Topics to look up, each with its partitions.' },
    ),
    // How long the broker may wait for a remote-storage lookup.
    field('timeoutMs', 'int32', '10+', {
      doc: 'How long the broker may wait for a remote (tiered) lookup.',
      ignorable: true,
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '2+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field(
      'topics',
      structs('ListOffsetsTopicResponse', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        field(
          'partitions',
          structs('ListOffsetsPartitionResponse', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            field('errorCode', 'int16', '0+', { doc: 'Error for this partition; 0 for none.' }),
            field('oldStyleOffsets', array('int64'), '0', { doc: 'The offsets found (v0 only).', ignorable: false }),
            field('timestamp', 'int64', '1+', {
              doc: 'Timestamp of the record found, or -1.',
              default: -1n,
              ignorable: false,
            }),
            field('offset', 'int64', '1+', {
              doc: 'The offset found, or -1 if there is none (e.g. no record at or after the timestamp).',
              default: -1n,
              ignorable: false,
            }),
            field('leaderEpoch', 'int32', '4+', { doc: 'Leader epoch of the record found, or -1.', default: -1 }),
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

export type ListOffsetsRequest = RequestOf<typeof ListOffsets>;
export type ListOffsetsRequestInput = RequestInput<typeof ListOffsets>;
export type ListOffsetsResponse = ResponseOf<typeof ListOffsets>;
export type ListOffsetsPartitionResponse = ListOffsetsResponse['topics'][number]['partitions'][number];
