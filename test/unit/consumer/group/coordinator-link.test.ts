import { describe, expect, it } from 'vitest';
import { Heartbeat } from '../../../../protocol/apis/heartbeat.js';
import { JoinGroup } from '../../../../protocol/apis/join-group.js';
import { CoordinatorLink } from '../../../../src/consumer/group/coordinator-link.js';
import { FakeKafka } from '../../../fake-kafka/cluster.js';
import { consumerView, coordinatorsView } from '../../../fake-kafka/views.js';

const join = (memberId: string) => () => ({
  groupId: 'g',
  sessionTimeoutMs: 6000,
  rebalanceTimeoutMs: 6000,
  memberId,
  groupInstanceId: null,
  protocolType: 'consumer',
  protocols: [{ name: 'range', metadata: Buffer.alloc(0) }],
});

describe('CoordinatorLink', () => {
  it('parks JoinGroup on a connection of its own, and follows the coordinator when it moves', async () => {
    const kafka = new FakeKafka([1, 2]);
    let coordinator = 1;
    kafka.coordinatorOf = () => coordinator;
    // Broker 1 is no longer the coordinator, though FindCoordinator still names it once.
    kafka.control('JoinGroup', () => ({ response: { ...kafka.group('g').classic.errorJoin(16) } }), { node: 1 });
    const coordinators = coordinatorsView(kafka);
    const link = new CoordinatorLink('g', consumerView(kafka), coordinators);

    const first = await link.request(JoinGroup, join(''), { parked: true, timeoutMs: 1_000 });
    expect(first.errorCode).toBe(16);
    // NOT_COORDINATOR: the cached coordinator is forgotten and the own connection to it dropped.
    expect(coordinators.cached('group', 'g')).toBeUndefined();
    const joins = () => kafka.requests('JoinGroup');
    expect(kafka.connections[joins()[0].connection].isClosed).toBe(true);

    coordinator = 2;
    const second = await link.request(JoinGroup, join(''), { parked: true, timeoutMs: 1_000 });
    // The group at broker 2 answers: a first join from v4 must come back with the member id it is given.
    expect(second.errorCode).toBe(79);
    expect(joins().map((r) => r.node)).toEqual([1, 2]);

    // Requests that answer at once use the shared connection.
    const beat = await link.request(
      Heartbeat,
      () => ({ groupId: 'g', generationId: 1, memberId: second.memberId, groupInstanceId: null }),
      { timeoutMs: 1_000 },
    );
    expect(beat.errorCode).toBe(25);
    const [heartbeat] = kafka.requests('Heartbeat');
    expect(heartbeat.node).toBe(2);
    expect(heartbeat.connection).not.toBe(joins()[1].connection);
    const own = kafka.connections[joins()[1].connection];
    expect(own.isClosed).toBe(false);
    await link.close();
    expect(own.isClosed).toBe(true);
  });
});
