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
    field('transactionalId', 'string', '0+', { doc: 'Transactional id of the producer committing the offsets.' }),
    field('groupId', 'string', '0+', { doc: 'Consumer group the offsets are committed for.' }),
    field('producerId', 'int64', '0+', { doc: 'Producer id from InitProducerId.' }),
    field('producerEpoch', 'int16', '0+', { doc: 'Producer epoch; an older epoch is fenced.' }),
    field('generationIdOrMemberEpoch', 'int32', '3+', {
      doc: 'v3+: group generation (classic) or member epoch (consumer protocol) for fencing; -1 skips the check.',
      default: -1,
    }),
    field('memberId', 'string', '3+', {
      doc: "v3+: consumer's member id in the group; empty skips the check.",
      default: '',
    }),
    field('groupInstanceId', 'string', '3+', {
      doc: "v3+: consumer's static member id, or null for a dynamic member.",
      nullable: '3+',
      default: null,
    }),
    field(
      'topics',
      structs('TxnOffsetCommitRequestTopic', [
        field('name', 'string', '0-5', { doc: 'Topic name (v0-5).', ignorable: true }),
        field('topicId', 'uuid', '6+', { doc: 'Topic id, in place of the name from v6.', ignorable: true }),
        field(
          'partitions',
          structs('TxnOffsetCommitRequestPartition', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            // The next offset to read, as in OffsetCommit.
            field('committedOffset', 'int64', '0+', {
              doc: 'Offset of the next record to consume (last processed + 1), visible once the transaction commits.',
            }),
            field('committedLeaderEpoch', 'int32', '2+', {
              doc: 'v2+: leader epoch of the last consumed record, for truncation detection; -1 if unknown.',
              default: -1,
              ignorable: true,
            }),
            field('committedMetadata', 'string', '0+', {
              doc: 'Free-form text stored with the offset, or null.',
              nullable: '0+',
            }),
          ]),
          '0+',
          { doc: 'Offsets to commit for each partition of the topic.' },
        ),
      ]),
      '0+',
      { doc: 'Offsets to commit, by topic.' },
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field(
      'topics',
      structs('TxnOffsetCommitResponseTopic', [
        field('name', 'string', '0-5', { doc: 'Topic name (v0-5).', ignorable: true }),
        field('topicId', 'uuid', '6+', { doc: 'Topic id, in place of the name from v6.', ignorable: true }),
        field(
          'partitions',
          structs('TxnOffsetCommitResponsePartition', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            field('errorCode', 'int16', '0+', {
              doc: 'Error for this partition; 0 if the offset is staged in the transaction.',
            }),
          ]),
          '0+',
          { doc: 'Result for each partition of the topic.' },
        ),
      ]),
      '0+',
      { doc: 'Result for each topic of the request.' },
    ),
  ],
});

export type TxnOffsetCommitRequest = RequestOf<typeof TxnOffsetCommit>;
export type TxnOffsetCommitRequestInput = RequestInput<typeof TxnOffsetCommit>;
export type TxnOffsetCommitResponse = ResponseOf<typeof TxnOffsetCommit>;
