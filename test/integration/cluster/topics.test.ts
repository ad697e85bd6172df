import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isKafkaError, type KafkaError } from '../../../protocol/kafka-error.js';
import { TopicErrors } from '../../../src/admin/errors.js';
import { Client } from '../../../src/client.js';
import { ZERO_TOPIC_ID } from '../../../src/cluster/metadata.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';

const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
];

async function failure(promise: Promise<unknown>): Promise<KafkaError> {
  const err = await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  return err as KafkaError;
}

describe.each(generations)('topic admin on $label', ({ address }) => {
  let client: Client;
  let nodeId: number;

  beforeAll(async () => {
    if (address === null) return;
    client = new Client({ bootstrap: [address], clientId: 'tidemark-it' });
    const md = await client.metadata({ topics: [] });
    expect(md.brokers.size).toBe(1);
    nodeId = [...md.brokers.keys()][0];
  });
  afterAll(() => client?.close());

  it.skipIf(address === null)('creates a topic whose metadata is right at once', async () => {
    const name = uniqueTopicName('admin-create');
    const [created] = await client.admin.createTopics([{ name, numPartitions: 3, replicationFactor: 1 }]);
    expect(created).toMatchObject({ name, numPartitions: 3, replicationFactor: 1 });
    expect(created.topicId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(created.topicId).not.toBe(ZERO_TOPIC_ID);

    const md = await client.metadata({ topics: [name] });
    expect(md.clusterId).toMatch(/\S/);
    expect(md.controllerId).toBe(nodeId);
    const topic = md.topics.get(name)!;
    expect(topic).toMatchObject({ name, topicId: created.topicId, isInternal: false, error: undefined });
    expect(topic.partitions.map((p) => p.partition)).toEqual([0, 1, 2]);
    for (const p of topic.partitions) {
      expect(p).toMatchObject({
        leader: nodeId,
        replicas: [nodeId],
        isr: [nodeId],
        offlineReplicas: [],
        error: undefined,
      });
      expect(p.leaderEpoch).toBeGreaterThanOrEqual(0);
    }
    // Usable immediately: the leader is known and reachable.
    const leader = await client.cluster.leaderFor(name, 2);
    expect(leader.isReady).toBe(true);
    expect((await client.admin.describeTopics([name]))[0].topicId).toBe(created.topicId);
    expect(await client.admin.listTopics()).toContain(name);
  });

  it.skipIf(address === null)('reports a second creation as TOPIC_ALREADY_EXISTS', async () => {
    const name = uniqueTopicName('admin-twice');
    await client.admin.createTopics([{ name, numPartitions: 1, replicationFactor: 1 }]);
    const err = await failure(client.admin.createTopics([{ name, numPartitions: 1, replicationFactor: 1 }]));
    expect(isKafkaError(err, 'TOPIC_ALREADY_EXISTS')).toBe(true);
    expect(err.code).toBe(36);
    expect(err.retriable).toBe(false);
    expect(err.context.topic).toBe(name);
    expect(err.brokerMessage).toMatch(new RegExp(name));
  });

  it.skipIf(address === null)('reports invalid settings per topic, and several failures together', async () => {
    const good = uniqueTopicName('admin-good');
    const zero = uniqueTopicName('admin-zero');
    const tooMany = uniqueTopicName('admin-rf');
    const err = await failure(
      client.admin.createTopics([
        { name: good, numPartitions: 1, replicationFactor: 1 },
        { name: zero, numPartitions: 0, replicationFactor: 1 },
        { name: tooMany, numPartitions: 1, replicationFactor: 3 },
      ]),
    );
    expect(err).toBeInstanceOf(TopicErrors);
    const errors = (err as unknown as TopicErrors).errors;
    expect(errors.get(zero)?.errorName).toBe('INVALID_PARTITIONS');
    expect(errors.get(tooMany)?.errorName).toBe('INVALID_REPLICATION_FACTOR');
    expect((err as unknown as TopicErrors).succeeded).toMatchObject([{ name: good }]);
    expect(await client.admin.describeTopics([good])).toHaveLength(1);
  });

  it.skipIf(address === null)('creates with configs, broker defaults, and a replica assignment', async () => {
    const withConfig = uniqueTopicName('admin-config');
    const defaults = uniqueTopicName('admin-defaults');
    const assigned = uniqueTopicName('admin-assigned');
    const created = await client.admin.createTopics([
      { name: withConfig, numPartitions: 1, replicationFactor: 1, configs: { 'cleanup.policy': 'compact' } },
      { name: defaults },
      { name: assigned, replicaAssignment: [[nodeId], [nodeId]] },
    ]);
    const byName = new Map(created.map((c) => [c.name, c]));
    expect(byName.get(withConfig)?.configs?.find((c) => c.name === 'cleanup.policy')?.value).toBe('compact');
    // The harness broker's num.partitions is 1.
    expect(byName.get(defaults)).toMatchObject({ numPartitions: 1, replicationFactor: 1 });
    expect(byName.get(assigned)).toMatchObject({ numPartitions: 2, replicationFactor: 1 });
  });

  it.skipIf(address === null)('validates without creating', async () => {
    const name = uniqueTopicName('admin-dry');
    const [result] = await client.admin.createTopics([{ name, numPartitions: 2, replicationFactor: 1 }], {
      validateOnly: true,
    });
    expect(result.name).toBe(name);
    const err = await failure(client.admin.describeTopics([name]));
    expect(isKafkaError(err, 'UNKNOWN_TOPIC_OR_PARTITION')).toBe(true);
  });

  it.skipIf(address === null)('deletes a topic, which then reads UNKNOWN_TOPIC_OR_PARTITION', async () => {
    const name = uniqueTopicName('admin-delete');
    await client.admin.createTopics([{ name, numPartitions: 2, replicationFactor: 1 }]);
    expect(await client.admin.deleteTopics([name])).toEqual([{ name, topicId: expect.any(String) }]);

    const described = await failure(client.admin.describeTopics([name]));
    expect(isKafkaError(described, 'UNKNOWN_TOPIC_OR_PARTITION')).toBe(true);
    expect(described.context.topic).toBe(name);
    expect(described.retriable).toBe(true);
    const md = await client.metadata({ topics: [name] });
    expect(md.topics.get(name)?.error?.errorName).toBe('UNKNOWN_TOPIC_OR_PARTITION');
    expect(await client.admin.listTopics()).not.toContain(name);
    const leader = await failure(client.cluster.leaderFor(name, 0));
    expect(isKafkaError(leader, 'UNKNOWN_TOPIC_OR_PARTITION')).toBe(true);

    const again = await failure(client.admin.deleteTopics([name]));
    expect(isKafkaError(again, 'UNKNOWN_TOPIC_OR_PARTITION')).toBe(true);
  });

  it.skipIf(address === null)('deletes a topic by id', async () => {
    const name = uniqueTopicName('admin-delete-id');
    const [created] = await client.admin.createTopics([{ name, numPartitions: 1, replicationFactor: 1 }]);
    const [deleted] = await client.admin.deleteTopicsById([created.topicId!]);
    expect(deleted).toEqual({ name, topicId: created.topicId });
    expect(isKafkaError(await failure(client.admin.describeTopics([name])), 'UNKNOWN_TOPIC_OR_PARTITION')).toBe(true);
  });

  it.skipIf(address === null)('lists internal topics only when asked', async () => {
    const all = await client.admin.listTopics({ includeInternal: true });
    const visible = await client.admin.listTopics();
    expect(visible.every((t) => !t.startsWith('__'))).toBe(true);
    expect(all.length).toBeGreaterThanOrEqual(visible.length);
  });
});
