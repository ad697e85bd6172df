import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Produce } from '../../../protocol/apis/produce.js';
import { Client } from '../../../src/client.js';
import { clientVersions } from '../../../src/network/api-versions.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';
import { readBack } from './read-back.js';
import { expectedRecord, specRecord } from './record-spec.js';

/**
 * The producer at every Produce version each broker accepts, forced: 3.9 takes v0-11, 4.x v3-13 (v13 names
 * topics by id). Kafka 4.x still lists v0-2 in ApiVersions (for old librdkafka) but closes the connection on
 * them (KIP-896), so "accepts" is the advertised range minus those on 4.x. v0-2 cannot carry idempotent batches,
 * so those run with idempotence off; from v3 on, the default idempotent producer runs.
 */
const generations = [
  { label: 'Kafka 4.x', address: bootstrap(), removed: [0, 1, 2] },
  { label: 'Kafka 3.9', address: legacyBootstrap(), removed: [] as number[] },
];

describe.each(generations)('Produce versions on $label', ({ address, removed }) => {
  let client: Client;
  const versions: number[] = [];
  beforeAll(async () => {
    if (address === null) return;
    client = new Client({ bootstrap: [address] });
    const conn = await client.cluster.anyConnection();
    const theirs = conn.apiVersions!.range(Produce.key)!;
    const ours = clientVersions(Produce);
    for (let v = Math.max(ours.min, theirs.min); v <= Math.min(ours.max, theirs.max); v++) {
      if (!removed.includes(v)) versions.push(v);
    }
  });
  afterAll(() => client?.close());

  it.skipIf(address === null)('every accepted version round-trips records, offsets and timestamps', async () => {
    expect(versions).toEqual(
      removed.length > 0 ? [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] : [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
    );
    for (const version of versions) {
      const topic = uniqueTopicName(`produce-v${version}`);
      await client.admin.createTopics([{ name: topic, numPartitions: 2, replicationFactor: 1 }]);
      const producer = client.producer({ produceVersion: version, ...(version < 3 ? { idempotent: false } : {}) });
      const sent = await Promise.all(Array.from({ length: 40 }, (_, i) => producer.send(specRecord(topic, i))));
      await producer.close();
      const { records, batches } = await readBack(client, topic);
      const byPosition = new Map(records.map((r) => [`${r.partition}/${r.offset}`, r]));
      expect(records, `v${version}`).toHaveLength(40);
      sent.forEach((m, i) => {
        expect(byPosition.get(`${m.partition}/${m.offset}`), `v${version} record ${i}`).toEqual(
          expectedRecord(i, m.partition, m.offset),
        );
      });
      expect(
        batches.every((b) => b.producerId >= 0n),
        `v${version} idempotent`,
      ).toBe(version >= 3);
    }
  });
});
