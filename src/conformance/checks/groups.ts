/**
 * Groups: the classic join → sync → heartbeat → leave flow with the error codes a member gets when it is unknown,
 * out of date, in a rebalance or replaced as a static member; and the KIP-848 ConsumerGroupHeartbeat flow
 * (assignment, revocation to a second member, leave) where the broker offers it.
 */
import { randomUUID } from 'node:crypto';
import { ConsumerGroupHeartbeat } from '../../../protocol/apis/consumer-group-heartbeat.js';
import { JoinGroup } from '../../../protocol/apis/join-group.js';
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { ResponseOf } from '../../../protocol/schema.js';
import type { Connection } from '../../network/connection.js';
import { errorName, type Probe } from '../probe.js';
import type { Check } from '../types.js';
import { heartbeat, joinAlone, joinRequest, leave } from './classic-group.js';

const GROUP_GUIDE = 'Kafka protocol guide, group membership APIs (JoinGroup, SyncGroup, Heartbeat, LeaveGroup)';

function heartbeatCode(
  id: string,
  expected: string,
  kafka: number,
  change: (m: { generationId: number }) => object,
): Check {
  return {
    id: `groups.${id}`,
    area: 'groups',
    expected,
    spec: GROUP_GUIDE,
    async run(probe: Probe) {
      const member = await joinAlone(probe, probe.suite.group(id));
      try {
        const code = await heartbeat(probe, member, change(member));
        probe.errorCode(code, kafka, `Heartbeat with ${id.replace(/-/g, ' ')}`);
        return errorName(kafka);
      } finally {
        await leave(probe, member).catch(() => {});
      }
    },
  };
}

