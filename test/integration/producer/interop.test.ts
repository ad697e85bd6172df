import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompressionCodec, zstdCompressionAvailable } from '../../../codecs/compression/index.js';
import { Client } from '../../../src/client.js';
import { partitionForKey } from '../../../src/producer/murmur2.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';
import { parseJsonLines, runCommand } from '../../harness/java-program.js';
import { useJavaInterop } from './java-interop.js';
import { readBack } from './read-back.js';
import {
  type ComparableRecord,
  expectedRecord,
  specHeaders,
  specKey,
  specRecord,
  specTimestamp,
  specValue,
} from './record-spec.js';

/**
 * tidemark against Kafka's own Java clients (and librdkafka, through kcat): what one writes, the other reads
 * exactly, and keyed records land on the partition the Java producer picks.
 */
const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
];
const codecs = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const;
const writable = codecs.filter((c) => c !== 'zstd' || zstdCompressionAvailable);
const COUNT = 300;

const javaInterop = useJavaInterop();

interface JavaSent {
  i: number;
  p: number;
  o: number;
  ts: number;
}

interface JavaRead {
  p: number;
  o: number;
  ts: number;
  tt: string;
  k: string | null;
  v: string | null;
  h: [string, string | null][];
}

describe.each(generations)('interop on $label', ({ address }) => {
  let client: Client;
  beforeAll(() => {
    if (address !== null) client = new Client({ bootstrap: [address] });
  });
  afterAll(() => client?.close());

  it.skipIf(address === null).each(codecs)(
    "tidemark decodes what Kafka's Java producer wrote with %s",
    async (codec) => {
      const topic = uniqueTopicName(`java-to-tm-${codec}`);
      await client.admin.createTopics([{ name: topic, numPartitions: 3, replicationFactor: 1 }]);
      const sent = await javaInterop<JavaSent>('produce', {
        bootstrap: address,
        topic,
        compression: codec,
        count: COUNT,
      });
      expect(sent).toHaveLength(COUNT);
      const { records, batches } = await readBack(client, topic);
      expect(batches.every((b) => b.compression === CompressionCodec[codec])).toBe(true);
      const byPosition = new Map(records.map((r) => [`${r.partition}/${r.offset}`, r]));
      expect(records).toHaveLength(COUNT);
      for (const s of sent) {
        expect(byPosition.get(`${s.p}/${s.o}`), `record ${s.i}`).toEqual(expectedRecord(s.i, s.p, BigInt(s.o)));
      }
    },
  );

  it.skipIf(address === null).each(writable)(
    "Kafka's Java consumer reads what tidemark wrote with %s",
    async (codec) => {
      const topic = uniqueTopicName(`tm-to-java-${codec}`);
      await client.admin.createTopics([{ name: topic, numPartitions: 3, replicationFactor: 1 }]);
      const producer = client.producer({ compression: codec });
      const sent = await Promise.all(Array.from({ length: COUNT }, (_, i) => producer.send(specRecord(topic, i))));
      await producer.close();
      const read = await javaInterop<JavaRead>('consume', { bootstrap: address, topic, count: COUNT });
      expect(read).toHaveLength(COUNT);
      const byPosition = new Map(read.map((r) => [`${r.p}/${r.o}`, r]));
      sent.forEach((m, i) => {
        const r = byPosition.get(`${m.partition}/${m.offset}`);
        expect(r, `record ${i}`).toBeDefined();
        const got: ComparableRecord = {
          partition: r!.p,
          offset: BigInt(r!.o),
          timestamp: r!.ts,
          key: r!.k,
          value: r!.v,
          headers: r!.h,
        };
        expect(got, `record ${i}`).toEqual(expectedRecord(i, m.partition, m.offset));
        expect(r!.tt).toBe('CreateTime');
      });
    },
  );

  it.skipIf(address === null)(
    "Kafka's Java consumer reads back byte-exact every value of multi-block lz4 batches (sendBatch, acks=all)",
    async () => {
      // Binary values of the shapes the LZ4 compressor treats differently: random (stored blocks), long runs
      // (long matches), repeated words (short matches, literal runs), up to 6 KiB, so batches span several
      // 64 KiB blocks.
      const topic = uniqueTopicName('tm-to-java-lz4-blocks');
      await client.admin.createTopics([{ name: topic, numPartitions: 2, replicationFactor: 1 }]);
      let seed = 0x2545f491;
      const next = (bound: number): number => {
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        return (seed >>> 0) % bound;
      };
      const values = Array.from({ length: 400 }, (_, i) => {
        const value = Buffer.alloc(next(6144));
        for (let at = 0; at < value.length; at++) {
          if (i % 3 === 0) value[at] = next(256);
          else if (i % 3 === 1) value[at] = (at >> 7) & 0xff;
          else value[at] = at >= 11 && next(4) !== 0 ? value[at - 11] : 97 + next(26);
        }
        return value;
      });
      const producer = client.producer({ compression: 'lz4', acks: -1, idempotent: true, batchSize: 512 * 1024 });
      const sent = await producer.sendBatch(values.map((value, i) => ({ topic, partition: i % 2, value })));
      await producer.close();
      const read = await javaInterop<JavaRead>('consume', { bootstrap: address, topic, count: values.length });
      expect(read).toHaveLength(values.length);
      const byPosition = new Map(read.map((r) => [`${r.p}/${r.o}`, r.v]));
      sent.forEach((m, i) => {
        expect(byPosition.get(`${m.partition}/${m.offset}`), `record ${i}`).toBe(values[i].toString('base64'));
      });
      const { batches } = await readBack(client, topic);
      expect(batches.every((b) => b.compression === CompressionCodec.lz4)).toBe(true);
      // At least one batch held more than one 64 KiB block of records.
      const raw = batches.map((b) => b.records.reduce((n, r) => n + (r.value?.length ?? 0), 0));
      expect(Math.max(...raw)).toBeGreaterThan(2 * 65536);
    },
  );

  it.skipIf(address === null)('keyed records land on the partition the Java producer chooses', async () => {
    for (const partitions of [7, 12]) {
      const javaTopic = uniqueTopicName(`keyed-java-${partitions}`);
      const ourTopic = uniqueTopicName(`keyed-tm-${partitions}`);
      await client.admin.createTopics([
        { name: javaTopic, numPartitions: partitions, replicationFactor: 1 },
        { name: ourTopic, numPartitions: partitions, replicationFactor: 1 },
      ]);
      const java = await javaInterop<{ i: number; p: number }>('keyed', {
        bootstrap: address,
        topic: javaTopic,
        count: 200,
      });
      const producer = client.producer();
      const ours = await Promise.all(
        Array.from({ length: 200 }, (_, i) => producer.send({ topic: ourTopic, key: `key-${i}`, value: 'v' })),
      );
      await producer.close();
      expect(ours.map((m) => m.partition)).toEqual(java.map((j) => j.p));
      expect(new Set(ours.map((m) => m.partition)).size).toBe(partitions);
    }
  });
});

