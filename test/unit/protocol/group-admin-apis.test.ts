/**
 * ListGroups, DeleteGroups, OffsetDelete, ConsumerGroupHeartbeat (KIP-848) and the consumer protocol's embedded
 * subscription and assignment messages: every version's bytes.
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../codecs/errors.js';
import { Reader } from '../../../codecs/reader.js';
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
import { ListGroups, type ListGroupsRequest, type ListGroupsResponse } from '../../../protocol/apis/list-groups.js';
import {
  OffsetDelete,
  type OffsetDeleteRequest,
  type OffsetDeleteResponse,
} from '../../../protocol/apis/offset-delete.js';
import { messageCodec, requestCodec, responseCodec } from '../../../protocol/codec.js';
import { SUBSCRIPTION } from './group-messages.js';
import { encode, hex, ID_HEX, roundTrip, TOPIC_ID, versionsIn as versionsOf, when } from './helpers.js';

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
