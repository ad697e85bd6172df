import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../codecs/errors.js';
import { Reader } from '../../../codecs/reader.js';
import { Writer } from '../../../codecs/writer.js';
import {
  ConsumerGroupHeartbeat,
  type ConsumerGroupHeartbeatRequest,
  type ConsumerGroupHeartbeatResponse,
} from '../../../protocol/apis/consumer-group-heartbeat.js';
import {
  ConsumerProtocolAssignment,
  type ConsumerProtocolAssignmentValue,
  ConsumerProtocolSubscription,
  type ConsumerProtocolSubscriptionValue,
} from '../../../protocol/apis/consumer-protocol.js';
import {
  DeleteGroups,
  type DeleteGroupsRequest,
  type DeleteGroupsResponse,
} from '../../../protocol/apis/delete-groups.js';
import {
  DescribeGroups,
  type DescribeGroupsRequest,
  type DescribeGroupsResponse,
} from '../../../protocol/apis/describe-groups.js';
import {
  FindCoordinator,
  type FindCoordinatorRequest,
  type FindCoordinatorResponse,
} from '../../../protocol/apis/find-coordinator.js';
import { Heartbeat, type HeartbeatRequest, type HeartbeatResponse } from '../../../protocol/apis/heartbeat.js';
import { JoinGroup, type JoinGroupRequest, type JoinGroupResponse } from '../../../protocol/apis/join-group.js';
import { LeaveGroup, type LeaveGroupRequest, type LeaveGroupResponse } from '../../../protocol/apis/leave-group.js';
import { ListGroups, type ListGroupsRequest, type ListGroupsResponse } from '../../../protocol/apis/list-groups.js';
import {
  OffsetCommit,
  type OffsetCommitRequest,
  type OffsetCommitResponse,
} from '../../../protocol/apis/offset-commit.js';
import {
  OffsetDelete,
  type OffsetDeleteRequest,
  type OffsetDeleteResponse,
} from '../../../protocol/apis/offset-delete.js';
import { OffsetFetch, type OffsetFetchRequest, type OffsetFetchResponse } from '../../../protocol/apis/offset-fetch.js';
import { SyncGroup, type SyncGroupRequest, type SyncGroupResponse } from '../../../protocol/apis/sync-group.js';
import { type MessageCodec, messageCodec, requestCodec, responseCodec } from '../../../protocol/codec.js';
import { inRange } from '../../../protocol/versions.js';
import {
  decodeError,
  encode,
  hex,
  ID_HEX,
  roundTrip,
  TOPIC_ID,
  versionsIn as versionsOf,
  when,
  ZERO_ID,
} from './helpers.js';

const NOT_REQUESTED = -2147483648;
const EMPTY = Buffer.alloc(0);

/** An embedded consumer-protocol message as JoinGroup / SyncGroup carry it: int16 version, then the body. */
function embedded<I>(codec: MessageCodec<unknown, I>, value: I): Buffer {
  const w = new Writer();
  w.int16(codec.version);
  codec.encode(w, value);
  return w.toBuffer();
}

const SUBSCRIPTION = embedded(messageCodec(ConsumerProtocolSubscription, 1), {
  topics: ['orders', 'payments'],
  ownedPartitions: [{ topic: 'orders', partitions: [0] }],
});
const ASSIGNMENT = embedded(messageCodec(ConsumerProtocolAssignment, 0), {
  assignedPartitions: [{ topic: 'orders', partitions: [0, 1] }],
});

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

// ---------------------------------------------------------------- JoinGroup

function joinGroupRequest(v: number): JoinGroupRequest {
  return {
    groupId: 'checkout',
    sessionTimeoutMs: 45000,
    rebalanceTimeoutMs: when(v, '1+', 300000, -1),
    memberId: '',
    groupInstanceId: when(v, '5+', 'pod-3', null),
    protocolType: 'consumer',
    protocols: [
      { name: 'cooperative-sticky', metadata: SUBSCRIPTION },
      { name: 'range', metadata: SUBSCRIPTION },
    ],
    reason: when(v, '8+', 'subscription changed', null),
  };
}

