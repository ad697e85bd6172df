/**
 * Classic group membership definitions (JoinGroup, Heartbeat, LeaveGroup, SyncGroup, DescribeGroups): every
 * version's request and response bytes.
 */
import { describe, expect, it } from 'vitest';
import { Reader } from '../../../codecs/reader.js';
import {
  DescribeGroups,
  type DescribeGroupsRequest,
  type DescribeGroupsResponse,
} from '../../../protocol/apis/describe-groups.js';
import { Heartbeat, type HeartbeatRequest, type HeartbeatResponse } from '../../../protocol/apis/heartbeat.js';
import { JoinGroup, type JoinGroupRequest, type JoinGroupResponse } from '../../../protocol/apis/join-group.js';
import { LeaveGroup, type LeaveGroupRequest, type LeaveGroupResponse } from '../../../protocol/apis/leave-group.js';
import { SyncGroup, type SyncGroupRequest, type SyncGroupResponse } from '../../../protocol/apis/sync-group.js';
import { requestCodec, responseCodec } from '../../../protocol/codec.js';
import { ASSIGNMENT, SUBSCRIPTION } from './group-messages.js';
import { decodeError, encode, hex, roundTrip, versionsIn as versionsOf, when } from './helpers.js';

const NOT_REQUESTED = -2147483648;
const EMPTY = Buffer.alloc(0);

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
