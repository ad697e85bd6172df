import { afterEach, describe, expect, it } from 'vitest';
import { GroupProtocolUnsupportedError, MemberNotStableError } from '../../../../src/consumer/group/errors.js';
import { ConsumerGroupMembership } from '../../../../src/consumer/group/kip848/consumer-membership.js';
import type { GroupMembershipOptions } from '../../../../src/consumer/group/membership.js';
import { fakeKafkaWith } from '../../../fake-kafka/cluster.js';
import { groupLink } from '../../../fake-kafka/views.js';
import { loggingListener, testOptions, until } from './group-kit.js';

const TOPIC = 't';
const ID = 'AAAAAAAAAAAAAAAAAAAAAQ';
const open: ConsumerGroupMembership[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.leave({ evenIfStatic: true })));
});

/**
 * A KIP-848 member of group "g" on the fake cluster (topic t, 4 partitions, topic id ID). With `answer`, each
 * heartbeat is scripted as `answer(body, n)` (n counts heartbeats from 1) over "epoch 1, assignment unchanged";
 * with `null`, the fake's group answers (one member: every partition, epoch 1).
 */
function setup(answer: ((body: any, n: number) => any) | null, extra: Partial<GroupMembershipOptions> = {}) {
  const kafka = fakeKafkaWith({ [TOPIC]: 4 });
  expect(kafka.topics.get(TOPIC)!.topicId).toBe(ID);
  let n = 0;
  if (answer !== null) {
    kafka.control('ConsumerGroupHeartbeat', ({ body }) => ({
      response: {
        throttleTimeMs: 0,
        errorCode: 0,
        errorMessage: null,
        memberId: body.memberId,
        memberEpoch: body.memberEpoch < 0 ? body.memberEpoch : 1,
        heartbeatIntervalMs: 20,
        assignment: null,
        ...answer(body, ++n),
      },
    }));
  }
  const membership = new ConsumerGroupMembership(
    testOptions({ protocol: 'consumer', ...extra }),
    groupLink(kafka, 'g'),
  );
  open.push(membership);
  const log: string[] = [];
  const beats = () => kafka.requests('ConsumerGroupHeartbeat').map((r) => r.body);
  return { kafka, membership, log, listener: loggingListener(log), beats };
}

const assignment = (...partitions: number[]) => ({ topicPartitions: [{ topicId: ID, partitions }] });

