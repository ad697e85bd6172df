import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * Metadata (key 3): the brokers of the cluster, and the partitions, leaders
 * and replicas of the topics asked for.
 *
 * v0-12 are spoken by both Kafka 3.9 and 4.x; v13 (a top-level error code, so
 * a broker can tell the client to rebootstrap) exists only on 4.x.
 *
 * The `topics` array changes meaning at v1: in v0 an empty array asks for
 * every topic, from v1 on an empty array asks for none and `null` asks for
 * every topic. Callers must pick the encoding that matches the version.
 */
export const Metadata = defineApi({
  name: 'Metadata',
  key: 3,
  versions: '0-13',
  flexible: '9+',
  request: [
    field(
      'topics',
      structs('MetadataRequestTopic', [
        // v10 and v11 carry the id but brokers do not look topics up by it
        // before v12; ask by name there.
        field('topicId', 'uuid', '10+', {
          doc: 'Topic id, to describe a topic by id (v10 and later); zero when named.',
          ignorable: true,
        }),
        field('name', 'string', '0+', { doc: 'Topic name, or null when the topic is given by id.', nullable: '10+' }),
      ]),
      '0+',
      { doc: 'Topics to describe; null for every topic, empty for none (brokers and cluster only).', nullable: '1+' },
    ),
    // Not ignorable: a broker that cannot be told "don't create" must not be
    // asked silently, or a lookup would create topics behind the user's back.
    field('allowAutoTopicCreation', 'bool', '4+', {
      doc: 'Let the broker create missing topics (if it is configured to).',
      default: true,
      ignorable: false,
    }),
    // Dropped after v10; DescribeCluster reports the cluster's ACL operations.
    field('includeClusterAuthorizedOperations', 'bool', '8-10', {
      doc: 'Ask for the operations the client may perform on the cluster (v8-v10).',
    }),
    field('includeTopicAuthorizedOperations', 'bool', '8+', {
      doc: 'Ask for the operations the client may perform on each topic.',
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '3+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field(
      'brokers',
      structs('MetadataResponseBroker', [
        field('nodeId', 'int32', '0+', { doc: 'Broker id.' }),
        field('host', 'string', '0+', { doc: 'Broker host name.' }),
        field('port', 'int32', '0+', { doc: 'Broker port.' }),
        field('rack', 'string', '1+', { doc: 'Broker rack, or null.', nullable: '1+', ignorable: true, default: null }),
      ]),
      '0+',
      { doc: 'The brokers of the cluster.' },
    ),
    field('clusterId', 'string', '2+', { doc: 'Cluster id, or null.', nullable: '2+', ignorable: true, default: null }),
    field('controllerId', 'int32', '1+', {
      doc: 'Broker id of the controller, or -1 if unknown.',
      default: -1,
      ignorable: true,
    }),
    field(
      'topics',
      structs('MetadataResponseTopic', [
        field('errorCode', 'int16', '0+', {
          doc: 'Error for this topic (e.g. UNKNOWN_TOPIC_OR_PARTITION); 0 for none.',
        }),
        // Null from v12 on, when a topic asked for by id does not exist.
        field('name', 'string', '0+', { doc: 'Topic name.', nullable: '12+' }),
        field('topicId', 'uuid', '10+', { doc: "v10+: the topic's id; the zero uuid if unknown.", ignorable: true }),
        field('isInternal', 'bool', '1+', {
          doc: 'Whether the topic is internal to Kafka (e.g. __consumer_offsets).',
          default: false,
          ignorable: true,
        }),
        field(
          'partitions',
          structs('MetadataResponsePartition', [
            field('errorCode', 'int16', '0+', {
              doc: 'Error for this partition (e.g. LEADER_NOT_AVAILABLE); 0 for none.',
            }),
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            field('leaderId', 'int32', '0+', { doc: 'Broker id of the leader, or -1 if there is none.' }),
            field('leaderEpoch', 'int32', '7+', {
              doc: 'Epoch of the leader, or -1 if unknown.',
              default: -1,
              ignorable: true,
            }),
            field('replicaNodes', array('int32'), '0+', { doc: 'Broker ids of all replicas.' }),
            field('isrNodes', array('int32'), '0+', { doc: 'Broker ids of the in-sync replicas.' }),
            field('offlineReplicas', array('int32'), '5+', {
              doc: 'Broker ids of replicas that are offline.',
              ignorable: true,
            }),
          ]),
          '0+',
          { doc: 'The partitions of this topic.' },
        ),
        // INT32_MIN means "not requested"; otherwise a bit set of ACL operations.
        field('topicAuthorizedOperations', 'int32', '8+', {
          doc: 'Bit set of the operations the client may perform on the topic; -2^31 if not asked.',
          default: -2147483648,
        }),
      ]),
      '0+',
      { doc: 'The topics asked for.' },
    ),
    field('clusterAuthorizedOperations', 'int32', '8-10', {
      doc: 'Bit set of the operations the client may perform on the cluster; -2^31 if not asked.',
      default: -2147483648,
    }),
    field('errorCode', 'int16', '13+', {
      doc: 'Error for the whole request (v13 and later); 0 for none.',
      ignorable: true,
    }),
  ],
});

export type MetadataRequest = RequestOf<typeof Metadata>;
export type MetadataRequestInput = RequestInput<typeof Metadata>;
export type MetadataResponse = ResponseOf<typeof Metadata>;
export type MetadataResponseTopic = MetadataResponse['topics'][number];
export type MetadataResponsePartition = MetadataResponseTopic['partitions'][number];
export type MetadataResponseBroker = MetadataResponse['brokers'][number];
