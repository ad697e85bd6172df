import { beforeAll, describe, expect, it } from 'vitest';
import { toJson } from '../../../src/cli/format.js';
import type { Client } from '../../../src/client.js';
import type { KafkaCluster } from '../../harness/cluster.js';
import { uniqueTopicName } from '../../harness/context.js';
import { runCli } from '../cli/setup.js';
import { useJavaAdmin } from './java-admin.js';
import { useThreeNodeCluster, waitUntil } from './three-node.js';

/**
 * Replica moves on a three-node Kafka 4.x cluster: a move held in progress by a replication throttle is
 * listed as Java's AdminClient lists it, cancelled, then run to completion and followed by a preferred
 * leader election.
 */

const javaAdmin = useJavaAdmin();
const threeNodes = useThreeNodeCluster('admin-reassign');
let cluster: KafkaCluster;
let client: Client;
beforeAll(() => {
  ({ cluster, client } = threeNodes());
});

function cli(argv: string[]) {
  return runCli([...argv, '--bootstrap', cluster.bootstrap, '--timeout', '30000']);
}

const THROTTLE = ['leader.replication.throttled.rate', 'follower.replication.throttled.rate'];

async function throttle(on: boolean, topic: string, brokers: number[]): Promise<void> {
  await client.admin.incrementalAlterConfigs([
    ...brokers.map((id) => ({
      resource: { type: 'broker' as const, name: String(id) },
      changes: THROTTLE.map((name) =>
        on ? { name, op: 'set' as const, value: '1024' } : { name, op: 'delete' as const },
      ),
    })),
    {
      resource: { type: 'topic', name: topic },
      changes: ['leader.replication.throttled.replicas', 'follower.replication.throttled.replicas'].map((name) =>
        on ? { name, op: 'set' as const, value: '*' } : { name, op: 'delete' as const },
      ),
    },
  ]);
}

describe('partition reassignment and leader election, three-node Kafka 4.x cluster', () => {
  it('a throttled move is listed as Java lists it (and as tidemark reassign list --json), then cancelled', {
    timeout: 240_000,
  }, async () => {
    const [a, b] = (await client.admin.describeCluster()).brokers.map((x) => x.nodeId);
    const topic = uniqueTopicName('admin-move');
    await client.admin.createTopics([{ name: topic, replicaAssignment: [[a]] }]);
    const producer = client.producer();
    const value = Buffer.alloc(20_000, 7);
    await Promise.all(Array.from({ length: 100 }, () => producer.send({ topic, partition: 0, value })));
    await producer.close();
    await throttle(true, topic, [a, b]);
    try {
      expect(await client.admin.alterPartitionReassignments([{ topic, partition: 0, replicas: [b] }])).toEqual([
        { topic, partition: 0 },
      ]);
      const ours = await client.admin.listPartitionReassignments();
      const theirs = await javaAdmin().call<unknown[]>(cluster.bootstrap, 'listPartitionReassignments');
      expect(ours).toEqual(theirs);
      expect(ours.find((r) => r.topic === topic)).toEqual({
        topic,
        partition: 0,
        replicas: [b, a],
        addingReplicas: [b],
        removingReplicas: [a],
      });
      const listed = await cli(['reassign', 'list', '--json']);
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual(JSON.parse(toJson(ours)));

      const cancelled = await cli(['reassign', 'cancel', '--partition', `${topic}:0`]);
      expect(cancelled.stdout).toBe(`cancelled the move of ${topic}-0\n`);
      expect(await client.admin.listPartitionReassignments([{ topic, partition: 0 }])).toEqual([]);
      await waitUntil('replicas back to the original broker', async () => {
        const [p] = await javaAdmin().call<{ replicas: number[] }[]>(cluster.bootstrap, 'describeTopic', { topic });
        return JSON.stringify(p.replicas) === JSON.stringify([a]);
      });
    } finally {
      await throttle(false, topic, [a, b]);
    }
  });

  it('a move runs to completion; a preferred election then moves leadership as Java sees it', {
    timeout: 240_000,
  }, async () => {
    const [a, b] = (await client.admin.describeCluster()).brokers.map((x) => x.nodeId);
    const topic = uniqueTopicName('admin-elect');
    await client.admin.createTopics([{ name: topic, replicaAssignment: [[a, b]] }]);
    // b first: the preferred leader becomes b, while a (in the ISR) stays the leader.
    const started = await cli(['reassign', 'start', '--move', `${topic}:0=${b},${a}`, '--json']);
    expect(JSON.parse(started.stdout)).toEqual([{ topic, partition: 0 }]);
    await waitUntil('the move to finish', async () => {
      const [p] = await javaAdmin().call<{ replicas: number[] }[]>(cluster.bootstrap, 'describeTopic', { topic });
      return JSON.stringify(p.replicas) === JSON.stringify([b, a]);
    });
    await waitUntil('no move listed', async () => (await client.admin.listPartitionReassignments()).length === 0);

    const before = await javaAdmin().call<{ leader: number }[]>(cluster.bootstrap, 'describeTopic', { topic });
    const elected = await client.admin.electLeaders('preferred', [{ topic, partition: 0 }]);
    expect(elected).toEqual([{ topic, partition: 0, elected: before[0].leader !== b }]);
    await waitUntil('b leads', async () => {
      const [p] = await javaAdmin().call<{ leader: number }[]>(cluster.bootstrap, 'describeTopic', { topic });
      return p.leader === b;
    });
    // Electing again is not needed: Java reports ElectionNotNeededException, tidemark elected: false.
    const again = await javaAdmin().call<{ error: string | null }[]>(cluster.bootstrap, 'electLeaders', {
      type: 'preferred',
      partitions: [{ topic, partition: 0 }],
    });
    expect(again).toEqual([{ topic, partition: 0, error: 'ElectionNotNeededException' }]);
    const viaCli = await cli(['cluster', 'elect-leaders', '--partition', `${topic}:0`, '--json']);
    expect(JSON.parse(viaCli.stdout)).toEqual([{ topic, partition: 0, elected: false }]);
  });

  it("describeCluster lists the three brokers as Java's describeCluster does", async () => {
    const ours = await client.admin.describeCluster();
    const theirs = await javaAdmin().call<{ clusterId: string; brokers: { id: number }[] }>(
      cluster.bootstrap,
      'describeCluster',
    );
    expect(ours.clusterId).toBe(theirs.clusterId);
    expect(ours.clusterId).toBe(cluster.clusterId);
    expect(ours.brokers.map((x) => x.nodeId)).toEqual(theirs.brokers.map((x) => x.id).sort((p, q) => p - q));
    expect(ours.brokers).toHaveLength(3);
    // A KRaft broker names some live broker as the controller (it forwards to the quorum).
    expect(ours.brokers.map((x) => x.nodeId)).toContain(ours.controller);
  });
});