function joinGroupResponse(v: number): JoinGroupResponse {
  return {
    throttleTimeMs: when(v, '2+', 0, 0),
    errorCode: 0,
    generationId: 8,
    protocolType: when(v, '7+', 'consumer', null),
    protocolName: 'range',
    leader: 'consumer-1-5b0c',
    skipAssignment: false,
    memberId: 'consumer-1-5b0c',
    members: [
      { memberId: 'consumer-1-5b0c', groupInstanceId: when(v, '5+', 'pod-3', null), metadata: SUBSCRIPTION },
      { memberId: 'consumer-2-77e1', groupInstanceId: null, metadata: EMPTY },
    ],
  };
}

describe('JoinGroup', () => {
  it.each(versionsOf('0-9'))('round-trips a request and a response at v%i', (v) => {
    roundTrip(JoinGroup, v, joinGroupRequest, joinGroupResponse);
  });

  it('reads a null protocol name from v7 (a failed join) but not before', () => {
    const codec = responseCodec(JoinGroup, 7);
    const failed = { errorCode: 79, protocolName: null, leader: '', memberId: 'm', members: [] }; // MEMBER_ID_REQUIRED
    expect(codec.decode(new Reader(encode(codec, failed))).protocolName).toBeNull();
    expect(() => encode(responseCodec(JoinGroup, 6), failed)).toThrow(/protocolName may not be null in version 6/);
  });

  it('reports a truncated response as a ProtocolError naming the member field', () => {
    const codec = responseCodec(JoinGroup, 5);
    const bytes = encode(codec, joinGroupResponse(5));
    const err = decodeError(() => codec.decode(new Reader(bytes.subarray(0, bytes.length - 2))));
    expect(err.field).toBe('members.metadata');
    expect(err.message).toMatch(/JoinGroupResponse v5, field members\.metadata/);
  });
});

// ---------------------------------------------------------------- Heartbeat

function heartbeatRequest(v: number): HeartbeatRequest {
  return {
    groupId: 'checkout',
    generationId: 8,
    memberId: 'consumer-1-5b0c',
    groupInstanceId: when(v, '3+', 'pod-3', null),
  };
}

function heartbeatResponse(v: number): HeartbeatResponse {
  return { throttleTimeMs: when(v, '1+', 0, 0), errorCode: 27 }; // REBALANCE_IN_PROGRESS
}

describe('Heartbeat', () => {
  it.each(versionsOf('0-4'))('round-trips a request and a response at v%i', (v) => {
    roundTrip(Heartbeat, v, heartbeatRequest, heartbeatResponse);
  });

  it('writes the v0 request: int16-length group id, int32 generation, member id', () => {
    const bytes = encode(requestCodec(Heartbeat, 0), { groupId: 'g', generationId: 5, memberId: 'm' });
    expect(bytes.toString('hex')).toBe(hex('0001 67 00000005 0001 6d'));
  });

  it('writes the v4 request compactly, with a null instance id and an empty tag section', () => {
    const bytes = encode(requestCodec(Heartbeat, 4), { groupId: 'g', generationId: 5, memberId: 'm' });
    expect(bytes.toString('hex')).toBe(hex('0267 00000005 026d 00 00'));
  });

  it('reads the v0 response: just an error code', () => {
    const back = responseCodec(Heartbeat, 0).decode(new Reader(Buffer.from('001b', 'hex')));
    expect(back).toEqual({ throttleTimeMs: 0, errorCode: 27 });
  });

  it('reports truncated bytes as a ProtocolError naming the field', () => {
    const bytes = Buffer.from(hex('0001 67 00000005 0001'), 'hex');
    const err = decodeError(() => requestCodec(Heartbeat, 0).decode(new Reader(bytes)));
    expect([err.api, err.version, err.field]).toEqual(['HeartbeatRequest', 0, 'memberId']);
  });
});

// --------------------------------------------------------------- LeaveGroup

function leaveGroupRequest(v: number): LeaveGroupRequest {
  return {
    groupId: 'checkout',
    memberId: when(v, '0-2', 'consumer-1-5b0c', ''),
    members: when(
      v,
      '3+',
      [
        { memberId: 'consumer-1-5b0c', groupInstanceId: null, reason: when(v, '5+', 'shutting down', null) },
        { memberId: '', groupInstanceId: 'pod-3', reason: null },
      ],
      [],
    ),
  };
}

