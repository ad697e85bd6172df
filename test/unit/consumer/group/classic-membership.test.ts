import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../protocol/error-codes.js';
import { kafkaError } from '../../../../protocol/kafka-error.js';
import { ClassicMembership } from '../../../../src/consumer/group/classic/classic-membership.js';
import { decodeSubscription } from '../../../../src/consumer/group/classic/consumer-protocol-codec.js';
import {
  FencedInstanceIdError,
  GroupMaxSizeReachedError,
  MaxPollIntervalExceededError,
  MemberNotStableError,
  RebalanceListenerError,
} from '../../../../src/consumer/group/errors.js';
import type { GroupMembershipOptions } from '../../../../src/consumer/group/membership.js';
import { type FakeKafka, fakeKafkaWith } from '../../../fake-kafka/cluster.js';
import { groupLink } from '../../../fake-kafka/views.js';
import { loggingListener, testOptions, until } from './group-kit.js';

const TOPIC = 't';
const all = (n = 4) => Array.from({ length: n }, (_, partition) => ({ topic: TOPIC, partition }));
const open: ClassicMembership[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.leave({ evenIfStatic: true })));
});

/** A member of group "g" on the fake cluster (topic t, 4 partitions), with a listener that logs. */
function setup(extra: Partial<GroupMembershipOptions> = {}, kafka: FakeKafka = fakeKafkaWith({ [TOPIC]: 4 })) {
  const membership = new ClassicMembership(testOptions({ assignors: ['range'], ...extra }), groupLink(kafka, 'g'));
  open.push(membership);
  const log: string[] = [];
  const group = kafka.group('g').classic;
  const bodies = (api: string) => kafka.requests(api).map((r) => r.body);
  return { kafka, group, membership, log, listener: loggingListener(log), bodies };
}

/** Answers the next `times` requests of `api` with `errorCode` instead of the group. */
function refuse(kafka: FakeKafka, api: string, errorCode: number, times = 1): void {
  const answer = api === 'JoinGroup' ? kafka.group('g').classic.errorJoin(errorCode) : { errorCode };
  kafka.control(api, () => ({ response: { throttleTimeMs: 0, ...answer, assignment: Buffer.alloc(0) } }), { times });
}

