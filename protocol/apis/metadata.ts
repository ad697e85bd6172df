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
        field('topicId', 'uuid', '10+', { ignorable: true }),
        field('name', 'string', '0+', { nullable: '10+' }),
      ]),
      '0+',
      { nullable: '1+' },
    ),
    // Not ignorable: a broker that cannot be told "don't create" must not be
    // asked silently, or a lookup would create topics behind the user's back.
    field('allowAutoTopicCreation', 'bool', '4+', { default: true, ignorable: false }),
    // Dropped after v10; DescribeCluster reports the cluster's ACL operations.
    field('includeClusterAuthorizedOperations', 'bool', '8-10'),
    field('includeTopicAuthorizedOperations', 'bool', '8+'),
  ],
  response: [
    field('throttleTimeMs', 'int32', '3+', { ignorable: true }),
    field(
      'brokers',
      structs('MetadataResponseBroker', [
        field('nodeId', 'int32', '0+'),
        field('host', 'string', '0+'),
        field('port', 'int32', '0+'),
        field('rack', 'string', '1+', { nullable: '1+', ignorable: true, default: null }),
      ]),
      '0+',
    ),
    field('clusterId', 'string', '2+', { nullable: '2+', ignorable: true, default: null }),
    field('controllerId', 'int32', '1+', { default: -1, ignorable: true }),
    field(
      'topics',
      structs('MetadataResponseTopic', [
        field('errorCode', 'int16', '0+'),
        // Null from v12 on, when a topic asked for by id does not exist.
        field('name', 'string', '0+', { nullable: '12+' }),
        field('topicId', 'uuid', '10+', { ignorable: true }),
        field('isInternal', 'bool', '1+', { default: false, ignorable: true }),
        field(
          'partitions',
          structs('MetadataResponsePartition', [
            field('errorCode', 'int16', '0+'),
            field('partitionIndex', 'int32', '0+'),
            field('leaderId', 'int32', '0+'),
            field('leaderEpoch', 'int32', '7+', { default: -1, ignorable: true }),
            field('replicaNodes', array('int32'), '0+'),
            field('isrNodes', array('int32'), '0+'),
            field('offlineReplicas', array('int32'), '5+', { ignorable: true }),
          ]),
          '0+',
        ),
        // INT32_MIN means "not requested"; otherwise a bit set of ACL operations.
        field('topicAuthorizedOperations', 'int32', '8+', { default: -2147483648 }),
      ]),
      '0+',
    ),
    field('clusterAuthorizedOperations', 'int32', '8-10', { default: -2147483648 }),
    field('errorCode', 'int16', '13+', { ignorable: true }),
  ],
});

export type MetadataRequest = RequestOf<typeof Metadata>;
export type MetadataRequestInput = RequestInput<typeof Metadata>;
export type MetadataResponse = ResponseOf<typeof Metadata>;
export type MetadataResponseTopic = MetadataResponse['topics'][number];
export type MetadataResponsePartition = MetadataResponseTopic['partitions'][number];
export type MetadataResponseBroker = MetadataResponse['brokers'][number];
