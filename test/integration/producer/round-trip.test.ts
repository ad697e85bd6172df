import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompressionCodec, zstdCompressionAvailable } from '../../../codecs/compression/index.js';
import { Client } from '../../../src/client.js';
import { ConfigError } from '../../../src/options/config-error.js';
import type { RecordMetadata } from '../../../src/producer/batch.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';
import { readBack } from './read-back.js';
import { expectedRecord, specRecord } from './record-spec.js';

/**
 * Records produced by tidemark, read back by tidemark's Fetch and decoder: keys, values, headers, timestamps
 * and offsets identical, for each compression codec, on both broker generations.
 */
const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
];
const codecs = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const;
const COUNT = 400;

describe.each(generations)('round trip on $label', ({ address }) => {
  let client: Client;
  beforeAll(() => {
    if (address !== null) client = new Client({ bootstrap: [address] });
  });
  afterAll(() => client?.close());

  it.skipIf(address === null).each(codecs)('compression %s', async (compression) => {
    if (compression === 'zstd' && !zstdCompressionAvailable) {
      // This Node cannot write zstd: the producer says so up front rather than failing sends.
      expect(() => client.producer({ compression })).toThrow(ConfigError);
      return;
    }
    const topic = uniqueTopicName(`produce-rt-${compression}`);
    await client.admin.createTopics([{ name: topic, numPartitions: 3, replicationFactor: 1 }]);
    const producer = client.producer({ compression, lingerMs: 10 });
    const sent: RecordMetadata[] = await Promise.all(
      Array.from({ length: COUNT }, (_, i) => producer.send(specRecord(topic, i))),
    );
    await producer.close();

    const { records, batches } = await readBack(client, topic);
    expect(records).toHaveLength(COUNT);
    const byPosition = new Map(records.map((r) => [`${r.partition}/${r.offset}`, r]));
    for (let i = 0; i < COUNT; i++) {
      const m = sent[i];
      expect(m.topic).toBe(topic);
      expect(m.timestamp, `record ${i}`).toBe(1_700_000_000_000 + i * 1000);
      expect(byPosition.get(`${m.partition}/${m.offset}`), `record ${i}`).toEqual(
        expectedRecord(i, m.partition, m.offset),
      );
    }
    // Within a partition, offsets follow send() order.
    for (let partition = 0; partition < 3; partition++) {
      const offsets = sent.filter((m) => m.partition === partition).map((m) => m.offset);
      expect(offsets).toEqual([...offsets].sort((a, b) => (a < b ? -1 : 1)));
    }
    // Batches really are compressed with the codec, and idempotent (producer id set, sequences from 0).
    for (const b of batches) {
      expect(b.compression).toBe(CompressionCodec[compression]);
      expect(b.producerId).toBeGreaterThanOrEqual(0n);
    }
    for (let partition = 0; partition < 3; partition++) {
      const own = batches.filter((b) => b.partition === partition);
      if (own.length > 0) expect(own[0].baseSequence).toBe(0);
      for (let j = 1; j < own.length; j++) {
        expect(own[j].baseSequence).toBe(own[j - 1].baseSequence + own[j - 1].records.length);
      }
    }
  });

  it.skipIf(address === null).each(['none', 'lz4'] as const)('sendBatch, compression %s', async (compression) => {
    const topic = uniqueTopicName(`produce-batch-${compression}`);
    await client.admin.createTopics([{ name: topic, numPartitions: 3, replicationFactor: 1 }]);
    const producer = client.producer({ compression, lingerMs: 10 });
    // Three calls, all outstanding at once, between single sends: every record lands once, in call order.
    const calls = [0, 1, 2].map((c) =>
      producer.sendBatch(Array.from({ length: COUNT }, (_, i) => specRecord(topic, c * COUNT + i))),
    );
    const single = producer.send(specRecord(topic, 3 * COUNT));
    const sent = [...(await Promise.all(calls)).flat(), await single];
    await producer.close();

    const { records, batches } = await readBack(client, topic);
    expect(records).toHaveLength(3 * COUNT + 1);
    const byPosition = new Map(records.map((r) => [`${r.partition}/${r.offset}`, r]));
    sent.forEach((m, i) => {
      expect(byPosition.get(`${m.partition}/${m.offset}`), `record ${i}`).toEqual(
        expectedRecord(i, m.partition, m.offset),
      );
    });
    for (let partition = 0; partition < 3; partition++) {
      const offsets = sent.filter((m) => m.partition === partition).map((m) => m.offset);
      expect(offsets).toEqual([...offsets].sort((a, b) => (a < b ? -1 : 1)));
    }
    expect(batches.every((b) => b.producerId >= 0n && b.compression === CompressionCodec[compression])).toBe(true);
  });

  it.skipIf(address === null)('send with a callback: every record answered once, where it was written', async () => {
    const topic = uniqueTopicName('produce-callback');
    await client.admin.createTopics([{ name: topic, numPartitions: 3, replicationFactor: 1 }]);
    const producer = client.producer({ compression: 'lz4', lingerMs: 10 });
    const answered: (RecordMetadata | Error | undefined)[] = new Array(COUNT);
    for (let i = 0; i < COUNT; i++) {
      producer.send(specRecord(topic, i), (err, metadata) => {
        expect(answered[i], `record ${i} answered twice`).toBeUndefined();
        answered[i] = err ?? metadata;
      });
    }
    // flush() resolves once every callback has run.
    await producer.flush();
    await producer.close();
    const sent = answered as RecordMetadata[];
    expect(sent.every((m) => m !== undefined && !(m instanceof Error))).toBe(true);
    const { records } = await readBack(client, topic);
    expect(records).toHaveLength(COUNT);
    const byPosition = new Map(records.map((r) => [`${r.partition}/${r.offset}`, r]));
    sent.forEach((m, i) => {
      expect(byPosition.get(`${m.partition}/${m.offset}`), `record ${i}`).toEqual(
        expectedRecord(i, m.partition, m.offset),
      );
    });
  });

  it.skipIf(address === null).each([0, 1] as const)('acks %s', async (acks) => {
    const topic = uniqueTopicName(`produce-acks${acks}`);
    await client.admin.createTopics([{ name: topic, numPartitions: 2, replicationFactor: 1 }]);
    // Both leaders must accept writes first: with acks 0 a broker answers a Produce error only by closing the
    // connection, silently dropping the requests behind it (Kafka's acks=0 contract), which is not under test.
    await client.offsets.latest(topic);
    const producer = client.producer({ acks });
    const sent = await Promise.all(Array.from({ length: 100 }, (_, i) => producer.send(specRecord(topic, i))));
    await producer.close();
    if (acks === 0) expect(sent.every((m) => m.offset === -1n)).toBe(true);
    else expect(new Set(sent.map((m) => `${m.partition}/${m.offset}`)).size).toBe(100);
    let { records, batches } = await readBack(client, topic);
    // acks 0 resolves a send once it is written to the socket, so the broker may still be appending the last
    // requests when the read begins: read again until they are all there (bounded; a lost record still fails).
    for (let i = 0; acks === 0 && records.length < 100 && i < 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ({ records, batches } = await readBack(client, topic));
    }
    expect(records).toHaveLength(100);
    // acks 0 and 1 are not idempotent by default, as in Java.
    expect(batches.every((b) => b.producerId === -1n)).toBe(true);
  });
});
