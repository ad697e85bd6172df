import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * DescribeLogDirs (key 35): a broker's log directories and the size of each
 * partition replica in them. v0 exists only on Kafka 3.9, v5 (cordoned
 * directories) only on 4.x.
 */
export const DescribeLogDirs = defineApi({
  name: 'DescribeLogDirs',
  key: 35,
  versions: '0-5',
  flexible: '2+',
  request: [
    // Null for every partition on the broker.
    field(
      'topics',
      structs('DescribableLogDirTopic', [
        field('topic', 'string', '0+', { doc: 'Topic name.' }),
        field('partitions', array('int32'), '0+', { doc: 'Partition indexes of the topic.' }),
      ]),
      '0+',
      { doc: 'Partitions to describe, by topic; null for every partition.', nullable: '0+' },
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field('errorCode', 'int16', '3+', { doc: 'v3+: error for the whole request; 0 for none.', ignorable: true }),
    field(
      'results',
      structs('DescribeLogDirsResult', [
        field('errorCode', 'int16', '0+', {
          doc: 'Error for this directory; 0 for none (KAFKA_STORAGE_ERROR if it is offline).',
        }),
        field('logDir', 'string', '0+', { doc: 'Absolute path of the log directory.' }),
        field(
          'topics',
          structs('DescribeLogDirsTopic', [
            field('name', 'string', '0+', { doc: 'Topic name.' }),
            field(
              'partitions',
              structs('DescribeLogDirsPartition', [
                field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
                field('partitionSize', 'int64', '0+', { doc: "Bytes the replica's log segments take on disk." }),
                field('offsetLag', 'int64', '0+', {
                  doc: "How far this log's end trails the high watermark (for a future replica: the current replica's end); 0 if caught up.",
                }),
                field('isFutureKey', 'bool', '0+', {
                  doc: 'Whether this is a future replica being moved into the directory.',
                }),
              ]),
              '0+',
              { doc: "Replicas of the topic's partitions in this directory." },
            ),
          ]),
          '0+',
          { doc: 'Replicas in this directory, by topic.' },
        ),
        field('totalBytes', 'int64', '4+', {
          doc: "v4+: size of the directory's volume in bytes; -1 if unknown.",
          ignorable: true,
          default: -1,
        }),
        field('usableBytes', 'int64', '4+', {
          doc: "v4+: free bytes on the directory's volume; -1 if unknown.",
          ignorable: true,
          default: -1,
        }),
        field('isCordoned', 'bool', '5+', {
          doc: 'v5+: whether the directory is cordoned (no new replicas are placed in it).',
          ignorable: true,
          default: false,
        }),
      ]),
      '0+',
      { doc: 'One result per log directory of the broker.' },
    ),
  ],
});

export type DescribeLogDirsRequestInput = RequestInput<typeof DescribeLogDirs>;
export type DescribeLogDirsRequest = RequestOf<typeof DescribeLogDirs>;
export type DescribeLogDirsResponse = ResponseOf<typeof DescribeLogDirs>;
