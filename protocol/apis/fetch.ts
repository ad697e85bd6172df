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
      doc: 'Cluster id a KRaft controller checks a fetch against; consumers leave it null.',
      nullable: '12+',
      tag: 0,
      taggedVersions: '12+',
      default: null,
      ignorable: true,
    }),
    // -1 for a consumer. From v15 a follower identifies itself in replicaState instead.
    field('replicaId', 'int32', '0-14', {
      doc: 'Broker id of a follower replica, or -1 for a consumer (moved into replicaState from v15).',
      default: -1,
    }),
    field(
      'replicaState',
      struct('ReplicaState', [
        field('replicaId', 'int32', '15+', {
          doc: 'Broker id of the fetching follower, or -1 for a consumer.',
          default: -1,
        }),
        field('replicaEpoch', 'int64', '15+', {
          doc: 'Broker epoch of the fetching follower, or -1 for a consumer.',
          default: -1n,
        }),
      ]),
      '15+',
      {
        doc: 'Who is fetching, when a follower replica fetches (v15+); a consumer leaves the defaults.',
        tag: 1,
        taggedVersions: '15+',
      },
    ),
    field('maxWaitMs', 'int32', '0+', {
      doc: 'Longest time the broker may hold the request waiting for minBytes of data.',
    }),
    field('minBytes', 'int32', '0+', {
      doc: 'Least number of record bytes the broker should gather before answering.',
    }),
    field('maxBytes', 'int32', '3+', {
      doc: 'Most record bytes the whole response may carry (at least one batch is always returned).',
      default: 0x7fffffff,
      ignorable: true,
    }),
    // 0 = read uncommitted, 1 = read committed.
    field('isolationLevel', 'int8', '4+', {
      doc: '0 = read_uncommitted; 1 = read_committed (stop at the last stable offset, list aborted transactions).',
      default: 0,
      ignorable: true,
    }),
    // Session 0 with epoch -1 is a full fetch that opens no session.
    field('sessionId', 'int32', '7+', {
      doc: 'Incremental fetch session this request belongs to, or 0 when there is none yet.',
      default: 0,
      ignorable: true,
    }),
    field('sessionEpoch', 'int32', '7+', {
      doc: 'Position in the fetch session: 0 opens a new one, -1 fetches without a session, 1.. continue it.',
      default: -1,
      ignorable: true,
    }),
    field(
      'topics',
      structs('FetchTopic', [
        field('topic', 'string', '0-12', { doc: 'Topic name (up to v12).', ignorable: true }),
        field('topicId', 'uuid', '13+', { doc: 'Topic id (v13 and later, instead of the name).', ignorable: true }),
        field(
          'partitions',
          structs('FetchPartition', [
            field('partition', 'int32', '0+', { doc: 'Partition index.' }),
            // Lets the leader fence a consumer that is behind on leader changes.
            field('currentLeaderEpoch', 'int32', '9+', {
              doc: 'Leader epoch the client believes current, so a stale leader or client is detected; -1 if unknown.',
              default: -1,
              ignorable: true,
            }),
            field('fetchOffset', 'int64', '0+', { doc: 'Offset of the first record wanted: the consumer position.' }),
            // Not ignorable: without it the broker cannot detect a diverged log.
            field('lastFetchedEpoch', 'int32', '12+', {
              doc: 'Epoch of the last record fetched, letting the leader report log divergence; -1 if unknown.',
              default: -1,
              ignorable: false,
            }),
            // Followers only.
            field('logStartOffset', 'int64', '5+', {
              doc: 'Log start offset of a follower replica; -1 for a consumer.',
              default: -1n,
              ignorable: true,
            }),
            field('partitionMaxBytes', 'int32', '0+', {
              doc: 'Most record bytes this partition may contribute to the response.',
            }),
            // Replication-only tagged fields; consumers leave them at their defaults.
            field('replicaDirectoryId', 'uuid', '17+', {
              doc: 'Log directory of a follower replica; consumers leave it unset.',
              tag: 0,
              taggedVersions: '17+',
              ignorable: true,
            }),
            field('highWatermark', 'int64', '18+', {
              doc: 'High watermark a follower replica knows (KIP-1166); consumers leave it unset.',
              tag: 1,
              taggedVersions: '18+',
              default: 9223372036854775807n,
              ignorable: true,
            }),
          ]),
          '0+',
          { doc: 'Partitions of this topic to fetch.' },
        ),
      ]),
      '0+',
      { doc: 'Topics to fetch, each with the partitions wanted from them.' },
    ),
    // Partitions to drop from an incremental fetch session.
    field(
      'forgottenTopicsData',
      structs('ForgottenTopic', [
        field('topic', 'string', '7-12', { doc: 'Topic name (up to v12).', ignorable: true }),
        field('topicId', 'uuid', '13+', { doc: 'Topic id (v13 and later).', ignorable: true }),
        field('partitions', array('int32'), '7+', { doc: 'Partition indexes to forget.' }),
      ]),
      '7+',
      { doc: 'Partitions to drop from the incremental fetch session.', ignorable: false },
    ),
    // Lets the broker pick a nearby follower (KIP-392).
    field('rackId', 'string', '11+', {
      doc: 'Rack of the consumer, so the broker may point it at a replica in the same rack.',
      default: '',
      ignorable: true,
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '1+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    // Session-level error; per-partition errors are in the partitions.
    field('errorCode', 'int16', '7+', {
      doc: 'Error for the whole request (e.g. a fetch session problem); 0 for none.',
      ignorable: true,
    }),
    field('sessionId', 'int32', '7+', {
      doc: 'Fetch session id to use next, or 0 if the broker keeps no session.',
      default: 0,
      ignorable: false,
    }),
    field(
      'responses',
      structs('FetchableTopicResponse', [
        field('topic', 'string', '0-12', { doc: 'Topic name (up to v12).', ignorable: true }),
        field('topicId', 'uuid', '13+', { doc: 'Topic id (v13 and later).', ignorable: true }),
        field(
          'partitions',
          structs('PartitionData', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index within the topic.' }),
            field('errorCode', 'int16', '0+', { doc: 'Error for this partition; 0 for none.' }),
            field('highWatermark', 'int64', '0+', {
              doc: 'Offset after the last fully replicated record: how far a consumer can read.',
            }),
            field('lastStableOffset', 'int64', '4+', {
              doc: 'Offset below which every transaction is decided: where read_committed stops; -1 if unknown.',
              default: -1n,
              ignorable: true,
            }),
            field('logStartOffset', 'int64', '5+', {
              doc: 'Earliest offset still in the log; -1 if unknown.',
              default: -1n,
              ignorable: true,
            }),
            // Set when the fetcher's log has diverged from the leader's: truncate to here.
            field(
              'divergingEpoch',
              struct('EpochEndOffset', [
                field('epoch', 'int32', '12+', {
                  doc: 'Largest epoch the leader has at or before the requested one.',
                  default: -1,
                }),
                field('endOffset', 'int64', '12+', { doc: 'End offset of that epoch on the leader.', default: -1n }),
              ]),
              '12+',
              {
                doc: 'Set when the log diverges from the fetcher at lastFetchedEpoch: where the fetcher must truncate to.',
                tag: 0,
                taggedVersions: '12+',
              },
            ),
            // Sent with leader errors so the client can redirect without a metadata refresh.
            field(
              'currentLeader',
              struct('LeaderIdAndEpoch', [
                field('leaderId', 'int32', '12+', {
                  doc: 'Broker id of the current leader, or -1 if unknown.',
                  default: -1,
                }),
                field('leaderEpoch', 'int32', '12+', {
                  doc: 'Epoch of the current leader, or -1 if unknown.',
                  default: -1,
                }),
              ]),
              '12+',
              {
                doc: 'The new leader, when the fetch went to a broker that is no longer leader (KIP-951).',
                tag: 1,
                taggedVersions: '12+',
              },
            ),
            // KRaft only: the fetcher must load this snapshot before fetching on.
            field(
              'snapshotId',
              struct('SnapshotId', [
                field('endOffset', 'int64', '0+', { doc: 'End offset of the snapshot.', default: -1n }),
                field('epoch', 'int32', '0+', { doc: 'Epoch of the snapshot.', default: -1 }),
              ]),
              '12+',
              {
                doc: 'Snapshot to fetch instead, when the offset is older than the log (KRaft metadata log only).',
                tag: 2,
                taggedVersions: '12+',
              },
            ),
            // Aborted transactions overlapping the returned records, for read_committed.
            field(
              'abortedTransactions',
              structs('AbortedTransaction', [
                field('producerId', 'int64', '4+', { doc: 'Producer id of the aborted transaction.' }),
                field('firstOffset', 'int64', '4+', { doc: 'Offset of the first record of the aborted transaction.' }),
              ]),
              '4+',
              {
                doc: 'Aborted transactions overlapping the returned records (read_committed only); null if none.',
                nullable: '4+',
                ignorable: true,
              },
            ),
            // -1, or the follower the consumer should fetch from instead (KIP-392).
            field('preferredReadReplica', 'int32', '11+', {
              doc: 'Replica the consumer should fetch from instead (rack-aware fetching), or -1.',
              default: -1,
              ignorable: false,
            }),
            field('records', 'records', '0+', {
              doc: 'The record batches, as raw bytes; null or empty if none.',
              nullable: '0+',
            }),
          ]),
          '0+',
          { doc: 'Results for the partitions of this topic.' },
        ),
      ]),
      '0+',
      { doc: 'Results, by topic.' },
    ),
    // Addresses of the leaders named in currentLeader.
    field(
      'nodeEndpoints',
      structs('NodeEndpoint', [
        field('nodeId', 'int32', '16+', { doc: 'Broker id.' }),
        field('host', 'string', '16+', { doc: 'Broker host name.' }),
        field('port', 'int32', '16+', { doc: 'Broker port.' }),
        field('rack', 'string', '16+', { doc: 'Broker rack, or null.', nullable: '16+', default: null }),
      ]),
      '16+',
      {
        doc: 'Addresses of the brokers named in currentLeader, so the client can reach them without a metadata request.',
        tag: 0,
        taggedVersions: '16+',
      },
    ),
  ],
});

export type FetchRequest = RequestOf<typeof Fetch>;
export type FetchRequestInput = RequestInput<typeof Fetch>;
export type FetchResponse = ResponseOf<typeof Fetch>;
export type FetchTopicResponse = FetchResponse['responses'][number];
export type FetchPartitionResponse = FetchTopicResponse['partitions'][number];
