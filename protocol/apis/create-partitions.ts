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
        field('name', 'string', '0+'),
        // The new total count, not the number added.
        field('count', 'int32', '0+'),
        // One entry per new partition; null lets the controller place them.
        field('assignments', structs('CreatePartitionsAssignment', [field('brokerIds', array('int32'), '0+')]), '0+', {
          nullable: '0+',
        }),
      ]),
      '0+',
    ),
    field('timeoutMs', 'int32', '0+'),
    field('validateOnly', 'bool', '0+'),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field(
      'results',
      structs('CreatePartitionsTopicResult', [
        field('name', 'string', '0+'),
        field('errorCode', 'int16', '0+'),
        field('errorMessage', 'string', '0+', { nullable: '0+', default: null }),
      ]),
      '0+',
    ),
  ],
});

export type CreatePartitionsRequestInput = RequestInput<typeof CreatePartitions>;
export type CreatePartitionsRequest = RequestOf<typeof CreatePartitions>;
export type CreatePartitionsResponse = ResponseOf<typeof CreatePartitions>;