describe('ClassicMembership', () => {
  it('joins in two steps when the coordinator requires a member id, leads, and syncs its own assignment', async () => {
    const { kafka, group, membership, log, listener, bodies } = setup();
    await membership.start({ topics: [TOPIC] }, listener);
    const joins = kafka.requests('JoinGroup');
    const given = group.leader!;
    expect(joins.map((r) => r.body.memberId)).toEqual(['', given]);
    expect(joins[0].version).toBe(9);
    // JoinGroup and SyncGroup park on the member's own connection, not the shared one heartbeats use.
    await until(() => bodies('Heartbeat').length >= 2);
    const parked = new Set([...joins, ...kafka.requests('SyncGroup')].map((r) => r.connection));
    expect(parked.size).toBe(1);
    expect(parked.has(kafka.requests('Heartbeat')[0].connection)).toBe(false);
    expect(joins[1].body.protocols.map((p: any) => p.name)).toEqual(['range']);
    expect(decodeSubscription(joins[1].body.protocols[0].metadata)).toMatchObject({
      topics: [TOPIC],
      generationId: -1,
    });
    expect(membership.assignment()).toEqual(all());
    expect(log).toEqual(['assigned 0,1,2,3']);
    expect(membership.commitContext()).toEqual({
      groupId: 'g',
      memberId: given,
      generationId: 1,
      groupInstanceId: null,
    });
    expect(bodies('Heartbeat')[0]).toMatchObject({ generationId: 1, memberId: given });
    expect(group.state).toBe('Stable');
  });

  it('eager: revokes everything (still committable) before rejoining when a heartbeat says the group rebalances', async () => {
    const { kafka, group, membership, log, listener, bodies } = setup();
    let contextInRevoke: unknown;
    await membership.start(
      { topics: [TOPIC] },
      {
        ...listener,
        onRevoked: (ps) => {
          contextInRevoke = membership.commitContext();
          listener.onRevoked?.(ps);
        },
      },
    );
    refuse(kafka, 'Heartbeat', ErrorCode.REBALANCE_IN_PROGRESS);
    await until(() => group.generation === 2 && membership.state === 'stable');
    expect(log).toEqual(['assigned 0,1,2,3', 'revoked 0,1,2,3', 'assigned 0,1,2,3']);
    expect(contextInRevoke).toMatchObject({ generationId: 1 });
    const id = group.leader;
    expect(bodies('JoinGroup').map((b) => b.memberId)).toEqual(['', id, id]);
  });

  it('cooperative: keeps what it owns when another member arrives, revokes only what moved, then rejoins', async () => {
    const first = setup({ assignors: ['cooperative-sticky'] });
    await first.membership.start({ topics: [TOPIC] }, first.listener);
    const firstId = first.membership.commitContext().memberId;
    const second = setup({ assignors: ['cooperative-sticky'] }, first.kafka);
    await second.membership.start({ topics: [TOPIC] }, second.listener);
    // Generation 2 takes 2,3 from the first member (revoked, not yet given); generation 3 gives them away.
    await until(() => first.group.generation === 3 && second.membership.assignment().length === 2);
    expect(first.log).toEqual(['assigned 0,1,2,3', 'revoked 2,3', 'assigned ', 'assigned ']);
    expect(second.log).toEqual(['assigned ', 'assigned 2,3']);
    const joins = first.kafka.requests('JoinGroup').filter((r) => r.body.memberId === firstId);
    const owned = joins.map((r) => decodeSubscription(r.body.protocols[0].metadata));
    expect(owned.map((s) => s.ownedPartitions.flatMap((t) => t.partitions))).toEqual([[], [0, 1, 2, 3], [0, 1]]);
    expect(owned.map((s) => s.generationId)).toEqual([-1, 1, 2]);
    expect(first.membership.assignment()).toEqual(all().slice(0, 2));
  });

  it('gives its partitions up as lost and joins afresh after UNKNOWN_MEMBER_ID (its session expired)', async () => {
    const { group, membership, log, listener, bodies } = setup();
    await membership.start({ topics: [TOPIC] }, listener);
    const gone = group.leader!;
    group.remove(gone);
    await until(() => log.length === 3 && membership.state === 'stable');
    expect(log).toEqual(['assigned 0,1,2,3', 'lost 0,1,2,3', 'assigned 0,1,2,3']);
    // Its heartbeat was refused; the group went empty (generation 2) and it joined generation 3 as a new member.
    expect(bodies('Heartbeat').some((b) => b.memberId === gone && b.generationId === 1)).toBe(true);
    expect(membership.commitContext().generationId).toBe(3);
    const ids = bodies('JoinGroup').map((b) => b.memberId);
    expect(ids.slice(0, 3)).toEqual(['', gone, '']);
    expect(ids[3]).not.toBe(gone);
  });

  it('keeps its member id after ILLEGAL_GENERATION, but not its partitions nor its generation', async () => {
    const { kafka, group, membership, log, listener, bodies } = setup({ assignors: ['cooperative-sticky'] });
    await membership.start({ topics: [TOPIC] }, listener);
    refuse(kafka, 'Heartbeat', ErrorCode.ILLEGAL_GENERATION);
    await until(() => group.generation === 2 && membership.state === 'stable');
    expect(log).toEqual(['assigned 0,1,2,3', 'lost 0,1,2,3', 'assigned 0,1,2,3']);
    const rejoin = bodies('JoinGroup')[2];
    expect(rejoin.memberId).toBe(group.leader);
    expect(decodeSubscription(rejoin.protocols[0].metadata)).toMatchObject({
      generationId: -1,
      ownedPartitions: [],
    });
  });

  it('a commit refused under the generation it holds: lost, and rejoins; under an older one: nothing changes', async () => {
    const { group, membership, log, listener } = setup({ assignors: ['cooperative-sticky'] });
    await membership.start({ topics: [TOPIC] }, listener);
    const held = membership.commitContext();
    // An answer to a commit sent before the member's current generation says nothing about it (Java's
    // generationUnchanged check).
    membership.commitRefused(kafkaError(ErrorCode.ILLEGAL_GENERATION), {
      ...held,
      generationId: held.generationId - 1,
    });
    membership.commitRefused(kafkaError(ErrorCode.UNKNOWN_MEMBER_ID), { ...held, memberId: 'someone-before' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(membership.state).toBe('stable');
    expect(log).toEqual(['assigned 0,1,2,3']);
    membership.commitRefused(kafkaError(ErrorCode.ILLEGAL_GENERATION), held);
    await until(() => group.generation === 2 && membership.state === 'stable');
    expect(log).toEqual(['assigned 0,1,2,3', 'lost 0,1,2,3', 'assigned 0,1,2,3']);
    expect(membership.memberId).toBe(held.memberId);
  });

  it('retries after the coordinator moved, and after REBALANCE_IN_PROGRESS from SyncGroup', async () => {
    const { kafka, membership } = setup();
    refuse(kafka, 'JoinGroup', ErrorCode.NOT_COORDINATOR);
    refuse(kafka, 'SyncGroup', ErrorCode.REBALANCE_IN_PROGRESS);
    await membership.start({ topics: [TOPIC] });
    // NOT_COORDINATOR made the link look the coordinator up again.
    expect(kafka.requests('FindCoordinator')).toHaveLength(2);
    // Refused, MEMBER_ID_REQUIRED, joined; then again after the refused SyncGroup.
    expect(kafka.requests('JoinGroup')).toHaveLength(4);
    expect(membership.state).toBe('stable');
  });

  it('reports GROUP_MAX_SIZE_REACHED once, keeps trying, and joins when there is room', async () => {
    const { kafka, membership } = setup();
    const errors: Error[] = [];
    membership.on('error', (e) => errors.push(e));
    refuse(kafka, 'JoinGroup', ErrorCode.GROUP_MAX_SIZE_REACHED, 2);
    await membership.start({ topics: [TOPIC] });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(GroupMaxSizeReachedError);
    expect(() => membership.notePoll()).toThrow(GroupMaxSizeReachedError);
    expect(() => membership.notePoll()).not.toThrow();
  });

  it('ends with FencedInstanceIdError when another process takes its group instance id', async () => {
    const first = setup({ groupInstanceId: 'static-1' });
    await first.membership.start({ topics: [TOPIC] });
    const second = setup({ groupInstanceId: 'static-1' }, first.kafka);
    await second.membership.start({ topics: [TOPIC] });
    await until(() => first.membership.state === 'failed');
    expect(() => first.membership.notePoll()).toThrow(FencedInstanceIdError);
    expect(() => first.membership.commitContext()).toThrow(FencedInstanceIdError);
    expect(second.membership.assignment()).toEqual(all());
  });

  it('refuses commits while joining, with a retriable MemberNotStableError', async () => {
    const { kafka, membership } = setup();
    kafka.control('JoinGroup', () => ({ delayMs: 200 }), { times: 1 });
    const started = membership.start({ topics: [TOPIC] });
    await until(() => membership.state === 'joining');
    expect(() => membership.commitContext()).toThrow(MemberNotStableError);
    await started;
    expect(membership.commitContext().generationId).toBe(1);
  });

  it('leaves on a poll timeout, loses its partitions, says so once on the next poll, and rejoins', async () => {
    const { group, membership, log, listener, bodies } = setup({
      maxPollIntervalMs: 60,
      rebalanceTimeoutMs: 1_000,
    });
    await membership.start({ topics: [TOPIC] }, listener);
    const id = membership.commitContext().memberId;
    await until(() => bodies('LeaveGroup').length === 1 && membership.assignment().length === 0);
    expect(bodies('LeaveGroup')[0].members).toEqual([
      { memberId: id, groupInstanceId: null, reason: 'consumer poll timeout has expired' },
    ]);
    await until(() => log.length === 2);
    expect(log).toEqual(['assigned 0,1,2,3', 'lost 0,1,2,3']);
    expect(() => membership.commitContext()).toThrow(MemberNotStableError);
    let thrown: unknown;
    try {
      membership.notePoll();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(MaxPollIntervalExceededError);
    expect((thrown as MaxPollIntervalExceededError).lostPartitions).toEqual(all());
    // The group went empty (generation 2) and the member joined again (generation 3).
    await until(() => group.generation === 3 && membership.assignment().length === 4);
    membership.notePoll();
  });

  it('reports a listener that throws, and goes on with the rebalance', async () => {
    const { membership } = setup();
    await membership.start(
      { topics: [TOPIC] },
      {
        onAssigned: () => {
          throw new Error('boom');
        },
      },
    );
    expect(membership.assignment()).toEqual(all());
    expect(() => membership.notePoll()).toThrow(RebalanceListenerError);
    expect(() => membership.notePoll()).not.toThrow();
  });

  it('revokes then sends LeaveGroup on leave(); a static member revokes but does not leave', async () => {
    const dynamic = setup();
    await dynamic.membership.start({ topics: [TOPIC] }, dynamic.listener);
    const id = dynamic.membership.commitContext().memberId;
    await dynamic.membership.leave({ reason: 'bye' });
    expect(dynamic.log).toEqual(['assigned 0,1,2,3', 'revoked 0,1,2,3']);
    expect(dynamic.bodies('LeaveGroup')[0].members[0]).toMatchObject({ memberId: id, reason: 'bye' });
    // Its own connection (where JoinGroup parked) is closed, and the group is empty.
    const own = dynamic.kafka.requests('JoinGroup')[0].connection;
    expect(dynamic.kafka.connections[own].isClosed).toBe(true);
    expect(dynamic.membership.state).toBe('left');
    expect(dynamic.group.state).toBe('Empty');

    const stat = setup({ groupInstanceId: 'static-1' });
    await stat.membership.start({ topics: [TOPIC] }, stat.listener);
    await stat.membership.leave();
    expect(stat.log).toEqual(['assigned 0,1,2,3', 'revoked 0,1,2,3']);
    expect(stat.bodies('LeaveGroup')).toHaveLength(0);
    expect(stat.bodies('JoinGroup')[0].groupInstanceId).toBe('static-1');
    expect(stat.group.members.size).toBe(1);
  });

  it('keeps heartbeating while the application takes its time in a rebalance callback', async () => {
    const { bodies, membership } = setup();
    let beatsDuringCallback = 0;
    await membership.start(
      { topics: [TOPIC] },
      {
        onAssigned: async () => {
          const before = bodies('Heartbeat').length;
          await new Promise((r) => setTimeout(r, 200));
          beatsDuringCallback = bodies('Heartbeat').length - before;
        },
      },
    );
    // A heartbeat every 20 ms: the callback's 200 ms held none of them up.
    expect(beatsDuringCallback).toBeGreaterThanOrEqual(5);
  });

  it('rejoins with the new topics when the subscription changes', async () => {
    const { group, bodies, membership } = setup();
    await membership.start({ topics: [TOPIC] });
    membership.subscribe({ topics: [TOPIC, 'other'] });
    await until(() => group.generation === 2 && membership.state === 'stable');
    const last = bodies('JoinGroup').at(-1)!;
    expect(decodeSubscription(last.protocols[0].metadata).topics).toEqual(['other', TOPIC]);
  });

  it('a static leader that rejoins a stable group skips the assignment (JoinGroup v9 skipAssignment)', async () => {
    const before = setup({ groupInstanceId: 'static-1' });
    await before.membership.start({ topics: [TOPIC] });
    // The same instance in a new process: the group keeps generation 1 and the assignment it had.
    const after = setup({ groupInstanceId: 'static-1' }, before.kafka);
    await after.membership.start({ topics: [TOPIC] });
    expect(before.bodies('SyncGroup').map((b) => b.assignments.length)).toEqual([1, 0]);
    expect(after.membership.assignment()).toEqual(all());
    expect(after.membership.commitContext().generationId).toBe(1);
  });
});
