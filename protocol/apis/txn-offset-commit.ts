import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * TxnOffsetCommit (key 28): a group's offsets, sent to its group coordinator as part of a producer's
 * transaction; they become the group's committed offsets only when the transaction commits.
 *
 * v3+ carry the consumer's generation, member id and group instance id (KIP-447), so that the coordinator
 * fences a zombie member's commit; under KIP-848 `generationIdOrMemberEpoch` is the member epoch. v6 (Kafka
 * 4.4, KIP-1319) names topics by id instead of by name; both fields are ignorable so a caller may fill in both.
 */
export const TxnOffsetCommit = defineApi({
  name: 'TxnOffsetCommit',
  key: 28,
  versions: '0-6',
  flexible: '3+',
  request: [
    field('transactionalId', 'string', '0+'),
    field('groupId', 'string', '0+'),
    field('producerId', 'int64', '0+'),
    field('producerEpoch', 'int16', '0+'),
    field('generationIdOrMemberEpoch', 'int32', '3+', { default: -1 }),
    field('memberId', 'string', '3+', { default: '' }),
    field('groupInstanceId', 'string', '3+', { nullable: '3+', default: null }),
    field(
      'topics',
      structs('TxnOffsetCommitRequestTopic', [
        field('name', 'string', '0-5', { ignorable: true }),
        field('topicId', 'uuid', '6+', { ignorable: true }),
        field(
          'partitions',
          structs('TxnOffsetCommitRequestPartition', [
            field('partitionIndex', 'int32', '0+'),
            // The next offset to read, as in OffsetCommit.
            field('committedOffset', 'int64', '0+'),
            field('committedLeaderEpoch', 'int32', '2+', { default: -1, ignorable: true }),
            field('committedMetadata', 'string', '0+', { nullable: '0+' }),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', { ignorable: true }),
    field(
      'topics',
      structs('TxnOffsetCommitResponseTopic', [
        field('name', 'string', '0-5', { ignorable: true }),
        field('topicId', 'uuid', '6+', { ignorable: true }),
        field(
          'partitions',
          structs('TxnOffsetCommitResponsePartition', [
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

export type TxnOffsetCommitRequest = RequestOf<typeof TxnOffsetCommit>;
export type TxnOffsetCommitRequestInput = RequestInput<typeof TxnOffsetCommit>;
export type TxnOffsetCommitResponse = ResponseOf<typeof TxnOffsetCommit>;
