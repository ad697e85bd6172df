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
    field('timeoutMs', 'int32', '0+', {
      doc: 'How long (ms) the broker waits for the controller to answer.',
      default: 60000,
    }),
    // Null for every partition being reassigned.
    field(
      'topics',
      structs('ListPartitionReassignmentsTopics', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        field('partitionIndexes', array('int32'), '0+', { doc: 'Partition indexes of the topic.' }),
      ]),
      '0+',
      { doc: 'Partitions to report on, by topic; null for every ongoing reassignment.', nullable: '0+', default: null },
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field('errorCode', 'int16', '0+', { doc: 'Error for the whole request; 0 for none.' }),
    field('errorMessage', 'string', '0+', { doc: "Broker's explanation of the error, or null.", nullable: '0+' }),
    field(
      'topics',
      structs('OngoingTopicReassignment', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        field(
          'partitions',
          structs('OngoingPartitionReassignment', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            field('replicas', array('int32'), '0+', {
              doc: 'Current replica set, including the replicas being added and removed.',
            }),
            field('addingReplicas', array('int32'), '0+', { doc: 'Broker ids being added as replicas.' }),
            field('removingReplicas', array('int32'), '0+', { doc: 'Broker ids being removed as replicas.' }),
          ]),
          '0+',
          { doc: 'Partitions of the topic being reassigned.' },
        ),
      ]),
      '0+',
      { doc: 'Ongoing reassignments, by topic (partitions not being moved are left out).' },
    ),
  ],
});

export type ListPartitionReassignmentsRequestInput = RequestInput<typeof ListPartitionReassignments>;
export type ListPartitionReassignmentsRequest = RequestOf<typeof ListPartitionReassignments>;
export type ListPartitionReassignmentsResponse = ResponseOf<typeof ListPartitionReassignments>;
