import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * OffsetFetch (key 9): read a group's committed offsets.
 *
 * v0 exists only on Kafka 3.9 (4.0 dropped it); v10 only on 4.x, where
 * topics are named by id. Up to v7 a request asks about one group (top-level
 * `groupId` / `topics`); from v8 it carries a batch of groups (`groups`), and
 * the response mirrors the switch.
 */
export const OffsetFetch = defineApi({
  name: 'OffsetFetch',
  key: 9,
  versions: '0-10',
  flexible: '6+',
  request: [
    field('groupId', 'string', '0-7', { doc: 'Group whose offsets are read (up to v7; one group per request).' }),
    // From v2, null asks for every partition the group has committed.
    field(
      'topics',
      structs('OffsetFetchRequestTopic', [
        field('name', 'string', '0-7', { doc: 'Topic name.' }),
        field('partitionIndexes', array('int32'), '0-7', { doc: 'Partition indexes whose offsets are wanted.' }),
      ]),
      '0-7',
      {
        doc: 'Topics whose offsets are wanted (up to v7); null for every topic the group has offsets for.',
        nullable: '2-7',
      },
    ),
    field(
      'groups',
      structs('OffsetFetchRequestGroup', [
        field('groupId', 'string', '8+', { doc: 'Id of the group whose offsets to fetch.' }),
        // KIP-848: lets the coordinator check that the member still belongs to the group.
        field('memberId', 'string', '9+', {
          doc: 'Member id of the asker, for a KIP-848 member checking its own group; null otherwise.',
          nullable: '9+',
          default: null,
          ignorable: true,
        }),
        field('memberEpoch', 'int32', '9+', { doc: 'Member epoch of the asker, or -1.', default: -1, ignorable: true }),
        field(
          'topics',
          structs('OffsetFetchRequestTopics', [
            field('name', 'string', '8-9', { doc: 'Topic name (up to v9).', ignorable: true }),
            field('topicId', 'uuid', '10+', { doc: 'Topic id (v10 and later).', ignorable: true }),
            field('partitionIndexes', array('int32'), '8+', { doc: 'Partition indexes whose offsets are wanted.' }),
          ]),
          '8+',
          { doc: 'Topics whose offsets are wanted; null for all.', nullable: '8+' },
        ),
      ]),
      '8+',
      { doc: 'Groups whose offsets are read (v8 and later, several per request).' },
    ),
    // Wait for pending transactional commits instead of returning stale offsets.
    field('requireStable', 'bool', '7+', {
      doc: 'Wait for pending transactional offset commits to settle instead of returning unstable offsets.',
      default: false,
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '3+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field(
      'topics',
      structs('OffsetFetchResponseTopic', [
        field('name', 'string', '0-7', { doc: 'Topic name.' }),
        field(
          'partitions',
          structs('OffsetFetchResponsePartition', [
            field('partitionIndex', 'int32', '0-7', { doc: 'Partition index within the topic.' }),
            // -1 when the group has no commit for the partition.
            field('committedOffset', 'int64', '0-7', {
              doc: 'The committed offset (the next record to read), or -1 if none.',
            }),
            field('committedLeaderEpoch', 'int32', '5-7', {
              doc: 'Leader epoch stored with the offset, or -1.',
              default: -1,
              ignorable: true,
            }),
            field('metadata', 'string', '0-7', { doc: 'Text stored with the offset, or null.', nullable: '0-7' }),
            field('errorCode', 'int16', '0-7', { doc: 'Error for this partition; 0 for none.' }),
          ]),
          '0-7',
          { doc: 'Committed offsets of the partitions of this topic.' },
        ),
      ]),
      '0-7',
      { doc: 'Committed offsets, by topic (up to v7).' },
    ),
    field('errorCode', 'int16', '2-7', {
      doc: 'Error for the whole group (up to v7); 0 for none.',
      default: 0,
      ignorable: true,
    }),
    field(
      'groups',
      structs('OffsetFetchResponseGroup', [
        field('groupId', 'string', '8+', { doc: 'Id of the group the offsets belong to.' }),
        field(
          'topics',
          structs('OffsetFetchResponseTopics', [
            field('name', 'string', '8-9', { doc: 'Topic name (up to v9).', ignorable: true }),
            field('topicId', 'uuid', '10+', { doc: 'Topic id (v10 and later).', ignorable: true }),
            field(
              'partitions',
              structs('OffsetFetchResponsePartitions', [
                field('partitionIndex', 'int32', '8+', { doc: 'Partition index within the topic.' }),
                field('committedOffset', 'int64', '8+', {
                  doc: 'The committed offset (the next record to read), or -1 if none.',
                }),
                field('committedLeaderEpoch', 'int32', '8+', {
                  doc: 'Leader epoch stored with the offset, or -1.',
                  default: -1,
                  ignorable: true,
                }),
                field('metadata', 'string', '8+', { doc: 'Text stored with the offset, or null.', nullable: '8+' }),
                field('errorCode', 'int16', '8+', { doc: 'Error for this partition; 0 for none.' }),
              ]),
              '8+',
              { doc: 'Committed offsets of the partitions of this topic.' },
            ),
          ]),
          '8+',
          { doc: 'Committed offsets of this group, by topic.' },
        ),
        field('errorCode', 'int16', '8+', { doc: 'Error for this group; 0 for none.', default: 0 }),
      ]),
      '8+',
      { doc: 'Committed offsets, by group (v8 and later).' },
    ),
  ],
});

export type OffsetFetchRequest = RequestOf<typeof OffsetFetch>;
export type OffsetFetchRequestInput = RequestInput<typeof OffsetFetch>;
export type OffsetFetchResponse = ResponseOf<typeof OffsetFetch>;
