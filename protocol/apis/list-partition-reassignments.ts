import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * ListPartitionReassignments (key 46): the replica moves in progress. One
 * version on Kafka 3.9 and 4.x.
 */
export const ListPartitionReassignments = defineApi({
  name: 'ListPartitionReassignments',
  key: 46,
  versions: '0',
  flexible: '0+',
  request: [
    field('timeoutMs', 'int32', '0+', { default: 60000 }),
    // Null for every partition being reassigned.
    field(
      'topics',
      structs('ListPartitionReassignmentsTopics', [
        field('name', 'string', '0+'),
        field('partitionIndexes', array('int32'), '0+'),
      ]),
      '0+',
      { nullable: '0+', default: null },
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field('errorCode', 'int16', '0+'),
    field('errorMessage', 'string', '0+', { nullable: '0+' }),
    field(
      'topics',
      structs('OngoingTopicReassignment', [
        field('name', 'string', '0+'),
        field(
          'partitions',
          structs('OngoingPartitionReassignment', [
            field('partitionIndex', 'int32', '0+'),
            field('replicas', array('int32'), '0+'),
            field('addingReplicas', array('int32'), '0+'),
            field('removingReplicas', array('int32'), '0+'),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
});

export type ListPartitionReassignmentsRequestInput = RequestInput<typeof ListPartitionReassignments>;
export type ListPartitionReassignmentsRequest = RequestOf<typeof ListPartitionReassignments>;
export type ListPartitionReassignmentsResponse = ResponseOf<typeof ListPartitionReassignments>;