function leaveGroupResponse(v: number): LeaveGroupResponse {
  return {
    throttleTimeMs: when(v, '1+', 0, 0),
    errorCode: 0,
    members: when(
      v,
      '3+',
      [
        { memberId: 'consumer-1-5b0c', groupInstanceId: null, errorCode: 0 },
        { memberId: '', groupInstanceId: 'pod-3', errorCode: 25 }, // UNKNOWN_MEMBER_ID
      ],
      [],
    ),
  };
}

describe('LeaveGroup', () => {
  it.each(versionsOf('0-5'))('round-trips a request and a response at v%i', (v) => {
    roundTrip(LeaveGroup, v, leaveGroupRequest, leaveGroupResponse);
  });

  it('writes the v3 request with a batch of members', () => {
    const bytes = encode(requestCodec(LeaveGroup, 3), { groupId: 'g', members: [{ memberId: 'm' }] });
    expect(bytes.toString('hex')).toBe(hex('0001 67 00000001 0001 6d ffff'));
  });
});

// ---------------------------------------------------------------- SyncGroup

function syncGroupRequest(v: number): SyncGroupRequest {
  return {
    groupId: 'checkout',
    generationId: 8,
    memberId: 'consumer-1-5b0c',
    groupInstanceId: when(v, '3+', 'pod-3', null),
    protocolType: when(v, '5+', 'consumer', null),
    protocolName: when(v, '5+', 'range', null),
    assignments: [
      { memberId: 'consumer-1-5b0c', assignment: ASSIGNMENT },
      { memberId: 'consumer-2-77e1', assignment: EMPTY },
    ],
  };
}

function syncGroupResponse(v: number): SyncGroupResponse {
  return {
    throttleTimeMs: when(v, '1+', 0, 0),
    errorCode: 0,
    protocolType: when(v, '5+', 'consumer', null),
    protocolName: when(v, '5+', 'range', null),
    assignment: ASSIGNMENT,
  };
}

describe('SyncGroup', () => {
  it.each(versionsOf('0-5'))('round-trips a request and a response at v%i', (v) => {
    roundTrip(SyncGroup, v, syncGroupRequest, syncGroupResponse);
  });
});

// ----------------------------------------------------------- DescribeGroups

function describeGroupsRequest(v: number): DescribeGroupsRequest {
  return { groups: ['checkout', 'audit'], includeAuthorizedOperations: when(v, '3+', true, false) };
}

function describeGroupsResponse(v: number): DescribeGroupsResponse {
  return {
    throttleTimeMs: when(v, '1+', 0, 0),
    groups: [
      {
        errorCode: 0,
        errorMessage: null,
        groupId: 'checkout',
        groupState: 'Stable',
        protocolType: 'consumer',
        protocolData: 'range',
        members: [
          {
            memberId: 'consumer-1-5b0c',
            groupInstanceId: when(v, '4+', 'pod-3', null),
            clientId: 'tidemark',
            clientHost: '/10.0.0.7',
            memberMetadata: SUBSCRIPTION,
            memberAssignment: ASSIGNMENT,
          },
        ],
        authorizedOperations: when(v, '3+', 0b1111101000, NOT_REQUESTED),
      },
      {
        errorCode: 69, // GROUP_ID_NOT_FOUND
        errorMessage: when(v, '6+', 'Group audit not found.', null),
        groupId: 'audit',
        groupState: 'Dead',
        protocolType: '',
        protocolData: '',
        members: [],
        authorizedOperations: NOT_REQUESTED,
      },
    ],
  };
}

describe('DescribeGroups', () => {
  it.each(versionsOf('0-6'))('round-trips a request and a response at v%i', (v) => {
    roundTrip(DescribeGroups, v, describeGroupsRequest, describeGroupsResponse);
  });
});

// --------------------------------------------------------------- ListGroups

function listGroupsRequest(v: number): ListGroupsRequest {
  return {
    statesFilter: when(v, '4+', ['Stable', 'Empty'], []),
    typesFilter: when(v, '5+', ['consumer', 'classic'], []),
  };
}

function listGroupsResponse(v: number): ListGroupsResponse {
  return {
    throttleTimeMs: when(v, '1+', 0, 0),
    errorCode: 0,
    groups: [
      {
        groupId: 'checkout',
        protocolType: 'consumer',
        groupState: when(v, '4+', 'Stable', ''),
        groupType: when(v, '5+', 'consumer', ''),
      },
    ],
  };
}

