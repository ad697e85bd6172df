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
import type { GroupMembershipOptions, RebalanceListener } from '../../../../src/consumer/group/membership.js';
import { FakeTransport, testOptions, until } from './fake-transport.js';
import { ScriptedCoordinator } from './scripted-coordinator.js';

const TOPIC = 't';
const all = (n = 4) => Array.from({ length: n }, (_, partition) => ({ topic: TOPIC, partition }));
const open: ClassicMembership[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.leave({ evenIfStatic: true })));
});

function setup(extra: Partial<GroupMembershipOptions> = {}) {
  const coordinator = new ScriptedCoordinator();
  const transport = new FakeTransport(coordinator.handle, [{ name: TOPIC, partitions: 4 }]);
  const membership = new ClassicMembership(testOptions({ assignors: ['range'], ...extra }), transport);
  open.push(membership);
  const log: string[] = [];
  const listener: RebalanceListener = {
    onAssigned: (ps) => void log.push(`assigned ${ps.map((p) => p.partition).join(',')}`),
    onRevoked: (ps) => void log.push(`revoked ${ps.map((p) => p.partition).join(',')}`),
    onLost: (ps) => void log.push(`lost ${ps.map((p) => p.partition).join(',')}`),
  };
  return { coordinator, transport, membership, log, listener };
}

