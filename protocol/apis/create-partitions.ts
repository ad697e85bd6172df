import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * CreatePartitions (key 37): raises a topic's partition count, optionally
 * placing each new partition's replicas. Same versions on Kafka 3.9 and 4.x.
 */
export const CreatePartitions = defineApi({
  name: 'CreatePartitions',
  key: 37,
  versions: '0-3',
  flexible: '2+',
  request: [
    field(
      'topics',
      structs('CreatePartitionsTopic', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        // The new total count, not the number added.
        field('count', 'int32', '0+', {
          doc: 'Total partition count the topic should have afterwards (not the number to add).',
        }),
        // One entry per new partition; null lets the controller place them.
        field(
          'assignments',
          structs('CreatePartitionsAssignment', [
            field('brokerIds', array('int32'), '0+', {
              doc: "Broker ids holding the new partition's replicas, preferred leader first.",
            }),
          ]),
          '0+',
          {
            doc: 'Replica broker ids for each new partition, or null to let the controller place them.',
            nullable: '0+',
          },
        ),
      ]),
      '0+',
      { doc: 'Topics to add partitions to.' },
    ),
    field('timeoutMs', 'int32', '0+', { doc: 'How long (ms) the broker waits for the partitions to be created.' }),
    field('validateOnly', 'bool', '0+', { doc: 'True to check the request without creating anything.' }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field(
      'results',
      structs('CreatePartitionsTopicResult', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        field('errorCode', 'int16', '0+', { doc: 'Error for this topic; 0 if the partitions were created.' }),
        field('errorMessage', 'string', '0+', {
          doc: "Broker's explanation of the error, or null.",
          nullable: '0+',
          default: null,
        }),
      ]),
      '0+',
      { doc: 'Result for each topic of the request.' },
    ),
  ],
});

export type CreatePartitionsRequestInput = RequestInput<typeof CreatePartitions>;
export type CreatePartitionsRequest = RequestOf<typeof CreatePartitions>;
export type CreatePartitionsResponse = ResponseOf<typeof CreatePartitions>;
