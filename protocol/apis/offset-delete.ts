import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * OffsetDelete (key 47): delete a group's committed offsets for some
 * partitions (KIP-496). One version, never flexible, on Kafka 3.9 and 4.x.
 */
export const OffsetDelete = defineApi({
  name: 'OffsetDelete',
  key: 47,
  versions: '0',
  flexible: 'none',
  request: [
    field('groupId', 'string', '0+'),
    field(
      'topics',
      structs('OffsetDeleteRequestTopic', [
        field('name', 'string', '0+'),
        field('partitions', structs('OffsetDeleteRequestPartition', [field('partitionIndex', 'int32', '0+')]), '0+'),
      ]),
      '0+',
    ),
  ],
  response: [
    field('errorCode', 'int16', '0+'),
    field('throttleTimeMs', 'int32', '0+', { ignorable: true }),
    field(
      'topics',
      structs('OffsetDeleteResponseTopic', [
        field('name', 'string', '0+'),
        field(
          'partitions',
          structs('OffsetDeleteResponsePartition', [
            field('partitionIndex', 'int32', '0+'),
            field('errorCode', 'int16', '0+'),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
});

export type OffsetDeleteRequest = RequestOf<typeof OffsetDelete>;
export type OffsetDeleteRequestInput = RequestInput<typeof OffsetDelete>;
export type OffsetDeleteResponse = ResponseOf<typeof OffsetDelete>;
