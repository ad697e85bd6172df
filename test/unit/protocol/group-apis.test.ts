/**
 * Offset and coordinator APIs of groups (OffsetCommit, OffsetFetch, FindCoordinator) and the version ranges of
 * every group API. Membership APIs: group-membership-apis.test.ts; listing, deleting, KIP-848 and the embedded
 * consumer protocol: group-admin-apis.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Reader } from '../../../codecs/reader.js';
import { ConsumerGroupHeartbeat } from '../../../protocol/apis/consumer-group-heartbeat.js';
import { DeleteGroups } from '../../../protocol/apis/delete-groups.js';
import { DescribeGroups } from '../../../protocol/apis/describe-groups.js';
import {
  FindCoordinator,
  type FindCoordinatorRequest,
  type FindCoordinatorResponse,
} from '../../../protocol/apis/find-coordinator.js';
import { Heartbeat } from '../../../protocol/apis/heartbeat.js';
import { JoinGroup } from '../../../protocol/apis/join-group.js';
import { LeaveGroup } from '../../../protocol/apis/leave-group.js';
import { ListGroups } from '../../../protocol/apis/list-groups.js';
import {
  OffsetCommit,
  type OffsetCommitRequest,
  type OffsetCommitResponse,
} from '../../../protocol/apis/offset-commit.js';
import { OffsetDelete } from '../../../protocol/apis/offset-delete.js';
import { OffsetFetch, type OffsetFetchRequest, type OffsetFetchResponse } from '../../../protocol/apis/offset-fetch.js';
import { SyncGroup } from '../../../protocol/apis/sync-group.js';
import { requestCodec, responseCodec } from '../../../protocol/codec.js';
import { inRange } from '../../../protocol/versions.js';
import { decodeError, encode, hex, roundTrip, TOPIC_ID, versionsIn as versionsOf, when, ZERO_ID } from './helpers.js';

describe('version ranges', () => {
  it('cover the union of what Kafka 3.9 and 4.x accept', () => {
    const apis = [
      OffsetCommit,
      OffsetFetch,
      FindCoordinator,
      JoinGroup,
      Heartbeat,
      LeaveGroup,
      SyncGroup,
      DescribeGroups,
      ListGroups,
      DeleteGroups,
      OffsetDelete,
      ConsumerGroupHeartbeat,
    ];
    expect(apis.map((a) => [a.key, a.request.validVersions, a.request.flexibleVersions])).toEqual([
      [8, '0-10', '8+'],
      [9, '0-10', '6+'],
      [10, '0-6', '3+'],
      [11, '0-9', '6+'],
      [12, '0-4', '4+'],
      [13, '0-5', '4+'],
      [14, '0-5', '4+'],
      [15, '0-6', '5+'],
      [16, '0-5', '3+'],
      [42, '0-3', '2+'],
      [47, '0', 'none'],
      [68, '0-1', '0+'],
    ]);
    for (const a of apis) expect(a.response.validVersions).toBe(a.request.validVersions);
  });
});

// ------------------------------------------------------------- OffsetCommit

function offsetCommitRequest(v: number): OffsetCommitRequest {
  const byId = inRange('10+', v);
  return {
    groupId: 'checkout',
    generationIdOrMemberEpoch: when(v, '1+', 7, -1),
    memberId: when(v, '1+', 'consumer-1-5b0c', ''),
    groupInstanceId: when(v, '7+', 'pod-3', null),
    retentionTimeMs: when(v, '2-4', 86400000n, -1n),
    topics: [
      {
        name: byId ? '' : 'orders',
        topicId: byId ? TOPIC_ID : ZERO_ID,
        partitions: [
          {
            partitionIndex: 0,
            committedOffset: 81235n,
            committedLeaderEpoch: when(v, '6+', 11, -1),
            commitTimestamp: when(v, '1', 1718000000000n, -1n),
            committedMetadata: null,
          },
          {
            partitionIndex: 1,
            committedOffset: 0n,
            committedLeaderEpoch: -1,
            commitTimestamp: -1n,
            committedMetadata: 'host-7',
          },
        ],
      },
    ],
  };
}

function offsetCommitResponse(v: number): OffsetCommitResponse {
  const byId = inRange('10+', v);
  return {
    throttleTimeMs: when(v, '3+', 10, 0),
    topics: [
      {
        name: byId ? '' : 'orders',
        topicId: byId ? TOPIC_ID : ZERO_ID,
        partitions: [
          { partitionIndex: 0, errorCode: 0 },
          { partitionIndex: 1, errorCode: 22 }, // ILLEGAL_GENERATION
        ],
      },
    ],
  };
}

describe('OffsetCommit', () => {
  it.each(versionsOf('0-10'))('round-trips a request and a response at v%i', (v) => {
    roundTrip(OffsetCommit, v, offsetCommitRequest, offsetCommitResponse);
  });

  it('writes the v2 request with the retention time before the topics', () => {
    const bytes = encode(requestCodec(OffsetCommit, 2), {
      groupId: 'g',
      generationIdOrMemberEpoch: 1,
      memberId: 'm',
      topics: [{ name: 't', partitions: [{ partitionIndex: 0, committedOffset: 10n, committedMetadata: '' }] }],
    });
    expect(bytes.toString('hex')).toBe(
      hex('0001 67 00000001 0001 6d ffffffffffffffff 00000001 0001 74 00000001 00000000 000000000000000a 0000'),
    );
  });

  it('drops the generation in v0 (ignorable in Kafka) but refuses an instance id before v7', () => {
    // v0 commits are for groups without generations; a caller with a live generation must not pick v0.
    const bytes = encode(requestCodec(OffsetCommit, 0), { groupId: 'g', generationIdOrMemberEpoch: 3, topics: [] });
    expect(bytes.toString('hex')).toBe('00016700000000');
    expect(() => encode(requestCodec(OffsetCommit, 6), { groupId: 'g', groupInstanceId: 'pod', topics: [] })).toThrow(
      /groupInstanceId is not supported in version 6/,
    );
  });
});

// -------------------------------------------------------------- OffsetFetch

function offsetFetchRequest(v: number): OffsetFetchRequest {
  const batched = inRange('8+', v);
  const byId = inRange('10+', v);
  return {
    groupId: batched ? '' : 'checkout',
    topics: batched ? [] : [{ name: 'orders', partitionIndexes: [0, 1] }],
    groups: batched
      ? [
          {
            groupId: 'checkout',
            memberId: when(v, '9+', 'consumer-1-5b0c', null),
            memberEpoch: when(v, '9+', 12, -1),
            topics: [{ name: byId ? '' : 'orders', topicId: byId ? TOPIC_ID : ZERO_ID, partitionIndexes: [0, 1] }],
          },
          // All partitions the group has committed.
          { groupId: 'audit', memberId: null, memberEpoch: -1, topics: null },
        ]
      : [],
    requireStable: when(v, '7+', true, false),
  };
}

function offsetFetchResponse(v: number): OffsetFetchResponse {
  const batched = inRange('8+', v);
  const byId = inRange('10+', v);
  const committed = {
    partitionIndex: 0,
    committedOffset: 81235n,
    committedLeaderEpoch: when(v, '5+', 11, -1),
    metadata: '',
    errorCode: 0,
  };
  const none = { partitionIndex: 1, committedOffset: -1n, committedLeaderEpoch: -1, metadata: null, errorCode: 0 };
  return {
    throttleTimeMs: when(v, '3+', 5, 0),
    topics: batched ? [] : [{ name: 'orders', partitions: [committed, none] }],
    errorCode: 0,
    groups: batched
      ? [
          {
            groupId: 'checkout',
            topics: [{ name: byId ? '' : 'orders', topicId: byId ? TOPIC_ID : ZERO_ID, partitions: [committed, none] }],
            errorCode: 0,
          },
          { groupId: 'audit', topics: [], errorCode: 16 }, // NOT_COORDINATOR
        ]
      : [],
  };
}

describe('OffsetFetch', () => {
  it.each(versionsOf('0-10'))('round-trips a request and a response at v%i', (v) => {
    roundTrip(OffsetFetch, v, offsetFetchRequest, offsetFetchResponse);
  });

  it('asks for all committed partitions with a null topic list from v2, not before', () => {
    expect(encode(requestCodec(OffsetFetch, 2), { groupId: 'g', topics: null }).toString('hex')).toBe('000167ffffffff');
    expect(() => encode(requestCodec(OffsetFetch, 1), { groupId: 'g', topics: null })).toThrow(
      /topics may not be null in version 1/,
    );
  });

  it('writes the v8 request as a batch of groups', () => {
    const bytes = encode(requestCodec(OffsetFetch, 8), {
      groups: [{ groupId: 'g', topics: [{ name: 't', partitionIndexes: [0] }] }],
      requireStable: true,
    });
    // groups | id | topics | name | partitions | topic tags | group tags | requireStable | tags
    expect(bytes.toString('hex')).toBe(hex('02 0267 02 0274 02 00000000 00 00 01 00'));
  });

  it('reports a truncated v8 response as a ProtocolError naming the nested field', () => {
    const codec = responseCodec(OffsetFetch, 8);
    const bytes = encode(codec, offsetFetchResponse(8));
    // throttle (4) | groups (1) | "checkout" (9) | topics (1) | "orders" (7): cut inside the topic name.
    const err = decodeError(() => codec.decode(new Reader(bytes.subarray(0, 20))));
    expect([err.api, err.version, err.field]).toEqual(['OffsetFetchResponse', 8, 'groups.topics.name']);
  });
});

// ---------------------------------------------------------- FindCoordinator

function findCoordinatorRequest(v: number): FindCoordinatorRequest {
  return {
    key: when(v, '0-3', 'payments-tx', ''),
    keyType: when(v, '1+', 1, 0),
    coordinatorKeys: when(v, '4+', ['payments-tx', 'refunds-tx'], []),
  };
}

function findCoordinatorResponse(v: number): FindCoordinatorResponse {
  const batched = inRange('4+', v);
  return {
    throttleTimeMs: when(v, '1+', 0, 0),
    errorCode: 0,
    errorMessage: when(v, '1-3', null, ''),
    nodeId: batched ? 0 : 2,
    host: batched ? '' : 'kafka-2.internal',
    port: batched ? 0 : 9093,
    coordinators: batched
      ? [
          { key: 'payments-tx', nodeId: 2, host: 'kafka-2.internal', port: 9093, errorCode: 0, errorMessage: null },
          {
            key: 'refunds-tx',
            nodeId: -1,
            host: '',
            port: -1,
            errorCode: 15, // COORDINATOR_NOT_AVAILABLE
            errorMessage: 'The coordinator is not available.',
          },
        ]
      : [],
  };
}

describe('FindCoordinator', () => {
  it.each(versionsOf('0-6'))('round-trips a request and a response at v%i', (v) => {
    roundTrip(FindCoordinator, v, findCoordinatorRequest, findCoordinatorResponse);
  });

  it('writes the v4 request with a batch of keys', () => {
    const bytes = encode(requestCodec(FindCoordinator, 4), { keyType: 1, coordinatorKeys: ['tx'] });
    expect(bytes.toString('hex')).toBe(hex('01 02 037478 00'));
  });

  it('refuses a transaction coordinator lookup in v0, which would find a group coordinator', () => {
    expect(() => encode(requestCodec(FindCoordinator, 0), { key: 'tx', keyType: 1 })).toThrow(
      /keyType is not supported in version 0/,
    );
  });
});
