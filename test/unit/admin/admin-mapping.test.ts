import { describe, expect, it } from 'vitest';
import { TidemarkError } from '../../../codecs/errors.js';
import { authorizedOperations } from '../../../src/admin/cluster.js';
import {
  configSource,
  configType,
  resourceCode,
  resourceNode,
  resourceType,
} from '../../../src/admin/config-resource.js';
import { topicPartition } from '../../../src/cli/commands/cluster.js';
import { UsageError } from '../../../src/cli/errors.js';
import { Client } from '../../../src/client.js';

describe('config resources', () => {
  it("map to Kafka's ConfigResource.Type codes and back", () => {
    for (const [type, code] of [
      ['topic', 2],
      ['broker', 4],
      ['broker-logger', 8],
      ['client-metrics', 16],
      ['group', 32],
    ] as const) {
      expect(resourceCode(type)).toBe(code);
      expect(resourceType(code)).toBe(type);
    }
    expect(resourceType(99)).toBeUndefined();
    expect(() => resourceCode('cluster' as never)).toThrow(TidemarkError);
  });

  it('send a broker resource to that broker, the cluster-wide default and the rest to any broker', () => {
    expect(resourceNode({ type: 'broker', name: '3' })).toBe(3);
    expect(resourceNode({ type: 'broker-logger', name: '0' })).toBe(0);
    expect(resourceNode({ type: 'broker', name: '' })).toBeUndefined();
    expect(resourceNode({ type: 'topic', name: '7' })).toBeUndefined();
    expect(() => resourceNode({ type: 'broker', name: 'one' })).toThrow(/needs a broker id/);
  });

  it("name sources and types as Kafka's ConfigEntry does; unknown codes are UNKNOWN", () => {
    expect(configSource(1)).toBe('DYNAMIC_TOPIC_CONFIG');
    expect(configSource(5)).toBe('DEFAULT_CONFIG');
    expect(configSource(8)).toBe('DYNAMIC_GROUP_CONFIG');
    expect(configSource(42)).toBe('UNKNOWN');
    expect(configType(5)).toBe('LONG');
    expect(configType(9)).toBe('PASSWORD');
    expect(configType(-1)).toBe('UNKNOWN');
  });
});

describe('authorized operations', () => {
  it('decode the bit set; INT32_MIN means not asked for', () => {
    expect(authorizedOperations(-2147483648)).toBeUndefined();
    expect(authorizedOperations((1 << 7) | (1 << 8) | (1 << 3))).toEqual(['ALTER', 'DESCRIBE', 'READ']);
    expect(authorizedOperations(0)).toEqual([]);
  });
});

describe('CLI topic:partition', () => {
  it('splits at the last colon and checks the partition', () => {
    expect(topicPartition('--partition', 'orders:3')).toEqual({ topic: 'orders', partition: 3 });
    expect(topicPartition('--partition', 'a:b:0')).toEqual({ topic: 'a:b', partition: 0 });
    for (const bad of ['orders', ':1', 'orders:', 'orders:x', 'orders:-1']) {
      expect(() => topicPartition('--partition', bad)).toThrow(UsageError);
    }
  });
});

describe('admin input checked before anything is sent', () => {
  // Nothing listens there, and nothing is sent: every call below fails its checks first.
  const client = new Client({ bootstrap: '127.0.0.1:1' });

  it('refuses bad partitions, counts, offsets, resources and changes with a TidemarkError', async () => {
    const bad = [
      () => client.admin.createPartitions([]),
      () => client.admin.createPartitions([{ topic: 't', count: 0 }]),
      () =>
        client.admin.createPartitions([
          { topic: 't', count: 2 },
          { topic: 't', count: 3 },
        ]),
      () => client.admin.deleteRecords([{ topic: 't', partition: 0, before: -1n }]),
      () => client.admin.deleteRecords([{ topic: 't', partition: -1, before: 1n }]),
      () => client.admin.describeConfigs([]),
      () =>
        client.admin.describeConfigs([
          { type: 'topic', name: 't' },
          { type: 'topic', name: 't' },
        ]),
      () =>
        client.admin.incrementalAlterConfigs([
          { resource: { type: 'topic', name: 't' }, changes: [{ name: 'retention.ms', op: 'set' }] },
        ]),
      () => client.admin.alterPartitionReassignments([{ topic: 't', partition: 0, replicas: [] }]),
      () => client.admin.describeLogDirs([]),
    ];
    for (const call of bad) await expect(call()).rejects.toBeInstanceOf(TidemarkError);
    await client.close();
  });
});
