import { describe, expect, it } from 'vitest';
import { Heartbeat } from '../../../../protocol/apis/heartbeat.js';
import { JoinGroup } from '../../../../protocol/apis/join-group.js';
import { CoordinatorLink } from '../../../../src/consumer/group/coordinator-link.js';
import type { BrokerAddress } from '../../../../src/network/errors.js';
import { FakeConnection } from '../../cluster/fake-connection.js';
import { fakeGroupCluster, findAnswer } from '../../coordinator/fake-coordinators.js';

const VERSIONS = { FindCoordinator: 6, JoinGroup: 9, Heartbeat: 4 };

const join = (memberId: string) => () => ({
  groupId: 'g',
  sessionTimeoutMs: 6000,
  rebalanceTimeoutMs: 6000,
  memberId,
  groupInstanceId: null,
  protocolType: 'consumer',
  protocols: [],
});

describe('CoordinatorLink', () => {
  it('parks JoinGroup on a connection of its own, and follows the coordinator when it moves', async () => {
    let coordinator = 1;
    const { coordinators, node } = fakeGroupCluster({
      versions: VERSIONS,
      findHandler: (_a, _v, body) => findAnswer(body, () => coordinator),
      groupHandler: () => ({ errorCode: 0 }),
    });
    const dedicated: Array<FakeConnection & { isClosed: boolean }> = [];
    const cluster = {
      metadata: async () => {
        throw new Error('unused');
      },
      pool: {
        openDedicated: async (address: BrokerAddress) => {
          const answer = () =>
            address.nodeId === 1
              ? { errorCode: 16, generationId: -1, protocolName: null, leader: '', memberId: '', members: [] }
              : { errorCode: 0, generationId: 1, protocolName: 'range', leader: 'm', memberId: 'm', members: [] };
          const c = Object.assign(new FakeConnection(address.nodeId!, VERSIONS, answer), { isClosed: false });
          (c as any).close = async () => {
            c.isClosed = true;
          };
          dedicated.push(c);
          return c.asConnection;
        },
      },
    };
    const link = new CoordinatorLink('g', cluster, coordinators);

    const first = await link.request(JoinGroup, join(''), { parked: true, timeoutMs: 1_000 });
    expect(first.errorCode).toBe(16);
    // NOT_COORDINATOR: the cached coordinator is forgotten and the own connection to it dropped.
    expect(coordinators.cached('group', 'g')).toBeUndefined();
    expect(dedicated[0].isClosed).toBe(true);

    coordinator = 2;
    const second = await link.request(JoinGroup, join(''), { parked: true, timeoutMs: 1_000 });
    expect(second.errorCode).toBe(0);
    expect(dedicated.map((c) => c.nodeId)).toEqual([1, 2]);

    // Requests that answer at once use the shared connection.
    await link.request(Heartbeat, () => ({ groupId: 'g', generationId: 1, memberId: 'm', groupInstanceId: null }), {
      timeoutMs: 1_000,
    });
    expect(node(2).calls.map((c) => c.api)).toEqual(['Heartbeat']);
    expect(dedicated[1].calls.map((c) => c.api)).toEqual(['JoinGroup']);
    await link.close();
    expect(dedicated[1].isClosed).toBe(true);
  });
});