describe('partitioning against Java without a broker', () => {
  it('matches BuiltInPartitioner.partitionForKey for 3000 keys and many partition counts', async () => {
    const counts = [1, 2, 3, 4, 5, 7, 8, 10, 12, 16, 24, 31, 32, 50, 64, 100, 101, 1000];
    const java = await javaInterop<{ n: number; p: number[] }>('partition', { count: 3000, partitions: counts });
    expect(java.map((j) => j.n)).toEqual(counts);
    for (const { n, p } of java) {
      const ours = p.map((_, i) => partitionForKey(Buffer.from(i % 10 === 9 ? `ключ-${i}-鍵` : `key-${i}`), n));
      expect(ours, `${n} partitions`).toEqual(p);
    }
  });
});

/** Runs kcat, returning its JSON lines. */
async function kcat(args: string[]): Promise<Record<string, unknown>[]> {
  const { code, stdout, stderr } = await runCommand('kcat', args);
  if (code !== 0) throw new Error(`kcat exited ${code}: ${stderr}`);
  return parseJsonLines(stdout);
}

const kcatInstalled = await new Promise<boolean>((resolve) => {
  const child = spawn('kcat', ['-V'], { stdio: 'ignore' });
  child.on('error', () => resolve(false));
  child.on('close', (code) => resolve(code === 0));
});

describe.each(generations)('kcat (librdkafka) on $label', ({ address }) => {
  it.skipIf(address === null || !kcatInstalled).each(writable)('reads what tidemark wrote with %s', async (codec) => {
    const client = new Client({ bootstrap: [address!] });
    try {
      const topic = uniqueTopicName(`tm-to-kcat-${codec}`);
      await client.admin.createTopics([{ name: topic, numPartitions: 2, replicationFactor: 1 }]);
      const producer = client.producer({ compression: codec });
      const sent = await Promise.all(Array.from({ length: 120 }, (_, i) => producer.send(specRecord(topic, i))));
      await producer.close();
      const read = await kcat(['-b', address!, '-C', '-t', topic, '-o', 'beginning', '-e', '-J', '-q']);
      expect(read).toHaveLength(120);
      const byPosition = new Map(read.map((r) => [`${r.partition}/${r.offset}`, r]));
      sent.forEach((m, i) => {
        const r = byPosition.get(`${m.partition}/${m.offset}`);
        // kcat -J prints keys and values as text, headers as a flat [key, value, ...] list, absent when none.
        const headers = specHeaders(i).flatMap((h) => [h.key, h.value]);
        expect(r, `record ${i}`).toEqual({
          topic,
          partition: m.partition,
          offset: Number(m.offset),
          tstype: 'create',
          ts: specTimestamp(i),
          broker: expect.any(Number),
          ...(headers.length > 0 ? { headers } : {}),
          key: specKey(i),
          payload: specValue(i),
        });
      });
    } finally {
      await client.close();
    }
  });
});
