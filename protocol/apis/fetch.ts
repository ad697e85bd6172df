import {
  array,
  defineApi,
  field,
  type RequestInput,
  type RequestOf,
  type ResponseOf,
  struct,
  structs,
} from '../schema.js';

/**
 * Fetch (key 1): read records from partition logs, the consumer's hot path.
 *
 * v0-3 exist only on Kafka 3.9 (4.0 dropped them); v18 only on 4.x.
 * v7 adds incremental fetch sessions (KIP-227), v12 is the first flexible
 * version (tagged fields for leader changes and log divergence), and v13
 * switches from topic names to topic ids (KIP-516): `topic` is sent up to
 * v12, `topicId` from v13 on. Both are ignorable so a caller that knows
 * both may fill in both; the negotiated version decides which goes out.
 */
export const Fetch = defineApi({
  name: 'Fetch',
  key: 1,
  versions: '0-18',
  flexible: '12+',
  request: [
    // Only sent between KRaft controllers; consumers leave it null.
    field('clusterId', 'string', '12+', {
      nullable: '12+',
      tag: 0,
      taggedVersions: '12+',
      default: null,
      ignorable: true,
    }),
    // -1 for a consumer. From v15 a follower identifies itself in replicaState instead.
    field('replicaId', 'int32', '0-14', { default: -1 }),
    field(
      'replicaState',
      struct('ReplicaState', [
        field('replicaId', 'int32', '15+', { default: -1 }),
        field('replicaEpoch', 'int64', '15+', { default: -1n }),
      ]),
      '15+',
      { tag: 1, taggedVersions: '15+' },
    ),
    field('maxWaitMs', 'int32', '0+'),
    field('minBytes', 'int32', '0+'),
    field('maxBytes', 'int32', '3+', { default: 0x7fffffff, ignorable: true }),
    // 0 = read uncommitted, 1 = read committed.
    field('isolationLevel', 'int8', '4+', { default: 0, ignorable: true }),
    // Session 0 with epoch -1 is a full fetch that opens no session.
    field('sessionId', 'int32', '7+', { default: 0, ignorable: true }),
    field('sessionEpoch', 'int32', '7+', { default: -1, ignorable: true }),
    field(
      'topics',
      structs('FetchTopic', [
        field('topic', 'string', '0-12', { ignorable: true }),
        field('topicId', 'uuid', '13+', { ignorable: true }),
        field(
          'partitions',
          structs('FetchPartition', [
            field('partition', 'int32', '0+'),
            // Lets the leader fence a consumer that is behind on leader changes.
            field('currentLeaderEpoch', 'int32', '9+', { default: -1, ignorable: true }),
            field('fetchOffset', 'int64', '0+'),
            // Not ignorable: without it the broker cannot detect a diverged log.
            field('lastFetchedEpoch', 'int32', '12+', { default: -1, ignorable: false }),
            // Followers only.
            field('logStartOffset', 'int64', '5+', { default: -1n, ignorable: true }),
            field('partitionMaxBytes', 'int32', '0+'),
            // Replication-only tagged fields; consumers leave them at their defaults.
            field('replicaDirectoryId', 'uuid', '17+', { tag: 0, taggedVersions: '17+', ignorable: true }),
            field('highWatermark', 'int64', '18+', {
              tag: 1,
              taggedVersions: '18+',
              default: 9223372036854775807n,
              ignorable: true,
            }),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
    // Partitions to drop from an incremental fetch session.
    field(
      'forgottenTopicsData',
      structs('ForgottenTopic', [
        field('topic', 'string', '7-12', { ignorable: true }),
        field('topicId', 'uuid', '13+', { ignorable: true }),
        field('partitions', array('int32'), '7+'),
      ]),
      '7+',
      { ignorable: false },
    ),
    // Lets the broker pick a nearby follower (KIP-392).
    field('rackId', 'string', '11+', { default: '', ignorable: true }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '1+', { ignorable: true }),
    // Session-level error; per-partition errors are in the partitions.
    field('errorCode', 'int16', '7+', { ignorable: true }),
    field('sessionId', 'int32', '7+', { default: 0, ignorable: false }),
    field(
      'responses',
      structs('FetchableTopicResponse', [
        field('topic', 'string', '0-12', { ignorable: true }),
        field('topicId', 'uuid', '13+', { ignorable: true }),
        field(
          'partitions',
          structs('PartitionData', [
            field('partitionIndex', 'int32', '0+'),
            field('errorCode', 'int16', '0+'),
            field('highWatermark', 'int64', '0+'),
            field('lastStableOffset', 'int64', '4+', { default: -1n, ignorable: true }),
            field('logStartOffset', 'int64', '5+', { default: -1n, ignorable: true }),
            // Set when the fetcher's log has diverged from the leader's: truncate to here.
            field(
              'divergingEpoch',
              struct('EpochEndOffset', [
                field('epoch', 'int32', '12+', { default: -1 }),
                field('endOffset', 'int64', '12+', { default: -1n }),
              ]),
              '12+',
              { tag: 0, taggedVersions: '12+' },
            ),
            // Sent with leader errors so the client can redirect without a metadata refresh.
            field(
              'currentLeader',
              struct('LeaderIdAndEpoch', [
                field('leaderId', 'int32', '12+', { default: -1 }),
                field('leaderEpoch', 'int32', '12+', { default: -1 }),
              ]),
              '12+',
              { tag: 1, taggedVersions: '12+' },
            ),
            // KRaft only: the fetcher must load this snapshot before fetching on.
            field(
              'snapshotId',
              struct('SnapshotId', [
                field('endOffset', 'int64', '0+', { default: -1n }),
                field('epoch', 'int32', '0+', { default: -1 }),
              ]),
              '12+',
              { tag: 2, taggedVersions: '12+' },
            ),
            // Aborted transactions overlapping the returned records, for read_committed.
            field(
              'abortedTransactions',
              structs('AbortedTransaction', [field('producerId', 'int64', '4+'), field('firstOffset', 'int64', '4+')]),
              '4+',
              { nullable: '4+', ignorable: true },
            ),
            // -1, or the follower the consumer should fetch from instead (KIP-392).
            field('preferredReadReplica', 'int32', '11+', { default: -1, ignorable: false }),
            field('records', 'records', '0+', { nullable: '0+' }),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
    // Addresses of the leaders named in currentLeader.
    field(
      'nodeEndpoints',
      structs('NodeEndpoint', [
        field('nodeId', 'int32', '16+'),
        field('host', 'string', '16+'),
        field('port', 'int32', '16+'),
        field('rack', 'string', '16+', { nullable: '16+', default: null }),
      ]),
      '16+',
      { tag: 0, taggedVersions: '16+' },
    ),
  ],
});

export type FetchRequest = RequestOf<typeof Fetch>;
export type FetchRequestInput = RequestInput<typeof Fetch>;
export type FetchResponse = ResponseOf<typeof Fetch>;
export type FetchTopicResponse = FetchResponse['responses'][number];
export type FetchPartitionResponse = FetchTopicResponse['partitions'][number];
