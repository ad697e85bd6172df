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
    field('groupId', 'string', '0+', { doc: 'Group whose offsets are committed.' }),
    field('generationIdOrMemberEpoch', 'int32', '1+', {
      doc: 'Generation (classic group) or member epoch (KIP-848 group) of the member committing; -1 for a commit from outside the group.',
      default: -1,
      ignorable: true,
    }),
    field('memberId', 'string', '1+', {
      doc: 'Member id of the committer; empty for a commit from outside the group.',
      ignorable: true,
    }),
    field('groupInstanceId', 'string', '7+', {
      doc: 'Static member id (group.instance.id), or null.',
      nullable: '7+',
      default: null,
    }),
    // v2-4 only: -1 means "use the broker's retention".
    field('retentionTimeMs', 'int64', '2-4', {
      doc: 'How long to keep the offsets (v2-v4); -1 for the broker default.',
      default: -1n,
      ignorable: true,
    }),
    field(
      'topics',
      structs('OffsetCommitRequestTopic', [
        field('name', 'string', '0-9', { doc: 'Topic name (up to v9).', ignorable: true }),
        field('topicId', 'uuid', '10+', { doc: 'Topic id (v10 and later).', ignorable: true }),
        field(
          'partitions',
          structs('OffsetCommitRequestPartition', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            // The offset of the next record to read, not of the last one processed.
            field('committedOffset', 'int64', '0+', {
              doc: 'The offset committed: the next record to read (last processed + 1).',
            }),
            field('committedLeaderEpoch', 'int32', '6+', {
              doc: 'Leader epoch of the last record processed, so a later reader can detect truncation; -1 if unknown.',
              default: -1,
              ignorable: true,
            }),
            // v1 only; later versions let the broker stamp the commit time.
            field('commitTimestamp', 'int64', '1', {
              doc: 'Commit time in ms (v1 only); -1 for the broker time.',
              default: -1n,
            }),
            field('committedMetadata', 'string', '0+', {
              doc: 'Free-form text stored with the offset, or null.',
              nullable: '0+',
            }),
          ]),
          '0+',
          { doc: 'Offsets to commit for the partitions of this topic.' },
        ),
      ]),
      '0+',
      { doc: 'Offsets to commit, by topic.' },
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '3+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field(
      'topics',
      structs('OffsetCommitResponseTopic', [
        field('name', 'string', '0-9', { doc: 'Topic name (up to v9).', ignorable: true }),
        field('topicId', 'uuid', '10+', { doc: 'Topic id (v10 and later).', ignorable: true }),
        field(
          'partitions',
          structs('OffsetCommitResponsePartition', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            field('errorCode', 'int16', '0+', {
              doc: 'Error for this partition (e.g. ILLEGAL_GENERATION for a member out of date); 0 if stored.',
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

export type OffsetCommitRequest = RequestOf<typeof OffsetCommit>;
export type OffsetCommitRequestInput = RequestInput<typeof OffsetCommit>;
export type OffsetCommitResponse = ResponseOf<typeof OffsetCommit>;