describe('ConsumerGroupMembership (KIP-848)', () => {
  it('joins with a generated member id and epoch 0, resolves topic ids, and acknowledges at once', async () => {
    const { membership, log, listener, beats } = setup((_b, n) => (n === 1 ? { assignment: assignment(0, 1) } : {}), {
      serverAssignor: 'uniform',
      rackId: 'r1',
    });
    await membership.start({ topics: [TOPIC] }, listener);
    expect(membership.assignment()).toEqual([
      { topic: TOPIC, partition: 0 },
      { topic: TOPIC, partition: 1 },
    ]);
    expect(log).toEqual(['assigned 0,1']);
    await until(() => beats().length >= 2);
    const [join, ack] = beats();
    expect(join.memberId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(join).toMatchObject({
      memberEpoch: 0,
      subscribedTopicNames: [TOPIC],
      serverAssignor: 'uniform',
      rackId: 'r1',
      topicPartitions: [],
    });
    expect(join.rebalanceTimeoutMs).toBeGreaterThan(0);
    // The acknowledgement: the same member, its epoch, what it owns now, nothing else repeated.
    expect(ack).toMatchObject({
      memberId: join.memberId,
      memberEpoch: 1,
      subscribedTopicNames: null,
      serverAssignor: null,
      topicPartitions: [{ topicId: ID, partitions: [0, 1] }],
    });
    expect(membership.commitContext()).toMatchObject({ memberId: join.memberId, generationId: 1 });
  });

  it('revokes what the new target leaves out before taking what it adds, and reports the result', async () => {
    let target: any = assignment(0, 1);
    const { membership, log, listener, beats } = setup(() => ({ assignment: target }));
    await membership.start({ topics: [TOPIC] }, listener);
    target = assignment(1, 2);
    await until(() => log.length === 3);
    expect(log).toEqual(['assigned 0,1', 'revoked 0', 'assigned 2']);
    await until(() =>
      beats().some((b) => JSON.stringify(b.topicPartitions) === JSON.stringify([{ topicId: ID, partitions: [1, 2] }])),
    );
  });

  it('gives everything up as lost after FENCED_MEMBER_EPOCH and rejoins with epoch 0 and the same member id', async () => {
    const { membership, log, listener, beats } = setup((_b, n) =>
      n === 3 ? { errorCode: 110 } : { assignment: assignment(0, 1, 2, 3) },
    );
    await membership.start({ topics: [TOPIC] }, listener);
    await until(() => log.length === 3);
    expect(log).toEqual(['assigned 0,1,2,3', 'lost 0,1,2,3', 'assigned 0,1,2,3']);
    const joins = beats().filter((b) => b.memberEpoch === 0);
    expect(joins).toHaveLength(2);
    expect(joins[1].memberId).toBe(joins[0].memberId);
  });

  it('fails start() with GroupProtocolUnsupportedError when the broker does not run the protocol', async () => {
    const { membership } = setup(() => ({ errorCode: 35, memberEpoch: 0 }));
    await expect(membership.start({ topics: [TOPIC] })).rejects.toBeInstanceOf(GroupProtocolUnsupportedError);
    expect(membership.state).toBe('failed');
  });

  it('waits for a topic id metadata does not know yet', async () => {
    const unknown = 'AAAAAAAAAAAAAAAAAAAAAg';
    const { membership, log, listener } = setup(() => ({
      assignment: {
        topicPartitions: [
          { topicId: ID, partitions: [0] },
          { topicId: unknown, partitions: [0] },
        ],
      },
    }));
    await membership.start({ topics: [TOPIC] }, listener);
    expect(log).toEqual(['assigned 0']);
    expect(membership.state).toBe('rebalancing');
  });

  it('revokes and leaves with epoch -1; a static member leaves with -2 and keeps its place', async () => {
    const dynamic = setup(() => ({ assignment: assignment(0) }));
    await dynamic.membership.start({ topics: [TOPIC] }, dynamic.listener);
    await dynamic.membership.leave();
    expect(dynamic.log).toEqual(['assigned 0', 'revoked 0']);
    expect(dynamic.beats().at(-1)).toMatchObject({ memberEpoch: -1, topicPartitions: null });
    expect(() => dynamic.membership.commitContext()).toThrow();

    const stat = setup(() => ({ assignment: assignment(0) }), { groupInstanceId: 'static-1' });
    await stat.membership.start({ topics: [TOPIC] }, stat.listener);
    await stat.membership.leave();
    expect(stat.beats().at(-1)).toMatchObject({ memberEpoch: -2, instanceId: 'static-1' });
  });

  it('rediscovers a coordinator that moved and goes on heartbeating as the same member', async () => {
    const { kafka, membership, beats } = setup((_b, n) =>
      n === 2 ? { errorCode: 16 } : { assignment: n === 1 ? assignment(0) : null },
    );
    await membership.start({ topics: [TOPIC] });
    await until(() => beats().length >= 4);
    // Looked up once, and once more after NOT_COORDINATOR.
    expect(kafka.requests('FindCoordinator')).toHaveLength(2);
    expect(membership.state).toBe('stable');
    // After a failure the next heartbeat carries every field again.
    expect(beats()[2]).toMatchObject({ memberEpoch: 1, subscribedTopicNames: [TOPIC] });
  });

  it('ends with a typed error when its static instance id is still held (UNRELEASED_INSTANCE_ID)', async () => {
    const { membership } = setup(() => ({ errorCode: 111, memberEpoch: 0 }), { groupInstanceId: 'static-1' });
    await expect(membership.start({ topics: [TOPIC] })).rejects.toMatchObject({
      name: 'GroupJoinRefusedError',
      errorName: 'UNRELEASED_INSTANCE_ID',
      fatal: true,
    });
  });

  it('refuses commits before it has a member epoch', async () => {
    // The fake's own group answers here: the only member gets every partition at epoch 1.
    const { kafka, membership } = setup(null);
    kafka.control('ConsumerGroupHeartbeat', () => ({ delayMs: 200 }), { times: 1 });
    const started = membership.start({ topics: [TOPIC] });
    await until(() => membership.state === 'joining');
    expect(() => membership.commitContext()).toThrow(MemberNotStableError);
    await started;
    expect(membership.commitContext().generationId).toBe(1);
    expect(membership.assignment()).toHaveLength(4);
  });
});
