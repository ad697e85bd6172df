import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { eventually } from '../../harness/eventually.js';
import { brokerId, newClient, newTopic, TARGETS } from './setup.js';

/**
 * Every version of the new admin APIs that each broker serves, each one sent for real: the answer must carry
 * the same result whatever the version (fields a version lacks take their defaults).
 */
describe.each(TARGETS)('admin API versions against $label', ({ at, legacy }) => {
  let client: Client;
  let broker: number;

  beforeAll(async () => {
    client = newClient(at());
    broker = Number(await brokerId(client));
  });
  afterAll(async () => {
    await client?.close();
  });

  it('AlterConfigs v0-2 and IncrementalAlterConfigs v0-1 change a topic config', async () => {
    const topic = await newTopic(client, 'versions-alter');
    const resource = { type: 'topic' as const, name: topic };
    const retention = async () =>
      (await client.admin.describeConfigs([resource], { configNames: ['retention.ms'] }))[0].configs[0].value;
    for (const version of [0, 1, 2]) {
      await client.admin.alterConfigs([{ resource, configs: { 'retention.ms': String(1000 + version) } }], { version });
      // The broker answers once the controller has the change and describes it from its own replay of it.
      await eventually(async () => expect(await retention()).toBe(String(1000 + version)));
    }
    for (const version of [0, 1]) {
      await client.admin.incrementalAlterConfigs(
        [{ resource, changes: [{ name: 'retention.ms', op: 'set', value: String(2000 + version) }] }],
        { version },
      );
      await eventually(async () => expect(await retention()).toBe(String(2000 + version)));
    }
  });

  it('CreatePartitions v0-3 each add a partition', async () => {
    const topic = await newTopic(client, 'versions-partitions');
    for (const version of [0, 1, 2, 3]) {
      await client.admin.createPartitions([{ topic, count: version + 2 }], { version });
      await eventually(async () =>
        expect((await client.admin.describeTopics([topic]))[0].partitions).toHaveLength(version + 2),
      );
    }
  });

  it('DeleteRecords v0-2 each move the low watermark', async () => {
    const topic = await newTopic(client, 'versions-delete');
    const producer = client.producer();
    for (let i = 0; i < 5; i++) await producer.send({ topic, partition: 0, value: Buffer.from([i]) });
    await producer.close();
    for (const version of [0, 1, 2]) {
      const before = BigInt(version + 1);
      expect(await client.admin.deleteRecords([{ topic, partition: 0, before }], { version })).toEqual([
        { topic, partition: 0, lowWatermark: before },
      ]);
    }
  });

  it('DescribeCluster, DescribeLogDirs, ElectLeaders and ListPartitionReassignments in every version', async () => {
    const expected = await client.admin.describeCluster();
    for (const version of legacy ? [0, 1] : [0, 1, 2]) {
      expect(await client.admin.describeCluster({ version })).toEqual(expected);
    }
    if (legacy) {
      await expect(client.admin.describeCluster({ includeFencedBrokers: true })).rejects.toThrow(
        /needs DescribeCluster v2/,
      );
    } else {
      const withFenced = await client.admin.describeCluster({ includeFencedBrokers: true });
      expect(withFenced.brokers.map((b) => [b.nodeId, b.isFenced])).toEqual([[broker, false]]);
    }
    const topic = await newTopic(client, 'versions-cluster');
    for (const version of legacy ? [0, 1, 2, 3, 4] : [1, 2, 3, 4, 5]) {
      const dirs = await client.admin.describeLogDirs([broker], { version });
      const replicas = dirs.flatMap((d) => d.replicas.filter((r) => r.topic === topic));
      expect(replicas.map((r) => r.partition)).toEqual([0]);
      // Volume sizes arrived in v4; before, they default to -1.
      expect(dirs[0].totalBytes > 0n).toBe(version >= 4);
    }
    for (const version of [0, 1, 2]) {
      expect(await client.admin.electLeaders('preferred', [{ topic, partition: 0 }], { version })).toEqual([
        { topic, partition: 0, elected: false },
      ]);
    }
    expect(await client.admin.listPartitionReassignments([{ topic, partition: 0 }], { version: 0 })).toEqual([]);
  });

  it('AlterPartitionReassignments in every version refuses a broker that does not exist', async () => {
    const topic = await newTopic(client, 'versions-reassign');
    for (const version of legacy ? [0] : [0, 1]) {
      await expect(
        client.admin.alterPartitionReassignments([{ topic, partition: 0, replicas: [4242] }], { version }),
      ).rejects.toMatchObject({ errorName: 'INVALID_REPLICA_ASSIGNMENT', context: { version } });
    }
  });

  it('an unclean election of a partition whose leader is alive is not needed', async () => {
    const topic = await newTopic(client, 'versions-unclean');
    expect(await client.admin.electLeaders('unclean', [{ topic, partition: 0 }])).toEqual([
      { topic, partition: 0, elected: false },
    ]);
  });

  it('broker-logger levels can be changed and read back', async () => {
    const resource = { type: 'broker-logger' as const, name: String(broker) };
    const logger = 'kafka.request.logger';
    const level = async () => (await client.admin.describeConfigs([resource], { configNames: [logger] }))[0].configs[0];
    const original = (await level()).value ?? 'INFO';
    const target = original === 'DEBUG' ? 'TRACE' : 'DEBUG';
    await client.admin.incrementalAlterConfigs([{ resource, changes: [{ name: logger, op: 'set', value: target }] }]);
    try {
      expect(await level()).toMatchObject({ value: target, source: 'DYNAMIC_BROKER_LOGGER_CONFIG' });
    } finally {
      // The shared broker keeps its level.
      await client.admin.incrementalAlterConfigs([
        { resource, changes: [{ name: logger, op: 'set', value: original }] },
      ]);
    }
    expect((await level()).value).toBe(original);
  });
});
