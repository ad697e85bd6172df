/**
 * Per-send `acks` and `compression` on kafkajs 2.2.4 and on tidemark/kafkajs, from one producer each, against
 * the same broker: the same `send()` answers (none for acks 0, kafkajs's RecordMetadata otherwise) and the same
 * codec on the batches the broker stored for each send.
 */
import * as kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { Client } from '../../../src/client.js';
import * as facade from '../../../src/kafkajs/index.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';
import { readBack } from '../producer/read-back.js';
import type { KafkaModule } from './scenario.js';

const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
];

const SENDS = [
  { acks: -1, compression: facade.CompressionTypes.None },
  { acks: 0, compression: facade.CompressionTypes.GZIP },
  { acks: 1, compression: facade.CompressionTypes.GZIP },
  { acks: -1, compression: facade.CompressionTypes.GZIP },
  { acks: 1, compression: facade.CompressionTypes.None },
  { acks: 0, compression: facade.CompressionTypes.None },
];

async function sendAll(mod: KafkaModule, broker: string, topic: string) {
  const kafka = new mod.Kafka({ clientId: 'send-options', brokers: [broker], logLevel: mod.logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
  await admin.disconnect();
  const producer = kafka.producer();
  await producer.connect();
  const answers: unknown[] = [];
  for (const [i, options] of SENDS.entries()) {
    const answer = await producer.send({
      topic,
      ...options,
      messages: [0, 1, 2].map((j) => ({ partition: 0, value: `s${i}-${j}` })),
    });
    // logStartOffset: the core's record metadata does not carry it (docs/migrating-from-kafkajs.md).
    answers.push(answer.map(({ topicName: _, logStartOffset: __, ...rest }) => rest));
  }
  await producer.disconnect();
  return answers;
}

describe.each(generations)('per-send acks and compression on kafkajs and tidemark/kafkajs ($label)', ({ address }) => {
  it.skipIf(address === null)('same answers, same stored codecs', { timeout: 60_000 }, async () => {
    const broker = address as string;
    const theirs = uniqueTopicName('kjs-send-opts');
    const ours = uniqueTopicName('kjs-send-opts');
    const original = await sendAll(kafkajs as unknown as KafkaModule, broker, theirs);
    const mine = await sendAll(facade, broker, ours);
    expect(original.filter((a) => (a as unknown[]).length === 0)).toHaveLength(2);
    expect(mine).toEqual(original);
    const client = new Client({ bootstrap: [broker] });
    try {
      const codecs = async (topic: string) =>
        (await readBack(client, topic)).batches.map((b) => [b.records[0].value?.toString(), b.compression]);
      const stored = await codecs(ours);
      expect(stored).toEqual(await codecs(theirs));
      expect(stored.map(([, c]) => c)).toEqual(SENDS.map((s) => s.compression));
    } finally {
      await client.close();
    }
  });
});
