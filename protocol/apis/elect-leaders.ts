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
    field('electionType', 'int8', '1+', {
      doc: 'v1+: 0 to elect the preferred replica, 1 for an unclean election (may lose records).',
    }),
    // Null for every partition of the cluster.
    field(
      'topicPartitions',
      structs('TopicPartitions', [
        field('topic', 'string', '0+', { doc: 'Topic name.' }),
        field('partitions', array('int32'), '0+', { doc: 'Partition indexes of the topic.' }),
      ]),
      '0+',
      { doc: 'Partitions to hold an election for, by topic; null for every partition.', nullable: '0+' },
    ),
    field('timeoutMs', 'int32', '0+', {
      doc: 'How long (ms) the broker waits for the elections before answering.',
      default: 60000,
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field('errorCode', 'int16', '1+', { doc: 'v1+: error for the whole request; 0 for none.', ignorable: false }),
    field(
      'replicaElectionResults',
      structs('ReplicaElectionResult', [
        field('topic', 'string', '0+', { doc: 'Topic name.' }),
        field(
          'partitionResult',
          structs('PartitionResult', [
            field('partitionId', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            field('errorCode', 'int16', '0+', {
              doc: 'Error; 0 if elected (ELECTION_NOT_NEEDED if the leader already is the one asked for).',
            }),
            field('errorMessage', 'string', '0+', {
              doc: "Broker's explanation of the error, or null.",
              nullable: '0+',
            }),
          ]),
          '0+',
          { doc: 'Result for each partition of the topic.' },
        ),
      ]),
      '0+',
      { doc: 'Result for each topic of the election.' },
    ),
  ],
});

export type ElectLeadersRequestInput = RequestInput<typeof ElectLeaders>;
export type ElectLeadersRequest = RequestOf<typeof ElectLeaders>;
export type ElectLeadersResponse = ResponseOf<typeof ElectLeaders>;
