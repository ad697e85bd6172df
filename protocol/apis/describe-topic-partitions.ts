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
const Cursor = struct('Cursor', [
  field('topicName', 'string', '0+', { doc: 'Topic to resume from.' }),
  field('partitionIndex', 'int32', '0+', { doc: 'First partition index of that topic to return.' }),
]);

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
    field('topics', structs('TopicRequest', [field('name', 'string', '0+', { doc: 'Topic name.' })]), '0+', {
      doc: 'Topics to describe; empty for every topic the caller may see.',
    }),
    field('responsePartitionLimit', 'int32', '0+', {
      doc: 'Most partitions to return in one response; the rest come through nextCursor.',
      default: 2000,
    }),
    // A nullable struct: a presence byte precedes it on the wire.
    field('cursor', Cursor, '0+', {
      doc: 'Where to resume a paged listing (the previous nextCursor), or null to start.',
      nullable: '0+',
      default: null,
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field(
      'topics',
      structs('DescribeTopicPartitionsResponseTopic', [
        field('errorCode', 'int16', '0+', { doc: 'Error for this topic; 0 for none.' }),
        field('name', 'string', '0+', { doc: 'Topic name, or null.', nullable: '0+' }),
        field('topicId', 'uuid', '0+', { doc: 'Id of the described topic.', ignorable: true }),
        field('isInternal', 'bool', '0+', {
          doc: 'Whether the topic is internal, e.g. __consumer_offsets.',
          default: false,
          ignorable: true,
        }),
        field(
          'partitions',
          structs('DescribeTopicPartitionsResponsePartition', [
            field('errorCode', 'int16', '0+', {
              doc: 'Error for this partition; 0 for none (LEADER_NOT_AVAILABLE if it has no leader).',
            }),
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            field('leaderId', 'int32', '0+', { doc: 'Broker id of the leader; -1 if none.' }),
            field('leaderEpoch', 'int32', '0+', {
              doc: 'Leader epoch of the partition; -1 if unknown.',
              default: -1,
              ignorable: true,
            }),
            field('replicaNodes', array('int32'), '0+', { doc: 'Broker ids of every replica.' }),
            field('isrNodes', array('int32'), '0+', { doc: 'Broker ids of the in-sync replicas.' }),
            field('eligibleLeaderReplicas', array('int32'), '0+', {
              doc: 'Replicas outside the ISR that may still become leader cleanly (KIP-966), or null.',
              nullable: '0+',
              default: null,
            }),
            field('lastKnownElr', array('int32'), '0+', {
              doc: 'Last eligible leader replicas known before the partition went leaderless (KIP-966), or null.',
              nullable: '0+',
              default: null,
            }),
            field('offlineReplicas', array('int32'), '0+', {
              doc: 'Broker ids of replicas that are offline.',
              ignorable: true,
            }),
          ]),
          '0+',
          { doc: "The topic's partitions (up to the response limit)." },
        ),
        field('topicAuthorizedOperations', 'int32', '0+', {
          doc: 'Bit set of the ACL operation codes the caller may perform on the topic; INT32_MIN if unknown.',
          default: -2147483648,
        }),
      ]),
      '0+',
      { doc: 'Each described topic.' },
    ),
    field('nextCursor', Cursor, '0+', {
      doc: 'Where the next page starts, or null when this was the last page.',
      nullable: '0+',
      default: null,
    }),
  ],
});

export type DescribeTopicPartitionsRequest = RequestOf<typeof DescribeTopicPartitions>;
export type DescribeTopicPartitionsRequestInput = RequestInput<typeof DescribeTopicPartitions>;
export type DescribeTopicPartitionsResponse = ResponseOf<typeof DescribeTopicPartitions>;
