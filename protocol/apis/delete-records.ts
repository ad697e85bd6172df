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
        field('name', 'string', '0+'),
        field(
          'partitions',
          structs('DeleteRecordsPartition', [
            field('partitionIndex', 'int32', '0+'),
            // The new log start offset; -1 means the high watermark.
            field('offset', 'int64', '0+'),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
    field('timeoutMs', 'int32', '0+'),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field(
      'topics',
      structs('DeleteRecordsTopicResult', [
        field('name', 'string', '0+'),
        field(
          'partitions',
          structs('DeleteRecordsPartitionResult', [
            field('partitionIndex', 'int32', '0+'),
            field('lowWatermark', 'int64', '0+'),
            field('errorCode', 'int16', '0+'),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
});

export type DeleteRecordsRequest = RequestOf<typeof DeleteRecords>;
export type DeleteRecordsRequestInput = RequestInput<typeof DeleteRecords>;
export type DeleteRecordsResponse = ResponseOf<typeof DeleteRecords>;