describe('ListGroups', () => {
  it.each(versionsOf('0-5'))('round-trips a request and a response at v%i', (v) => {
    roundTrip(ListGroups, v, listGroupsRequest, listGroupsResponse);
  });

  it('writes an empty v0 request and refuses a state filter there', () => {
    expect(encode(requestCodec(ListGroups, 0), {}).length).toBe(0);
    expect(() => encode(requestCodec(ListGroups, 3), { statesFilter: ['Stable'] })).toThrow(ProtocolError);
  });
});

// ------------------------------------------------------------- DeleteGroups

function deleteGroupsRequest(): DeleteGroupsRequest {
  return { groupsNames: ['old-checkout', 'audit'] };
}

function deleteGroupsResponse(v: number): DeleteGroupsResponse {
  return {
    throttleTimeMs: 0,
    results: [
      { groupId: 'old-checkout', errorCode: 0, errorMessage: null },
      { groupId: 'audit', errorCode: 68, errorMessage: when(v, '3+', 'The group is not empty.', null) }, // NON_EMPTY_GROUP
    ],
  };
}

describe('DeleteGroups', () => {
  it.each(versionsOf('0-3'))('round-trips a request and a response at v%i', (v) => {
    roundTrip(DeleteGroups, v, deleteGroupsRequest, deleteGroupsResponse);
  });
});

// ------------------------------------------------------------- OffsetDelete

function offsetDeleteRequest(): OffsetDeleteRequest {
  return {
    groupId: 'checkout',
    topics: [{ name: 'orders', partitions: [{ partitionIndex: 0 }, { partitionIndex: 1 }] }],
  };
}

function offsetDeleteResponse(): OffsetDeleteResponse {
  return {
    errorCode: 0,
    throttleTimeMs: 0,
    topics: [
      {
        name: 'orders',
        partitions: [
          { partitionIndex: 0, errorCode: 0 },
          { partitionIndex: 1, errorCode: 86 }, // GROUP_SUBSCRIBED_TO_TOPIC
        ],
      },
    ],
  };
}

describe('OffsetDelete', () => {
  it('round-trips a request and a response at v0', () => {
    roundTrip(OffsetDelete, 0, offsetDeleteRequest, offsetDeleteResponse);
  });

  it('writes the v0 request with classic (non-compact) encodings', () => {
    const bytes = encode(requestCodec(OffsetDelete, 0), {
      groupId: 'g',
      topics: [{ name: 't', partitions: [{ partitionIndex: 3 }] }],
    });
    expect(bytes.toString('hex')).toBe(hex('0001 67 00000001 0001 74 00000001 00000003'));
  });
});

// --------------------------------------------------- ConsumerGroupHeartbeat

function consumerGroupHeartbeatRequest(v: number): ConsumerGroupHeartbeatRequest {
  return {
    groupId: 'checkout',
    memberId: when(v, '1+', 'nSr0l9WhT3GrjqMgNcGSmA', ''),
    memberEpoch: 0,
    instanceId: null,
    rackId: 'use1-az1',
    rebalanceTimeoutMs: 300000,
    subscribedTopicNames: ['orders', 'payments'],
    subscribedTopicRegex: when(v, '1+', '^audit-.*', null),
    serverAssignor: 'uniform',
    topicPartitions: [],
  };
}

function consumerGroupHeartbeatResponse(): ConsumerGroupHeartbeatResponse {
  return {
    throttleTimeMs: 0,
    errorCode: 0,
    errorMessage: null,
    memberId: 'nSr0l9WhT3GrjqMgNcGSmA',
    memberEpoch: 12,
    heartbeatIntervalMs: 5000,
    assignment: { topicPartitions: [{ topicId: TOPIC_ID, partitions: [0, 2] }] },
  };
}

