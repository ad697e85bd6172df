import {
  array,
  defineApi,
  field,
  type RequestInput,
  type RequestOf,
  type ResponseOf,
  struct,
  structs,
} from '../schema.js';

/** Where a paginated listing continues: a topic and the partition to start from. */
const Cursor = struct('Cursor', [field('topicName', 'string', '0+'), field('partitionIndex', 'int32', '0+')]);

/**
 * DescribeTopicPartitions (key 75, KIP-966): topics' partitions with leader,
 * replicas, ISR and the eligible leader replicas, paginated by a partition
 * limit and a cursor. One flexible version on Kafka 3.9 and 4.x.
 */
export const DescribeTopicPartitions = defineApi({
  name: 'DescribeTopicPartitions',
  key: 75,
  versions: '0',
  flexible: '0+',
  request: [
    field('topics', structs('TopicRequest', [field('name', 'string', '0+')]), '0+'),
    field('responsePartitionLimit', 'int32', '0+', { default: 2000 }),
    // A nullable struct: a presence byte precedes it on the wire.
    field('cursor', Cursor, '0+', { nullable: '0+', default: null }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', { ignorable: true }),
    field(
      'topics',
      structs('DescribeTopicPartitionsResponseTopic', [
        field('errorCode', 'int16', '0+'),
        field('name', 'string', '0+', { nullable: '0+' }),
        field('topicId', 'uuid', '0+', { ignorable: true }),
        field('isInternal', 'bool', '0+', { default: false, ignorable: true }),
        field(
          'partitions',
          structs('DescribeTopicPartitionsResponsePartition', [
            field('errorCode', 'int16', '0+'),
            field('partitionIndex', 'int32', '0+'),
            field('leaderId', 'int32', '0+'),
            field('leaderEpoch', 'int32', '0+', { default: -1, ignorable: true }),
            field('replicaNodes', array('int32'), '0+'),
            field('isrNodes', array('int32'), '0+'),
            field('eligibleLeaderReplicas', array('int32'), '0+', { nullable: '0+', default: null }),
            field('lastKnownElr', array('int32'), '0+', { nullable: '0+', default: null }),
            field('offlineReplicas', array('int32'), '0+', { ignorable: true }),
          ]),
          '0+',
        ),
        field('topicAuthorizedOperations', 'int32', '0+', { default: -2147483648 }),
      ]),
      '0+',
    ),
    field('nextCursor', Cursor, '0+', { nullable: '0+', default: null }),
  ],
});

export type DescribeTopicPartitionsRequest = RequestOf<typeof DescribeTopicPartitions>;
export type DescribeTopicPartitionsRequestInput = RequestInput<typeof DescribeTopicPartitions>;
export type DescribeTopicPartitionsResponse = ResponseOf<typeof DescribeTopicPartitions>;
