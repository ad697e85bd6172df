import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateTopics } from '../../../protocol/apis/create-topics.js';
import { DeleteTopics } from '../../../protocol/apis/delete-topics.js';
import { Metadata } from '../../../protocol/apis/metadata.js';
import { isKafkaError, type KafkaError } from '../../../protocol/kafka-error.js';
import type { ApiDef } from '../../../protocol/schema.js';
import { Client } from '../../../src/client.js';
import { fetchMetadata } from '../../../src/cluster/metadata.js';
import { clientVersions } from '../../../src/network/api-versions.js';
import type { Connection } from '../../../src/network/connection.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';

/**
 * Every version of Metadata, CreateTopics and DeleteTopics that a broker accepts, sent with the forced-version
 * option: what proves the definitions against each broker generation's actual bytes.
 */
const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
];

function sharedVersions(conn: Connection, api: ApiDef): number[] {
  const ours = clientVersions(api);
  const theirs = conn.apiVersions!.range(api.key)!;
  const versions: number[] = [];
  for (let v = Math.max(ours.min, theirs.min); v <= Math.min(ours.max, theirs.max); v++) versions.push(v);
  return versions;
}

async function failure(promise: Promise<unknown>): Promise<KafkaError> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: KafkaError) => e,
  );
}

describe.each(generations)('every shared version on $label', ({ address }) => {
  let client: Client;
  let conn: Connection;
  let nodeId: number;

  beforeAll(async () => {
    if (address === null) return;
    client = new Client({ bootstrap: [address] });
    conn = await client.cluster.anyConnection();
    nodeId = [...(await client.metadata({ topics: [] })).brokers.keys()][0];
  });
  afterAll(() => client?.close());

  it.skipIf(address === null)('Metadata', async () => {
    const name = uniqueTopicName('md-versions');
    const [created] = await client.admin.createTopics([{ name, numPartitions: 3, replicationFactor: 1 }]);
    const versions = sharedVersions(conn, Metadata);
    expect(versions.length).toBeGreaterThanOrEqual(13);
    for (const version of versions) {
      const at = `Metadata v${version}`;
      const md = await fetchMetadata(conn, { topics: [name], version });
      expect(md.version).toBe(version);
      expect(md.brokers.get(nodeId), at).toMatchObject({ nodeId, host: conn.host, port: conn.port, rack: null });
      expect(md.clusterId !== null, at).toBe(version >= 2);
      expect(md.controllerId, at).toBe(version >= 1 ? nodeId : -1);
      const topic = md.topics.get(name)!;
      expect(topic.error, at).toBeUndefined();
      expect(topic.topicId, at).toBe(version >= 10 ? created.topicId : undefined);
      expect(topic.isInternal, at).toBe(false);
      expect(
        topic.partitions.map((p) => p.partition),
        at,
      ).toEqual([0, 1, 2]);
      for (const p of topic.partitions) {
        expect(p, at).toMatchObject({ leader: nodeId, replicas: [nodeId], isr: [nodeId], offlineReplicas: [] });
        if (version >= 7) expect(p.leaderEpoch, at).toBeGreaterThanOrEqual(0);
        else expect(p.leaderEpoch, at).toBe(-1);
      }

      const all = await fetchMetadata(conn, { version });
      expect(all.topics.has(name), `${at} all topics`).toBe(true);
      const brokersOnly = await fetchMetadata(conn, { topics: [], version });
      expect(brokersOnly.topics.size, `${at} no topics`).toBe(0);
      expect(brokersOnly.brokers.size, `${at} no topics`).toBe(1);

      const missing = uniqueTopicName('md-missing');
      const unknown = await fetchMetadata(conn, { topics: [missing], version });
      expect(unknown.topics.get(missing)?.error?.errorName, `${at} unknown topic`).toBe('UNKNOWN_TOPIC_OR_PARTITION');

      if (version >= 12) {
        const byId = await fetchMetadata(conn, { topicIds: [created.topicId!], version });
        expect(byId.topics.get(name)?.partitions, `${at} by id`).toHaveLength(3);
      }
    }
  });

  it.skipIf(address === null)('CreateTopics', async () => {
    const versions = sharedVersions(conn, CreateTopics);
    expect(versions.length).toBeGreaterThanOrEqual(6);
    for (const version of versions) {
      const at = `CreateTopics v${version}`;
      const name = uniqueTopicName(`create-v${version}`);
      const spec = { name, numPartitions: 2, replicationFactor: 1, configs: { 'retention.ms': '3600000' } };
      const [created] = await client.admin.createTopics([spec], { version });
      expect(created, at).toMatchObject({ name, numPartitions: 2, replicationFactor: 1 });
      expect(created.topicId, at).toMatch(/^[A-Za-z0-9_-]{22}$/);
      if (version >= 5) {
        expect(
          created.configs?.find((c) => c.name === 'retention.ms'),
          at,
        ).toMatchObject({
          value: '3600000',
          readOnly: false,
          isSensitive: false,
        });
      } else expect(created.configs, at).toBeUndefined();
      const described = (await client.admin.describeTopics([name]))[0];
      expect(described.partitions, at).toHaveLength(2);
      expect(described.topicId, at).toBe(created.topicId);

      const twice = await failure(client.admin.createTopics([spec], { version }));
      expect(isKafkaError(twice, 'TOPIC_ALREADY_EXISTS'), at).toBe(true);
      expect(twice.context.version, at).toBe(version);

      if (version >= 1) {
        const dry = uniqueTopicName(`create-dry-v${version}`);
        await client.admin.createTopics([{ name: dry, numPartitions: 1, replicationFactor: 1 }], {
          version,
          validateOnly: true,
        });
        const absent = await failure(client.admin.describeTopics([dry]));
        expect(isKafkaError(absent, 'UNKNOWN_TOPIC_OR_PARTITION'), `${at} validateOnly`).toBe(true);
      }
      if (version >= 4) {
        const defaults = uniqueTopicName(`create-defaults-v${version}`);
        const [d] = await client.admin.createTopics([{ name: defaults }], { version });
        expect(d, `${at} broker defaults`).toMatchObject({ numPartitions: 1, replicationFactor: 1 });
      }
    }
  });

  it.skipIf(address === null)('DeleteTopics', async () => {
    const versions = sharedVersions(conn, DeleteTopics);
    expect(versions.length).toBeGreaterThanOrEqual(6);
    for (const version of versions) {
      const at = `DeleteTopics v${version}`;
      const name = uniqueTopicName(`delete-v${version}`);
      const [created] = await client.admin.createTopics([{ name, numPartitions: 1, replicationFactor: 1 }]);
      const [deleted] = await client.admin.deleteTopics([name], { version });
      expect(deleted, at).toEqual({ name, topicId: version >= 6 ? created.topicId : undefined });
      expect(isKafkaError(await failure(client.admin.describeTopics([name])), 'UNKNOWN_TOPIC_OR_PARTITION'), at).toBe(
        true,
      );
      const again = await failure(client.admin.deleteTopics([name], { version }));
      expect(isKafkaError(again, 'UNKNOWN_TOPIC_OR_PARTITION'), `${at} twice`).toBe(true);

      if (version >= 6) {
        const byId = uniqueTopicName(`delete-id-v${version}`);
        const [c] = await client.admin.createTopics([{ name: byId, numPartitions: 1, replicationFactor: 1 }]);
        expect(await client.admin.deleteTopicsById([c.topicId!], { version }), `${at} by id`).toEqual([
          { name: byId, topicId: c.topicId },
        ]);
      } else {
        await expect(client.admin.deleteTopicsById(['AAAAAAAAAAAAAAAAAAAAAQ'], { version })).rejects.toThrow(
          /needs DeleteTopics v6/,
        );
      }
    }
  });
});
