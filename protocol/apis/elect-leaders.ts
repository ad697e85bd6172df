import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * ElectLeaders (key 43): moves leadership to the preferred replica, or (v1+,
 * unclean) to any live replica. Same versions on Kafka 3.9 and 4.x.
 */
export const ElectLeaders = defineApi({
  name: 'ElectLeaders',
  key: 43,
  versions: '0-2',
  flexible: '2+',
  request: [
    // 0 preferred, 1 unclean; v0 always elects the preferred replica.
    field('electionType', 'int8', '1+'),
    // Null for every partition of the cluster.
    field(
      'topicPartitions',
      structs('TopicPartitions', [field('topic', 'string', '0+'), field('partitions', array('int32'), '0+')]),
      '0+',
      { nullable: '0+' },
    ),
    field('timeoutMs', 'int32', '0+', { default: 60000 }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field('errorCode', 'int16', '1+', { ignorable: false }),
    field(
      'replicaElectionResults',
      structs('ReplicaElectionResult', [
        field('topic', 'string', '0+'),
        field(
          'partitionResult',
          structs('PartitionResult', [
            field('partitionId', 'int32', '0+'),
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

export type ElectLeadersRequestInput = RequestInput<typeof ElectLeaders>;
export type ElectLeadersRequest = RequestOf<typeof ElectLeaders>;
export type ElectLeadersResponse = ResponseOf<typeof ElectLeaders>;
