import { describe, expect, it } from 'vitest';
import { kafkaError } from '../../../protocol/kafka-error.js';
import { Deadline } from '../../../src/cluster/deadline.js';
import { FakeKafka } from '../../fake-kafka/cluster.js';
import type { ControlHook } from '../../fake-kafka/control.js';
import { coordinatorsView } from '../../fake-kafka/views.js';

const deadline = (ms = 2_000) => new Deadline('Test', ms);

/** Brokers 1-3 of the fake cluster and a client's coordinator cache over them. */
function setup() {
  const kafka = new FakeKafka([1, 2, 3]);
  return { kafka, coordinators: coordinatorsView(kafka), finds: () => kafka.requests('FindCoordinator') };
}

/** A FindCoordinator (v4+) answer refusing every key with `errorCode`. */
const refusing =
  (errorCode: (n: number) => number): ControlHook =>
  ({ body }) => {
    const code = errorCode(body.coordinatorKeys.length);
    return {
      response: {
        throttleTimeMs: 0,
        coordinators: body.coordinatorKeys.map((key: string) => ({
          key,
          nodeId: -1,
          host: '',
          port: -1,
          errorCode: code,
          errorMessage: null,
        })),
      },
    };
  };

describe('Coordinators', () => {
  it('batches keys asked for in the same tick into one FindCoordinator (v4+) and caches the answers', async () => {
    const { coordinators, finds } = setup();
    const [a, b] = await Promise.all([
      coordinators.find('group', ['g1', 'g2'], deadline()),
      coordinators.find('group', ['g2', 'g3'], deadline()),
    ]);
    expect(finds()).toHaveLength(1);
    expect(finds()[0].body.coordinatorKeys).toEqual(['g1', 'g2', 'g3']);
    expect(finds()[0].body.keyType).toBe(0);
    expect([...a.keys(), ...b.keys()]).toEqual(['g1', 'g2', 'g2', 'g3']);
    await coordinators.find('group', ['g1', 'g3'], deadline());
    expect(finds()).toHaveLength(1);
    expect(coordinators.cached('group', 'g1')?.nodeId).toBe(1);
  });

  it('asks one key per request before v4, and looks up transaction coordinators with key type 1', async () => {
    const { kafka, coordinators, finds } = setup();
    kafka.versions.FindCoordinator = 3;
    kafka.coordinatorOf = (key, keyType) => (key === 'tx' && keyType === 1 ? 2 : 1);
    const groups = await coordinators.find('group', ['g1', 'g2'], deadline());
    const tx = await coordinators.find('transaction', ['tx'], deadline());
    expect(finds().map((r) => [r.body.key, r.body.keyType])).toEqual([
      ['g1', 0],
      ['g2', 0],
      ['tx', 1],
    ]);
    expect(groups.get('g2')?.nodeId).toBe(1);
    expect(tx.get('tx')?.nodeId).toBe(2);
  });

  it('asks again with backoff while the coordinator is not available or loading', async () => {
    const { kafka, coordinators, finds } = setup();
    kafka.coordinatorOf = () => 3;
    let n = 0;
    kafka.control(
      'FindCoordinator',
      refusing(() => (++n === 1 ? 15 : 14)),
      { times: 2 },
    );
    const found = await coordinators.find('group', ['g'], deadline());
    expect(found.get('g')?.nodeId).toBe(3);
    expect(finds()).toHaveLength(3);
  });

  it('throws a lookup error that is not retriable', async () => {
    const { kafka, coordinators } = setup();
    kafka.control(
      'FindCoordinator',
      refusing(() => 30),
    );
    await expect(coordinators.find('group', ['g'], deadline())).rejects.toMatchObject({
      errorName: 'GROUP_AUTHORIZATION_FAILED',
    });
  });

  it('settles on time when the coordinator never becomes available', async () => {
    const { kafka, coordinators } = setup();
    kafka.control(
      'FindCoordinator',
      refusing(() => 15),
    );
    const started = Date.now();
    const err = await coordinators.find('group', ['g'], deadline(150)).catch((e) => e);
    expect(err.name).toBe('CallTimeoutError');
    expect(err.message).toContain('COORDINATOR_NOT_AVAILABLE');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('rediscovers after NOT_COORDINATOR and retries the call at the new coordinator', async () => {
    const { kafka, coordinators, finds } = setup();
    const seen: number[] = [];
    const result = await coordinators.call('group', 'g', deadline(), async (connection, n) => {
      seen.push(n.nodeId);
      expect(connection.address).toBe(`fake-${n.nodeId}:9092`);
      if (n.nodeId === 1) {
        kafka.coordinatorOf = () => 2;
        throw kafkaError(16);
      }
      return 'done';
    });
    expect(result).toBe('done');
    expect(seen).toEqual([1, 2]);
    expect(finds()).toHaveLength(2);
    expect(coordinators.cached('group', 'g')?.nodeId).toBe(2);
  });

  it('looks the coordinator up again while its broker is down, and succeeds once it is back', async () => {
    const { kafka, coordinators, finds } = setup();
    kafka.down.add(1);
    setTimeout(() => kafka.down.delete(1), 80);
    const result = await coordinators.call('group', 'g', deadline(), async () => 'ok');
    expect(result).toBe('ok');
    // Each failed connect dropped the cached answer, so each retry asked where the coordinator is (broker 2).
    expect(finds().length).toBeGreaterThanOrEqual(2);
    expect(finds()[0].node).toBe(2);
  });
});