describe('ClassicMembership', () => {
  it('joins in two steps when the coordinator requires a member id, leads, and syncs its own assignment', async () => {
    const { coordinator, transport, membership, log, listener } = setup();
    coordinator.queue('JoinGroup', ScriptedCoordinator.error(79, { memberId: 'given-id' }));
    await membership.start({ topics: [TOPIC] }, listener);
    const joins = transport.of('JoinGroup');
    expect(joins.map((c) => c.body.memberId)).toEqual(['', 'given-id']);
    expect(joins.every((c) => c.parked)).toBe(true);
    expect(joins[1].body.protocols.map((p: any) => p.name)).toEqual(['range']);
    expect(decodeSubscription(joins[1].body.protocols[0].metadata)).toMatchObject({
      topics: [TOPIC],
      generationId: -1,
    });
    expect(membership.assignment()).toEqual(all());
    expect(log).toEqual(['assigned 0,1,2,3']);
    expect(membership.commitContext()).toEqual({
      groupId: 'g',
      memberId: 'given-id',
      generationId: 1,
      groupInstanceId: null,
    });
    await until(() => transport.of('Heartbeat').length >= 2);
    expect(transport.of('Heartbeat')[0].body).toMatchObject({ generationId: 1, memberId: 'given-id' });
  });

  it('eager: revokes everything (still committable) before rejoining when a heartbeat says the group rebalances', async () => {
    const { coordinator, transport, membership, log, listener } = setup();
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
    coordinator.queue('Heartbeat', () => ({ errorCode: 27 }));
    await until(() => coordinator.generation === 2 && membership.state === 'stable');
    expect(log).toEqual(['assigned 0,1,2,3', 'revoked 0,1,2,3', 'assigned 0,1,2,3']);
    expect(contextInRevoke).toMatchObject({ generationId: 1 });
    expect(transport.of('JoinGroup').map((c) => c.body.memberId)).toEqual(['', 'member-1']);
  });

  it('cooperative: keeps what it owns across a rebalance, revokes only what moved, then rejoins', async () => {
    const { coordinator, transport, membership, log, listener } = setup({ assignors: ['cooperative-sticky'] });
    await membership.start({ topics: [TOPIC] }, listener);
    // Another member arrives: this one keeps 0 and 1, gives 2 and 3 up, then rejoins.
    coordinator.queue('Heartbeat', () => ({ errorCode: 27 }));
    coordinator.queue(
      'SyncGroup',
      ScriptedCoordinator.sync(all().slice(0, 2)),
      ScriptedCoordinator.sync(all().slice(0, 2)),
    );
    await until(() => coordinator.generation === 3 && membership.state === 'stable');
    expect(log).toEqual(['assigned 0,1,2,3', 'revoked 2,3', 'assigned ', 'assigned ']);
    const owned = transport.of('JoinGroup').map((c) => decodeSubscription(c.body.protocols[0].metadata));
    expect(owned.map((s) => s.ownedPartitions.flatMap((t) => t.partitions))).toEqual([[], [0, 1, 2, 3], [0, 1]]);
    expect(owned.map((s) => s.generationId)).toEqual([-1, 1, 2]);
    expect(membership.assignment()).toEqual(all().slice(0, 2));
  });

  it('gives its partitions up as lost and joins afresh after UNKNOWN_MEMBER_ID', async () => {
    const { coordinator, transport, membership, log, listener } = setup();
    await membership.start({ topics: [TOPIC] }, listener);
    coordinator.queue('Heartbeat', () => ({ errorCode: 25 }));
    await until(() => coordinator.generation === 2 && membership.state === 'stable');
    expect(log).toEqual(['assigned 0,1,2,3', 'lost 0,1,2,3', 'assigned 0,1,2,3']);
    expect(transport.of('JoinGroup').map((c) => c.body.memberId)).toEqual(['', '']);
  });

  it('keeps its member id after ILLEGAL_GENERATION, but not its partitions nor its generation', async () => {
    const { coordinator, transport, membership, log, listener } = setup({ assignors: ['cooperative-sticky'] });
    await membership.start({ topics: [TOPIC] }, listener);
    coordinator.queue('Heartbeat', () => ({ errorCode: 22 }));
    await until(() => coordinator.generation === 2 && membership.state === 'stable');
    expect(log).toEqual(['assigned 0,1,2,3', 'lost 0,1,2,3', 'assigned 0,1,2,3']);
    const rejoin = transport.of('JoinGroup')[1];
    expect(rejoin.body.memberId).toBe('member-1');
    expect(decodeSubscription(rejoin.body.protocols[0].metadata)).toMatchObject({
      generationId: -1,
      ownedPartitions: [],
    });
  });

  it('a commit refused under the generation it holds: lost, and rejoins; under an older one: nothing changes', async () => {
    const { coordinator, membership, log, listener } = setup({ assignors: ['cooperative-sticky'] });
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
    await until(() => coordinator.generation === 2 && membership.state === 'stable');
    expect(log).toEqual(['assigned 0,1,2,3', 'lost 0,1,2,3', 'assigned 0,1,2,3']);
    expect(membership.memberId).toBe(held.memberId);
  });

  it('retries after the coordinator moved, and after REBALANCE_IN_PROGRESS from SyncGroup', async () => {
    const { coordinator, transport, membership } = setup();
    coordinator.queue('JoinGroup', ScriptedCoordinator.error(16));
    coordinator.queue('SyncGroup', ScriptedCoordinator.error(27));
    await membership.start({ topics: [TOPIC] });
    expect(transport.moved).toBe(1);
    expect(transport.of('JoinGroup')).toHaveLength(3);
    expect(membership.state).toBe('stable');
  });

  it('reports GROUP_MAX_SIZE_REACHED once, keeps trying, and joins when there is room', async () => {
    const { coordinator, membership } = setup();
    const errors: Error[] = [];
    membership.on('error', (e) => errors.push(e));
    coordinator.queue('JoinGroup', ScriptedCoordinator.error(81), ScriptedCoordinator.error(81));
    await membership.start({ topics: [TOPIC] });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(GroupMaxSizeReachedError);
    expect(() => membership.notePoll()).toThrow(GroupMaxSizeReachedError);
    expect(() => membership.notePoll()).not.toThrow();
  });

  it('ends with FencedInstanceIdError when another process takes its group instance id', async () => {
    const { coordinator, membership } = setup({ groupInstanceId: 'static-1' });
    await membership.start({ topics: [TOPIC] });
    coordinator.queue('Heartbeat', () => ({ errorCode: 82 }));
    await until(() => membership.state === 'failed');
    expect(() => membership.notePoll()).toThrow(FencedInstanceIdError);
    expect(() => membership.commitContext()).toThrow(FencedInstanceIdError);
  });

  it('refuses commits while joining, with a retriable MemberNotStableError', async () => {
    const { coordinator, membership } = setup();
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    coordinator.queue('JoinGroup', (body) => held.then(() => coordinator.join(body)));
    const started = membership.start({ topics: [TOPIC] });
    await until(() => membership.state === 'joining');
    expect(() => membership.commitContext()).toThrow(MemberNotStableError);
    release();
    await started;
    expect(membership.commitContext().generationId).toBe(1);
  });

  it('leaves on a poll timeout, loses its partitions, says so once on the next poll, and rejoins', async () => {
    const { coordinator, transport, membership, log, listener } = setup({
      maxPollIntervalMs: 60,
      rebalanceTimeoutMs: 1_000,
    });
    await membership.start({ topics: [TOPIC] }, listener);
    await until(() => transport.of('LeaveGroup').length === 1 && membership.assignment().length === 0);
    expect(transport.of('LeaveGroup')[0].body.members).toEqual([
      { memberId: 'member-1', groupInstanceId: null, reason: 'consumer poll timeout has expired' },
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
    await until(() => coordinator.generation === 2 && membership.assignment().length === 4);
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
    await dynamic.membership.leave({ reason: 'bye' });
    expect(dynamic.log).toEqual(['assigned 0,1,2,3', 'revoked 0,1,2,3']);
    expect(dynamic.transport.of('LeaveGroup')[0].body.members[0]).toMatchObject({
      memberId: 'member-1',
      reason: 'bye',
    });
    expect(dynamic.transport.closed).toBe(true);
    expect(dynamic.membership.state).toBe('left');

    const stat = setup({ groupInstanceId: 'static-1' });
    await stat.membership.start({ topics: [TOPIC] }, stat.listener);
    await stat.membership.leave();
    expect(stat.log).toEqual(['assigned 0,1,2,3', 'revoked 0,1,2,3']);
    expect(stat.transport.of('LeaveGroup')).toHaveLength(0);
    expect(stat.transport.of('JoinGroup')[0].body.groupInstanceId).toBe('static-1');
  });

  it('keeps heartbeating while the application takes its time in a rebalance callback', async () => {
    const { transport, membership } = setup();
    let beatsDuringCallback = 0;
    await membership.start(
      { topics: [TOPIC] },
      {
        onAssigned: async () => {
          const before = transport.of('Heartbeat').length;
          await new Promise((r) => setTimeout(r, 200));
          beatsDuringCallback = transport.of('Heartbeat').length - before;
        },
      },
    );
    // A heartbeat every 20 ms: the callback's 200 ms held none of them up.
    expect(beatsDuringCallback).toBeGreaterThanOrEqual(5);
  });

  it('rejoins with the new topics when the subscription changes', async () => {
    const { coordinator, transport, membership } = setup();
    await membership.start({ topics: [TOPIC] });
    membership.subscribe({ topics: [TOPIC, 'other'] });
    await until(() => coordinator.generation === 2 && membership.state === 'stable');
    const last = transport.of('JoinGroup').at(-1)!;
    expect(decodeSubscription(last.body.protocols[0].metadata).topics).toEqual(['other', TOPIC]);
  });

  it('a static leader that rejoins a stable group skips the assignment (JoinGroup v9 skipAssignment)', async () => {
    const { coordinator, transport, membership } = setup({ groupInstanceId: 'static-1' });
    coordinator.lastAssignment = all().slice(1);
    coordinator.queue('JoinGroup', (body) => ({ ...coordinator.join(body), skipAssignment: true }));
    await membership.start({ topics: [TOPIC] });
    expect(transport.of('SyncGroup')[0].body.assignments).toEqual([]);
    expect(membership.assignment()).toEqual(all().slice(1));
  });
});
