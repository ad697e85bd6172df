import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * OffsetCommit (key 8): store a group's committed offsets.
 *
 * v0-1 exist only on Kafka 3.9 (4.0 dropped them); v10 only on 4.x, where
 * topics are named by id (`name` up to v9, `topicId` from v10, both
 * ignorable so a caller may fill in both). `generationIdOrMemberEpoch` is the
 * classic generation id, or the KIP-848 member epoch for a consumer group.
 */
export const OffsetCommit = defineApi({
  name: 'OffsetCommit',
  key: 8,
  versions: '0-10',
  flexible: '8+',
  request: [
    field('groupId', 'string', '0+'),
    field('generationIdOrMemberEpoch', 'int32', '1+', { default: -1, ignorable: true }),
    field('memberId', 'string', '1+', { ignorable: true }),
    field('groupInstanceId', 'string', '7+', { nullable: '7+', default: null }),
    // v2-4 only: -1 means "use the broker's retention".
    field('retentionTimeMs', 'int64', '2-4', { default: -1n, ignorable: true }),
    field(
      'topics',
      structs('OffsetCommitRequestTopic', [
        field('name', 'string', '0-9', { ignorable: true }),
        field('topicId', 'uuid', '10+', { ignorable: true }),
        field(
          'partitions',
          structs('OffsetCommitRequestPartition', [
            field('partitionIndex', 'int32', '0+'),
            // The offset of the next record to read, not of the last one processed.
            field('committedOffset', 'int64', '0+'),
            field('committedLeaderEpoch', 'int32', '6+', { default: -1, ignorable: true }),
            // v1 only; later versions let the broker stamp the commit time.
            field('commitTimestamp', 'int64', '1', { default: -1n }),
            field('committedMetadata', 'string', '0+', { nullable: '0+' }),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '3+', { ignorable: true }),
    field(
      'topics',
      structs('OffsetCommitResponseTopic', [
        field('name', 'string', '0-9', { ignorable: true }),
        field('topicId', 'uuid', '10+', { ignorable: true }),
        field(
          'partitions',
          structs('OffsetCommitResponsePartition', [
            field('partitionIndex', 'int32', '0+'),
            field('errorCode', 'int16', '0+'),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
});

export type OffsetCommitRequest = RequestOf<typeof OffsetCommit>;
export type OffsetCommitRequestInput = RequestInput<typeof OffsetCommit>;
export type OffsetCommitResponse = ResponseOf<typeof OffsetCommit>;
