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
    field('timeoutMs', 'int32', '0+', { default: 60000 }),
    field('allowReplicationFactorChange', 'bool', '1+', { default: true }),
    field(
      'topics',
      structs('ReassignableTopic', [
        field('name', 'string', '0+'),
        field(
          'partitions',
          structs('ReassignablePartition', [
            field('partitionIndex', 'int32', '0+'),
            // The target replica list; null cancels the partition's pending reassignment.
            field('replicas', array('int32'), '0+', { nullable: '0+', default: null }),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field('allowReplicationFactorChange', 'bool', '1+', { default: true, ignorable: true }),
    field('errorCode', 'int16', '0+'),
    field('errorMessage', 'string', '0+', { nullable: '0+' }),
    field(
      'responses',
      structs('ReassignableTopicResponse', [
        field('name', 'string', '0+'),
        field(
          'partitions',
          structs('ReassignablePartitionResponse', [
            field('partitionIndex', 'int32', '0+'),
            field('errorCode', 'int16', '0+'),
            field('errorMessage', 'string', '0+', { nullable: '0+' }),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
});

export type AlterPartitionReassignmentsRequestInput = RequestInput<typeof AlterPartitionReassignments>;
export type AlterPartitionReassignmentsRequest = RequestOf<typeof AlterPartitionReassignments>;
export type AlterPartitionReassignmentsResponse = ResponseOf<typeof AlterPartitionReassignments>;
