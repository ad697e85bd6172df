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
    field('groupId', 'string', '0+', { doc: 'Group whose committed offsets to delete.' }),
    field(
      'topics',
      structs('OffsetDeleteRequestTopic', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        field(
          'partitions',
          structs('OffsetDeleteRequestPartition', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
          ]),
          '0+',
          { doc: 'Partitions of the topic.' },
        ),
      ]),
      '0+',
      { doc: 'Partitions whose committed offsets to delete, by topic.' },
    ),
  ],
  response: [
    field('errorCode', 'int16', '0+', { doc: 'Error for the whole request; 0 for none.' }),
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field(
      'topics',
      structs('OffsetDeleteResponseTopic', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        field(
          'partitions',
          structs('OffsetDeleteResponsePartition', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            field('errorCode', 'int16', '0+', {
              doc: 'Error; 0 if deleted (GROUP_SUBSCRIBED_TO_TOPIC while a member still consumes the topic).',
            }),
          ]),
          '0+',
          { doc: 'Result for each requested partition.' },
        ),
      ]),
      '0+',
      { doc: 'Result for each requested topic.' },
    ),
  ],
});

export type OffsetDeleteRequest = RequestOf<typeof OffsetDelete>;
export type OffsetDeleteRequestInput = RequestInput<typeof OffsetDelete>;
export type OffsetDeleteResponse = ResponseOf<typeof OffsetDelete>;
