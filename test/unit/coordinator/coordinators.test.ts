import { describe, expect, it } from 'vitest';
import { kafkaError } from '../../../protocol/kafka-error.js';
import { Deadline } from '../../../src/cluster/deadline.js';
import { fakeGroupCluster, findAnswer } from './fake-coordinators.js';

const deadline = (ms = 2_000) => new Deadline('Test', ms);

describe('Coordinators', () => {
  it('batches keys asked for in the same tick into one FindCoordinator (v4+) and caches the answers', async () => {
    const { coordinators, finder } = fakeGroupCluster({ findHandler: (_a, _v, body) => findAnswer(body, 1) });
    const [a, b] = await Promise.all([
      coordinators.find('group', ['g1', 'g2'], deadline()),
      coordinators.find('group', ['g2', 'g3'], deadline()),
    ]);
    expect(finder.calls).toHaveLength(1);
    expect(finder.calls[0].body.coordinatorKeys).toEqual(['g1', 'g2', 'g3']);
    expect(finder.calls[0].body.keyType).toBe(0);
    expect([...a.keys(), ...b.keys()]).toEqual(['g1', 'g2', 'g2', 'g3']);
    await coordinators.find('group', ['g1', 'g3'], deadline());
    expect(finder.calls).toHaveLength(1);
    expect(coordinators.cached('group', 'g1')?.nodeId).toBe(1);
  });

  it('asks one key per request before v4, and looks up transaction coordinators with key type 1', async () => {
    const { coordinators, finder } = fakeGroupCluster({
      versions: { FindCoordinator: 3 },
      findHandler: (_a, _v, body) => ({ errorCode: 0, nodeId: body.key === 'tx' ? 2 : 1, host: 'h', port: 1 }),
    });
    const groups = await coordinators.find('group', ['g1', 'g2'], deadline());
    const tx = await coordinators.find('transaction', ['tx'], deadline());
    expect(finder.calls.map((c) => [c.body.key, c.body.keyType])).toEqual([
      ['g1', 0],
      ['g2', 0],
      ['tx', 1],
    ]);
    expect(groups.get('g2')?.nodeId).toBe(1);
    expect(tx.get('tx')?.nodeId).toBe(2);
  });

  it('asks again with backoff while the coordinator is not available or loading', async () => {
    let n = 0;
    const { coordinators, finder } = fakeGroupCluster({
      findHandler: (_a, _v, body) => {
        n++;
        if (n <= 2) {
          return { coordinators: [{ key: 'g', nodeId: -1, host: '', port: -1, errorCode: n === 1 ? 15 : 14 }] };
        }
        return findAnswer(body, 3);
      },
    });
    const found = await coordinators.find('group', ['g'], deadline());
    expect(found.get('g')?.nodeId).toBe(3);
    expect(finder.calls).toHaveLength(3);
  });

  it('throws a lookup error that is not retriable', async () => {
    const { coordinators } = fakeGroupCluster({
      findHandler: () => ({ coordinators: [{ key: 'g', nodeId: -1, host: '', port: -1, errorCode: 30 }] }),
    });
    await expect(coordinators.find('group', ['g'], deadline())).rejects.toMatchObject({
      errorName: 'GROUP_AUTHORIZATION_FAILED',
    });
  });

  it('settles on time when the coordinator never becomes available', async () => {
    const { coordinators } = fakeGroupCluster({
      findHandler: () => ({ coordinators: [{ key: 'g', nodeId: -1, host: '', port: -1, errorCode: 15 }] }),
    });
    const started = Date.now();
    const err = await coordinators.find('group', ['g'], deadline(150)).catch((e) => e);
    expect(err.name).toBe('CallTimeoutError');
    expect(err.message).toContain('COORDINATOR_NOT_AVAILABLE');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('rediscovers after NOT_COORDINATOR and retries the call at the new coordinator', async () => {
    let moved = false;
    const { coordinators, finder, node } = fakeGroupCluster({
      findHandler: (_a, _v, body) => findAnswer(body, moved ? 2 : 1),
    });
    const seen: number[] = [];
    const result = await coordinators.call('group', 'g', deadline(), async (_connection, n) => {
      seen.push(n.nodeId);
      if (n.nodeId === 1) {
        moved = true;
        throw kafkaError(16);
      }
      return 'done';
    });
    expect(result).toBe('done');
    expect(seen).toEqual([1, 2]);
    expect(finder.calls).toHaveLength(2);
    expect(coordinators.cached('group', 'g')?.nodeId).toBe(2);
    expect(node(2)).toBeDefined();
  });

  it('looks the coordinator up again while its broker is down, and succeeds once it is back', async () => {
    const { coordinators, finder, down } = fakeGroupCluster({ findHandler: (_a, _v, body) => findAnswer(body, 1) });
    down.add(1);
    setTimeout(() => down.delete(1), 80);
    const result = await coordinators.call('group', 'g', deadline(), async () => 'ok');
    expect(result).toBe('ok');
    // Each failed connect dropped the cached answer, so each retry asked where the coordinator is.
    expect(finder.calls.length).toBeGreaterThanOrEqual(2);
  });
});
