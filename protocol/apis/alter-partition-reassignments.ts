import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * AlterPartitionReassignments (key 45): starts (or, with null replicas,
 * cancels) moving partition replicas to other brokers. v1 (refusing a change
 * of replication factor) only on 4.x.
 */
export const AlterPartitionReassignments = defineApi({
  name: 'AlterPartitionReassignments',
  key: 45,
  versions: '0-1',
  flexible: '0+',
  request: [
    field('timeoutMs', 'int32', '0+', {
      doc: 'How long (ms) the broker waits for the controller to accept the request.',
      default: 60000,
    }),
    field('allowReplicationFactorChange', 'bool', '1+', {
      doc: "v1+: false to reject any reassignment that changes a partition's replica count.",
      default: true,
    }),
    field(
      'topics',
      structs('ReassignableTopic', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        field(
          'partitions',
          structs('ReassignablePartition', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            // The target replica list; null cancels the partition's pending reassignment.
            field('replicas', array('int32'), '0+', {
              doc: 'Broker ids the partition should end on, preferred leader first; null cancels an ongoing reassignment.',
              nullable: '0+',
              default: null,
            }),
          ]),
          '0+',
          { doc: 'Partitions of the topic to reassign.' },
        ),
      ]),
      '0+',
      { doc: 'Partitions to reassign, by topic.' },
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field('allowReplicationFactorChange', 'bool', '1+', {
      doc: "v1+: the request's allowReplicationFactorChange, echoed so a client sees it was honoured.",
      default: true,
      ignorable: true,
    }),
    field('errorCode', 'int16', '0+', { doc: 'Error for the whole request; 0 for none.' }),
    field('errorMessage', 'string', '0+', { doc: "Broker's explanation of the error, or null.", nullable: '0+' }),
    field(
      'responses',
      structs('ReassignableTopicResponse', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        field(
          'partitions',
          structs('ReassignablePartitionResponse', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            field('errorCode', 'int16', '0+', {
              doc: 'Error for this partition; 0 if the reassignment started (or was cancelled).',
            }),
            field('errorMessage', 'string', '0+', {
              doc: "Broker's explanation of the error, or null.",
              nullable: '0+',
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

export type AlterPartitionReassignmentsRequestInput = RequestInput<typeof AlterPartitionReassignments>;
export type AlterPartitionReassignmentsRequest = RequestOf<typeof AlterPartitionReassignments>;
export type AlterPartitionReassignmentsResponse = ResponseOf<typeof AlterPartitionReassignments>;
