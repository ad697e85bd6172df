import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompressionCodec } from '../../../codecs/compression/index.js';
import { Client } from '../../../src/client.js';
import { ConfigError } from '../../../src/options/config-error.js';
import type { SendOptions } from '../../../src/producer/send-options.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';
import { readBack } from './read-back.js';

/**
 * Per-send acks and compression (src/producer/send-options.ts) against the real broker: one producer sends
 * groups of records with acks 0, 1 and 'all' and compression none, gzip and lz4 mixed into one partition at
 * once; the stored batches carry each group's codec and hold records of one group only, the records keep their
 * send order, and acks 0 sends resolve without an offset. An idempotent producer refuses acks below 'all'.
 */
const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
];

const GROUPS: SendOptions[] = [
  {},
  { compression: 'gzip' },
  { acks: 0, compression: 'lz4' },
  { acks: 'all' },
  { acks: 'all', compression: 'gzip' },
  { acks: 0 },
  { compression: 'lz4' },
];
const PER_GROUP = 5;

describe.each(generations)('per-send acks and compression on $label', ({ address }) => {
  let client: Client;
  beforeAll(() => {
    if (address !== null) client = new Client({ bootstrap: [address] });
  });
  afterAll(() => client?.close());

  it.skipIf(address === null)('one producer, mixed settings, one partition', { timeout: 60_000 }, async () => {
    const topic = uniqueTopicName('send-options');
    await client.admin.createTopics([{ name: topic, numPartitions: 1, replicationFactor: 1 }]);
    const producer = client.producer({ acks: 1, idempotent: false, lingerMs: 20 });
    const sends = GROUPS.flatMap((options, g) =>
      Array.from({ length: PER_GROUP }, (_, i) =>
        producer.send({ topic, partition: 0, value: `g${g}-${i}` }, options).then((m) => ({ g, offset: m.offset })),
      ),
    );
    const results = await Promise.all(sends);
    await producer.close();

    for (const { g, offset } of results) {
      if (GROUPS[g].acks === 0) expect(offset).toBe(-1n);
      else expect(offset).toBeGreaterThanOrEqual(0n);
    }
    const { records, batches } = await readBack(client, topic);
    const sentOrder = GROUPS.flatMap((_, g) => Array.from({ length: PER_GROUP }, (_, i) => `g${g}-${i}`));
    const value = (v: string | null) => Buffer.from(v ?? '', 'base64').toString();
    // Order kept across settings: the partition holds the records exactly as sent.
    expect(records.map((r) => value(r.value))).toEqual(sentOrder);
    // Offsets reported for acked sends are where the records are.
    for (const [i, { offset }] of results.entries()) if (offset >= 0n) expect(offset).toBe(records[i].offset);
    // Each stored batch holds one group, written with that group's codec.
    const groupsSeen = new Set<number>();
    for (const batch of batches) {
      const groups = new Set(batch.records.map((r) => Number(/^g(\d+)-/.exec(r.value?.toString() ?? '')?.[1])));
      expect(groups.size).toBe(1);
      const g = [...groups][0];
      groupsSeen.add(g);
      expect(batch.compression).toBe(CompressionCodec[GROUPS[g].compression ?? 'none']);
    }
    expect(groupsSeen.size).toBe(GROUPS.length);
  });

  it.skipIf(address === null)("an idempotent producer refuses a send's acks below 'all'", async () => {
    const topic = uniqueTopicName('send-options-idem');
    const producer = client.producer();
    try {
      await expect(producer.send({ topic, value: 'x' }, { acks: 1 })).rejects.toThrow(ConfigError);
      await expect(producer.send({ topic, value: 'x' }, { compression: 'zip' as 'gzip' })).rejects.toThrow(
        /compression/,
      );
    } finally {
      await producer.close();
    }
  });
});
