import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * DeleteRecords (key 21): move a partition's log start offset forward,
 * discarding the records before it. Same versions on Kafka 3.9 and 4.x.
 */
export const DeleteRecords = defineApi({
  name: 'DeleteRecords',
  key: 21,
  versions: '0-2',
  flexible: '2+',
  request: [
    field(
      'topics',
      structs('DeleteRecordsTopic', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        field(
          'partitions',
          structs('DeleteRecordsPartition', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            // The new log start offset; -1 means the high watermark.
            field('offset', 'int64', '0+', {
              doc: 'Delete every record before this offset (it becomes the log start offset); -1 for the high watermark.',
            }),
          ]),
          '0+',
          { doc: 'Partitions of the topic.' },
        ),
      ]),
      '0+',
      { doc: 'Partitions to truncate from the start, by topic.' },
    ),
    field('timeoutMs', 'int32', '0+', {
      doc: 'How long (ms) the leader waits for the followers to apply the deletion.',
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field(
      'topics',
      structs('DeleteRecordsTopicResult', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        field(
          'partitions',
          structs('DeleteRecordsPartitionResult', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            field('lowWatermark', 'int64', '0+', {
              doc: "The partition's new log start offset: the first offset still readable.",
            }),
            field('errorCode', 'int16', '0+', { doc: 'Error for this partition; 0 if the records are deleted.' }),
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

export type DeleteRecordsRequest = RequestOf<typeof DeleteRecords>;
export type DeleteRecordsRequestInput = RequestInput<typeof DeleteRecords>;
export type DeleteRecordsResponse = ResponseOf<typeof DeleteRecords>;