describe('ConsumerGroupHeartbeat', () => {
  it.each(versionsOf('0-1'))('round-trips a request and a response at v%i', (v) => {
    roundTrip(ConsumerGroupHeartbeat, v, consumerGroupHeartbeatRequest, consumerGroupHeartbeatResponse);
  });

  it('writes a steady-state v0 heartbeat: unchanged fields as nulls', () => {
    const bytes = encode(requestCodec(ConsumerGroupHeartbeat, 0), { groupId: 'g', memberId: 'm', memberEpoch: 3 });
    // group | member | epoch | instance, rack: null | rebalance timeout -1 | topics, assignor, partitions: null | tags
    expect(bytes.toString('hex')).toBe(hex('0267 026d 00000003 00 00 ffffffff 00 00 00 00'));
  });

  it('refuses a regex subscription in v0', () => {
    expect(() =>
      encode(requestCodec(ConsumerGroupHeartbeat, 0), { groupId: 'g', memberId: 'm', subscribedTopicRegex: 'a.*' }),
    ).toThrow(/subscribedTopicRegex is not supported in version 0/);
  });

  // Kafka writes a nullable struct behind a presence byte: -1 for null, 1 before the struct.
  it('writes the assignment behind a presence byte, null as -1', () => {
    const codec = responseCodec(ConsumerGroupHeartbeat, 0);
    const head = hex('00000000 0000 00 026d 00000001 00001388');
    const none = encode(codec, { memberId: 'm', memberEpoch: 1, heartbeatIntervalMs: 5000, assignment: null });
    expect(none.toString('hex')).toBe(hex(`${head} ff 00`));
    const some = encode(codec, {
      memberId: 'm',
      memberEpoch: 1,
      heartbeatIntervalMs: 5000,
      assignment: { topicPartitions: [{ topicId: TOPIC_ID, partitions: [4] }] },
    });
    expect(some.toString('hex')).toBe(hex(`${head} 01 02 ${ID_HEX} 02 00000004 00 00 00`));
    expect(codec.decode(new Reader(none)).assignment).toBeNull();
  });
});

// ----------------------------------------------------- consumer protocol

function subscription(v: number): ConsumerProtocolSubscriptionValue {
  return {
    topics: ['orders', 'payments'],
    userData: v % 2 === 0 ? null : Buffer.from('sticky-data'),
    ownedPartitions: when(v, '1+', [{ topic: 'orders', partitions: [0, 2] }], []),
    generationId: when(v, '2+', 8, -1),
    rackId: when(v, '3+', 'use1-az1', null),
  };
}

function assignment(v: number): ConsumerProtocolAssignmentValue {
  return {
    assignedPartitions: [
      { topic: 'orders', partitions: [0, 2] },
      { topic: 'payments', partitions: [] },
    ],
    userData: v % 2 === 0 ? null : Buffer.from([1, 2, 3]),
  };
}

describe('consumer protocol messages', () => {
  it.each(versionsOf('0-3'))('round-trip a subscription and an assignment at v%i', (v) => {
    const sub = messageCodec(ConsumerProtocolSubscription, v);
    expect(sub.decode(new Reader(encode(sub, subscription(v))))).toEqual(subscription(v));
    const asg = messageCodec(ConsumerProtocolAssignment, v);
    expect(asg.decode(new Reader(encode(asg, assignment(v))))).toEqual(assignment(v));
  });

  it('writes a v0 assignment: int32 counts, int16 strings, null user data as -1', () => {
    const bytes = encode(messageCodec(ConsumerProtocolAssignment, 0), {
      assignedPartitions: [{ topic: 't', partitions: [0, 1] }],
    });
    expect(bytes.toString('hex')).toBe(hex('00000001 0001 74 00000002 00000000 00000001 ffffffff'));
  });

  it('writes a v3 subscription with owned partitions, generation and rack', () => {
    const bytes = encode(messageCodec(ConsumerProtocolSubscription, 3), {
      topics: ['t'],
      ownedPartitions: [{ topic: 't', partitions: [1] }],
      generationId: 2,
      rackId: 'r',
    });
    expect(bytes.toString('hex')).toBe(
      hex('00000001 0001 74 ffffffff 00000001 0001 74 00000001 00000001 00000002 0001 72'),
    );
  });

  it('embeds in JoinGroup behind an int16 version', () => {
    expect(SUBSCRIPTION.readInt16BE(0)).toBe(1);
    const back = messageCodec(ConsumerProtocolSubscription, 1).decode(new Reader(SUBSCRIPTION, 2));
    expect(back).toEqual({
      topics: ['orders', 'payments'],
      userData: null,
      ownedPartitions: [{ topic: 'orders', partitions: [0] }],
      generationId: -1,
      rackId: null,
    });
  });
});
