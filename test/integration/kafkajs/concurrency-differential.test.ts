/**
 * Differential for `run({ partitionsConsumedConcurrently: 3 })`: the same records consumed once by kafkajs 2.2.4
 * and once by tidemark/kafkajs from the same broker. Both deliver every partition's messages in the same order,
 * run at most 3 handlers at once (tidemark reaches more than one), retry a message whose handler threw once
 * (partition 1, offset 30) from that message, and commit every partition to its end.
 */
import * as kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import * as facade from '../../../src/kafkajs/index.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';
import type { KafkaModule } from './scenario.js';

const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
];

const PARTITIONS = 4;
const PER_PARTITION = 60;

interface Observed {
  /** Values by partition, in delivery order. */
  byPartition: string[][];
  mostAtOnce: number;
  /** The handler threw once (and the message came again). */
  failed: boolean;
  committed: unknown;
}

const waitFor = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** Consumes `topic` (already written) with 3 partitions at once. */
async function consume(mod: KafkaModule, broker: string, topic: string, groupId: string): Promise<Observed> {
  const kafka = new mod.Kafka({ clientId: 'concurrency', brokers: [broker], logLevel: mod.logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId, maxBytesPerPartition: 1_000 });
  const byPartition: string[][] = Array.from({ length: PARTITIONS }, () => []);
  let running = 0;
  let mostAtOnce = 0;
  let failed = false;
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    partitionsConsumedConcurrently: 3,
    eachMessage: async ({ partition, message }) => {
      mostAtOnce = Math.max(mostAtOnce, ++running);
      try {
        await new Promise((r) => setTimeout(r, 2));
        if (partition === 1 && message.offset === '30' && !failed) {
          failed = true;
          throw new Error('handler failed once');
        }
        byPartition[partition].push(String(message.value));
      } finally {
        running--;
      }
    },
  });
  await waitFor(() => byPartition.flat().length >= PARTITIONS * PER_PARTITION, 'every message');
  await consumer.disconnect();
  const admin = kafka.admin();
  await admin.connect();
  const committed = await admin.fetchOffsets({ groupId, topics: [topic] });
  await admin.disconnect();
  return { byPartition, mostAtOnce, failed, committed };
}

describe.each(generations)('partitionsConsumedConcurrently on kafkajs and tidemark/kafkajs ($label)', ({ address }) => {
  it.skipIf(address === null)('same messages per partition, in the same order', { timeout: 180_000 }, async () => {
    const broker = address as string;
    const topic = uniqueTopicName('kjs-conc');
    const kafka = new facade.Kafka({ clientId: 'writer', brokers: [broker], logLevel: facade.logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS }] });
    await admin.disconnect();
    const producer = kafka.producer();
    await producer.connect();
    // Several small sends per partition: several batches each, so the order is kept across batches.
    for (let i = 0; i < PER_PARTITION; i += 10) {
      await producer.sendBatch({
        topicMessages: [
          {
            topic,
            messages: Array.from({ length: PARTITIONS * 10 }, (_, j) => ({
              partition: j % PARTITIONS,
              value: `p${j % PARTITIONS}-${i + Math.floor(j / PARTITIONS)}`,
            })),
          },
        ],
      });
    }
    await producer.disconnect();

    const original = await consume(kafkajs as unknown as KafkaModule, broker, topic, uniqueTopicName('kjs-conc-g'));
    const ours = await consume(facade, broker, topic, uniqueTopicName('kjs-conc-g'));
    const written = Array.from({ length: PARTITIONS }, (_, p) =>
      Array.from({ length: PER_PARTITION }, (_, i) => `p${p}-${i}`),
    );
    expect([original.failed, ours.failed]).toEqual([true, true]);
    expect(original.byPartition).toEqual(written);
    expect(ours.byPartition).toEqual(original.byPartition);
    expect(original.mostAtOnce).toBeLessThanOrEqual(3);
    expect(ours.mostAtOnce).toBeLessThanOrEqual(3);
    expect(ours.mostAtOnce).toBeGreaterThan(1);
    const offsets = (c: unknown) =>
      (c as { partitions: { partition: number; offset: string }[] }[]).flatMap((t) =>
        t.partitions.map((p) => `${p.partition}:${p.offset}`).sort(),
      );
    expect(offsets(ours.committed)).toEqual(offsets(original.committed));
    expect(offsets(ours.committed)).toEqual(written.map((_, p) => `${p}:${PER_PARTITION}`));
  });
});
