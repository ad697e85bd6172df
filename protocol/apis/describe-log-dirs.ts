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
      structs('DescribableLogDirTopic', [field('topic', 'string', '0+'), field('partitions', array('int32'), '0+')]),
      '0+',
      { nullable: '0+' },
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field('errorCode', 'int16', '3+', { ignorable: true }),
    field(
      'results',
      structs('DescribeLogDirsResult', [
        field('errorCode', 'int16', '0+'),
        field('logDir', 'string', '0+'),
        field(
          'topics',
          structs('DescribeLogDirsTopic', [
            field('name', 'string', '0+'),
            field(
              'partitions',
              structs('DescribeLogDirsPartition', [
                field('partitionIndex', 'int32', '0+'),
                field('partitionSize', 'int64', '0+'),
                field('offsetLag', 'int64', '0+'),
                field('isFutureKey', 'bool', '0+'),
              ]),
              '0+',
            ),
          ]),
          '0+',
        ),
        field('totalBytes', 'int64', '4+', { ignorable: true, default: -1 }),
        field('usableBytes', 'int64', '4+', { ignorable: true, default: -1 }),
        field('isCordoned', 'bool', '5+', { ignorable: true, default: false }),
      ]),
      '0+',
    ),
  ],
});

export type DescribeLogDirsRequestInput = RequestInput<typeof DescribeLogDirs>;
export type DescribeLogDirsRequest = RequestOf<typeof DescribeLogDirs>;
export type DescribeLogDirsResponse = ResponseOf<typeof DescribeLogDirs>;