/** Sends heartbeats until one answers `code` (a rebalance starts a moment after the join that causes it). */
async function heartbeatUntil(send: () => Promise<number>, code: number, ms: number): Promise<number> {
  const until = Date.now() + ms;
  for (;;) {
    const got = await send();
    if (got === code || Date.now() > until) return got;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function sameBroker(probe: Probe, connection: Connection): Promise<Connection> {
  return probe.suite.dedicatedConnection({ host: connection.host, port: connection.port });
}

type Heartbeat848 = ResponseOf<typeof ConsumerGroupHeartbeat>;

export const groupChecks: Check[] = [
  {
    id: 'groups.classic-flow',
    area: 'groups',
    expected:
      'a first JoinGroup without member id (v4+) is MEMBER_ID_REQUIRED; join, sync, heartbeat and leave then succeed',
    spec: `${GROUP_GUIDE}; KIP-394`,
    async run(probe: Probe) {
      const groupId = probe.suite.group('classic-flow');
      const coordinator = await probe.suite.coordinator(probe, groupId);
      const first = await probe.suite.retryingCoordinator(
        () => probe.send(coordinator, JoinGroup, joinRequest(groupId)),
        (answer) => answer.errorCode,
      );
      if (coordinator.versionFor(JoinGroup) >= 4) {
        probe.errorCode(first.errorCode, ErrorCode.MEMBER_ID_REQUIRED, 'first JoinGroup without a member id');
        probe.expect(first.memberId !== '', 'MEMBER_ID_REQUIRED came without a member id to rejoin with');
      }
      const member = await joinAlone(probe, groupId, { memberId: first.memberId });
      probe.expect(member.generationId >= 1, `generation ${member.generationId} after the first rebalance`);
      probe.errorCode(await heartbeat(probe, member), 0, 'Heartbeat of the synced member');
      probe.errorCode(await leave(probe, member), 0, 'LeaveGroup');
      probe.errorCode(await heartbeat(probe, member), ErrorCode.UNKNOWN_MEMBER_ID, 'Heartbeat after leaving');
      return `generation ${member.generationId}: join, sync, heartbeat, leave`;
    },
  },
  heartbeatCode(
    'unknown-member',
    'a heartbeat from a member the group does not know is UNKNOWN_MEMBER_ID',
    ErrorCode.UNKNOWN_MEMBER_ID,
    () => ({
      memberId: `tidemark-${randomUUID()}`,
    }),
  ),
  heartbeatCode(
    'illegal-generation',
    'a heartbeat with a generation other than the current one is ILLEGAL_GENERATION',
    ErrorCode.ILLEGAL_GENERATION,
    (m) => ({
      generationId: m.generationId + 1,
    }),
  ),
  {
    id: 'groups.rebalance-in-progress',
    area: 'groups',
    expected: 'while a second member joins, the first member’s heartbeat is REBALANCE_IN_PROGRESS',
    spec: GROUP_GUIDE,
    async run(probe: Probe) {
      const groupId = probe.suite.group('rebalance');
      const a = await joinAlone(probe, groupId);
      const other = await sameBroker(probe, a.coordinator);
      const first = await probe.send(other, JoinGroup, joinRequest(groupId));
      const pending = probe
        .send(other, JoinGroup, joinRequest(groupId, { memberId: first.memberId }))
        .catch((err: Error) => err);
      try {
        const code = await heartbeatUntil(() => heartbeat(probe, a), ErrorCode.REBALANCE_IN_PROGRESS, 3000);
        probe.errorCode(code, ErrorCode.REBALANCE_IN_PROGRESS, 'Heartbeat of the first member during the join');
        return 'REBALANCE_IN_PROGRESS';
      } finally {
        await leave(probe, a).catch(() => {});
        const b = await pending;
        if (!(b instanceof Error) && b.errorCode === 0) {
          await leave(probe, { ...a, memberId: b.memberId, coordinator: other }).catch(() => {});
        }
        await other.close();
      }
    },
  },
  {
    id: 'groups.fenced-static-instance',
    area: 'groups',
    expected:
      'when a static member (group.instance.id) rejoins as a new member, the old member id is FENCED_INSTANCE_ID',
    spec: 'KIP-345',
    async run(probe: Probe) {
      probe.requireVersion(JoinGroup, 5, 'static membership');
      const groupId = probe.suite.group('static');
      const instance = `${probe.suite.prefix}-instance`;
      const old = await joinAlone(probe, groupId, { groupInstanceId: instance });
      const replacement = await joinAlone(probe, groupId, { groupInstanceId: instance });
      try {
        probe.expect(replacement.memberId !== old.memberId, 'the rejoining static member kept its old member id');
        const code = await heartbeat(probe, old);
        probe.errorCode(code, ErrorCode.FENCED_INSTANCE_ID, 'Heartbeat of the replaced static member');
        return 'FENCED_INSTANCE_ID';
      } finally {
        await leave(probe, replacement).catch(() => {});
      }
    },
  },
  {
    id: 'groups.consumer-heartbeat',
    area: 'groups',
    expected:
      'ConsumerGroupHeartbeat: a joining member gets an epoch and all partitions; a second member makes the first give some up; leaving answers epoch -1',
    spec: 'KIP-848',
    async run(probe: Probe) {
      const version = probe.requireVersion(ConsumerGroupHeartbeat, 0, 'the consumer group protocol');
      const topic = await probe.suite.topic('groups-848', 2);
      const groupId = probe.suite.group('kip848');
      const coordinator = await probe.suite.coordinator(probe, groupId);
      const beat = async (memberId: string, memberEpoch: number, owned: Heartbeat848['assignment'] | 'join') => {
        // Paced like a fast client: the assignment arrives over a few heartbeats.
        if (owned !== 'join') await new Promise((resolve) => setTimeout(resolve, 20));
        return (await probe.send(coordinator, ConsumerGroupHeartbeat, {
          groupId,
          memberId,
          memberEpoch,
          rebalanceTimeoutMs: owned === 'join' ? 10_000 : -1,
          subscribedTopicNames: owned === 'join' ? [topic] : null,
          topicPartitions: owned === 'join' ? [] : (owned?.topicPartitions ?? null),
        })) as Heartbeat848;
      };
      const idA = version >= 1 ? randomUUID() : '';
      let a = await beat(idA, 0, 'join');
      if (a.errorCode === ErrorCode.UNSUPPORTED_VERSION || a.errorCode === ErrorCode.INVALID_REQUEST) {
        probe.skip(
          `the broker offers ConsumerGroupHeartbeat but answered ${errorName(a.errorCode)}: the consumer protocol is not enabled`,
        );
      }
      probe.errorCode(a.errorCode, 0, 'joining ConsumerGroupHeartbeat');
      const memberA = a.memberId ?? idA;
      probe.expect(a.memberEpoch >= 1, `joining member got epoch ${a.memberEpoch}, Kafka gives 1 or more`);
      const count = (h: Heartbeat848['assignment']) =>
        h?.topicPartitions.reduce((n, t) => n + t.partitions.length, 0) ?? 0;
      let owned = a.assignment;
      const until = Date.now() + 5000;
      while (count(owned) < 2 && Date.now() < until) {
        a = await beat(memberA, a.memberEpoch, owned);
        probe.errorCode(a.errorCode, 0, 'heartbeat while waiting for the assignment');
        if (a.assignment !== null) owned = a.assignment;
      }
      probe.equal(count(owned), 2, 'partitions assigned to the only member');
      const epochBefore = a.memberEpoch;
      const idB = version >= 1 ? randomUUID() : '';
      const b = await beat(idB, 0, 'join');
      probe.errorCode(b.errorCode, 0, 'second member joining');
      const memberB = b.memberId ?? idB;
      const revokeUntil = Date.now() + 5000;
      while (count(owned) === 2 && Date.now() < revokeUntil) {
        a = await beat(memberA, a.memberEpoch, owned);
        probe.errorCode(a.errorCode, 0, 'heartbeat after the second member joined');
        if (a.assignment !== null) owned = a.assignment;
      }
      probe.equal(count(owned), 1, 'partitions the first member keeps once a second member joins');
      a = await beat(memberA, a.memberEpoch, owned);
      probe.expect(
        a.memberEpoch > epochBefore,
        `epoch ${a.memberEpoch} did not move past ${epochBefore} after revocation`,
      );
      const left = await beat(memberA, -1, null);
      probe.equal(left.memberEpoch, -1, 'member epoch in the answer to leaving');
      await beat(memberB, -1, null);
      return `epoch ${epochBefore} → ${a.memberEpoch}, 2 → 1 partitions, left with epoch -1`;
    },
  },
];
