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
    field('groupId', 'string', '0-7'),
    // From v2, null asks for every partition the group has committed.
    field(
      'topics',
      structs('OffsetFetchRequestTopic', [
        field('name', 'string', '0-7'),
        field('partitionIndexes', array('int32'), '0-7'),
      ]),
      '0-7',
      { nullable: '2-7' },
    ),
    field(
      'groups',
      structs('OffsetFetchRequestGroup', [
        field('groupId', 'string', '8+'),
        // KIP-848: lets the coordinator check that the member still belongs to the group.
        field('memberId', 'string', '9+', { nullable: '9+', default: null, ignorable: true }),
        field('memberEpoch', 'int32', '9+', { default: -1, ignorable: true }),
        field(
          'topics',
          structs('OffsetFetchRequestTopics', [
            field('name', 'string', '8-9', { ignorable: true }),
            field('topicId', 'uuid', '10+', { ignorable: true }),
            field('partitionIndexes', array('int32'), '8+'),
          ]),
          '8+',
          { nullable: '8+' },
        ),
      ]),
      '8+',
    ),
    // Wait for pending transactional commits instead of returning stale offsets.
    field('requireStable', 'bool', '7+', { default: false }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '3+', { ignorable: true }),
    field(
      'topics',
      structs('OffsetFetchResponseTopic', [
        field('name', 'string', '0-7'),
        field(
          'partitions',
          structs('OffsetFetchResponsePartition', [
            field('partitionIndex', 'int32', '0-7'),
            // -1 when the group has no commit for the partition.
            field('committedOffset', 'int64', '0-7'),
            field('committedLeaderEpoch', 'int32', '5-7', { default: -1, ignorable: true }),
            field('metadata', 'string', '0-7', { nullable: '0-7' }),
            field('errorCode', 'int16', '0-7'),
          ]),
          '0-7',
        ),
      ]),
      '0-7',
    ),
    field('errorCode', 'int16', '2-7', { default: 0, ignorable: true }),
    field(
      'groups',
      structs('OffsetFetchResponseGroup', [
        field('groupId', 'string', '8+'),
        field(
          'topics',
          structs('OffsetFetchResponseTopics', [
            field('name', 'string', '8-9', { ignorable: true }),
            field('topicId', 'uuid', '10+', { ignorable: true }),
            field(
              'partitions',
              structs('OffsetFetchResponsePartitions', [
                field('partitionIndex', 'int32', '8+'),
                field('committedOffset', 'int64', '8+'),
                field('committedLeaderEpoch', 'int32', '8+', { default: -1, ignorable: true }),
                field('metadata', 'string', '8+', { nullable: '8+' }),
                field('errorCode', 'int16', '8+'),
              ]),
              '8+',
            ),
          ]),
          '8+',
        ),
        field('errorCode', 'int16', '8+', { default: 0 }),
      ]),
      '8+',
    ),
  ],
});

export type OffsetFetchRequest = RequestOf<typeof OffsetFetch>;
export type OffsetFetchRequestInput = RequestInput<typeof OffsetFetch>;
export type OffsetFetchResponse = ResponseOf<typeof OffsetFetch>;
