/**
 * The transaction APIs the conformance suite needs, defined here at the client version v3 (the classic two-phase
 * flow every Kafka release from 2.4 to 4.x accepts from clients): tidemark's producer is not transactional, so
 * protocol/ has no definitions for them.
 */
import { array, defineApi, field, structs } from '../../protocol/schema.js';

/** Who is asking: the first fields of every client transaction request. */
const PRODUCER = [
  field('transactionalId', 'string', '3'),
  field('producerId', 'int64', '3'),
  field('producerEpoch', 'int16', '3'),
] as const;

/** The answer of the transaction requests that report one error for the whole request. */
const ERROR_ONLY = [field('throttleTimeMs', 'int32', '3'), field('errorCode', 'int16', '3')] as const;

export const AddPartitionsToTxn = defineApi({
  name: 'AddPartitionsToTxn',
  key: 24,
  versions: '3',
  flexible: '3+',
  request: [
    ...PRODUCER,
    field(
      'topics',
      structs('AddPartitionsToTxnTopic', [field('name', 'string', '3'), field('partitions', array('int32'), '3')]),
      '3',
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '3'),
    field(
      'results',
      structs('AddPartitionsToTxnTopicResult', [
        field('name', 'string', '3'),
        field(
          'partitions',
          structs('AddPartitionsToTxnPartitionResult', [
            field('partitionIndex', 'int32', '3'),
            field('errorCode', 'int16', '3'),
          ]),
          '3',
        ),
      ]),
      '3',
    ),
  ],
});

export const EndTxn = defineApi({
  name: 'EndTxn',
  key: 26,
  versions: '3',
  flexible: '3+',
  request: [...PRODUCER, field('committed', 'bool', '3')],
  response: ERROR_ONLY,
});

export const AddOffsetsToTxn = defineApi({
  name: 'AddOffsetsToTxn',
  key: 25,
  versions: '3',
  flexible: '3+',
  request: [...PRODUCER, field('groupId', 'string', '3')],
  response: ERROR_ONLY,
});

export const TxnOffsetCommit = defineApi({
  name: 'TxnOffsetCommit',
  key: 28,
  versions: '3',
  flexible: '3+',
  request: [
    field('transactionalId', 'string', '3'),
    field('groupId', 'string', '3'),
    field('producerId', 'int64', '3'),
    field('producerEpoch', 'int16', '3'),
    field('generationId', 'int32', '3', { default: -1 }),
    field('memberId', 'string', '3', { default: '' }),
    field('groupInstanceId', 'string', '3', { nullable: '3', default: null }),
    field(
      'topics',
      structs('TxnOffsetCommitRequestTopic', [
        field('name', 'string', '3'),
        field(
          'partitions',
          structs('TxnOffsetCommitRequestPartition', [
            field('partitionIndex', 'int32', '3'),
            field('committedOffset', 'int64', '3'),
            field('committedLeaderEpoch', 'int32', '3', { default: -1 }),
            field('committedMetadata', 'string', '3', { nullable: '3' }),
          ]),
          '3',
        ),
      ]),
      '3',
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '3'),
    field(
      'topics',
      structs('TxnOffsetCommitResponseTopic', [
        field('name', 'string', '3'),
        field(
          'partitions',
          structs('TxnOffsetCommitResponsePartition', [
            field('partitionIndex', 'int32', '3'),
            field('errorCode', 'int16', '3'),
          ]),
          '3',
        ),
      ]),
      '3',
    ),
  ],
});
