/**
 * tidemark/kafkajs `send` and `sendBatch` hand each call's messages to the core producer in one `sendBatch()`
 * (one promise per call, not per message), on Kafka 4.x and 3.9: kafkajs's answer per partition written
 * (the first offset of the call's records there), the records stored in call order, and a refused message
 * failing the call with a KafkaJS error while the call's other messages are still written.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '../../../src/client.js';
import * as facade from '../../../src/kafkajs/index.js';
import { Producer as CoreProducer } from '../../../src/producer/producer.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';
import { readBack } from '../producer/read-back.js';

const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
];

const text = (b64: string | null) => (b64 === null ? null : Buffer.from(b64, 'base64').toString('utf8'));

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(generations)('tidemark/kafkajs producer on $label: one core sendBatch per call', ({ address }) => {
  // No 3.9 broker in this run: nothing to run it against.
  it.skipIf(address === null)(
    'answers per partition with the first offset of the call there, and stores the records in call order',
    {
      timeout: 60_000,
    },
    async () => {
      const [a, b] = [uniqueTopicName('kjs-batch-a'), uniqueTopicName('kjs-batch-b')];
      const broker = address as string;
      const kafka = new facade.Kafka({ clientId: 'kjs-batch', brokers: [broker], logLevel: facade.logLevel.NOTHING });
      const admin = kafka.admin();
      await admin.connect();
      await admin.createTopics({
        topics: [
          { topic: a, numPartitions: 3 },
          { topic: b, numPartitions: 2 },
        ],
      });
      await admin.disconnect();
      const producer = kafka.producer();
      await producer.connect();
      const batches = vi.spyOn(CoreProducer.prototype, 'sendBatch');
      const singles = vi.spyOn(CoreProducer.prototype, 'send');
      try {
        const first = await producer.send({
          topic: a,
          messages: Array.from({ length: 30 }, (_, i) => ({
            key: `k${i % 6}`,
            value: `first-${i}`,
            ...(i === 7 ? { headers: { h: ['x', 'y'] } } : {}),
          })),
        });
        const second = await producer.sendBatch({
          topicMessages: [
            { topic: a, messages: Array.from({ length: 12 }, (_, i) => ({ partition: i % 3, value: `second-${i}` })) },
            { topic: b, messages: Array.from({ length: 5 }, (_, i) => ({ partition: 1, value: `b-${i}` })) },
          ],
        });
        expect(batches).toHaveBeenCalledTimes(2);
        expect(batches.mock.calls.map(([records]) => records.length)).toEqual([30, 17]);
        expect(singles).not.toHaveBeenCalled();

        const client = new Client({ bootstrap: [broker] });
        try {
          const stored = [...(await readBack(client, a)).records, ...(await readBack(client, b)).records];
          const [storedA, storedB] = [stored.slice(0, 42), stored.slice(42)];
          // Each answer entry: the offset of the call's first record in that partition.
          const firstOffset = (topic: string, records: typeof stored, prefix: string, partition: number) => ({
            topicName: topic,
            partition,
            errorCode: 0,
            baseOffset: String(
              records.find((r) => r.partition === partition && text(r.value)?.startsWith(prefix))?.offset,
            ),
            logAppendTime: '-1',
            logStartOffset: '-1',
          });
          const partitionsOf = (records: typeof stored, prefix: string) =>
            [...new Set(records.filter((r) => text(r.value)?.startsWith(prefix)).map((r) => r.partition))].sort();
          expect(first).toEqual(partitionsOf(storedA, 'first-').map((p) => firstOffset(a, storedA, 'first-', p)));
          expect(second).toEqual([
            ...[0, 1, 2].map((p) => firstOffset(a, storedA, 'second-', p)),
            firstOffset(b, storedB, 'b-', 1),
          ]);
          // Call order within each partition; the headers went through.
          for (const p of [0, 1, 2]) {
            const values = storedA.filter((r) => r.partition === p).map((r) => text(r.value) as string);
            const order = (prefix: string) =>
              values.filter((v) => v.startsWith(prefix)).map((v) => Number(v.slice(prefix.length)));
            expect(order('first-')).toEqual([...order('first-')].sort((x, y) => x - y));
            expect(order('second-')).toEqual([p, p + 3, p + 6, p + 9]);
            expect(values.findIndex((v) => v.startsWith('second-'))).toBe(order('first-').length);
          }
          const withHeaders = storedA.find((r) => text(r.value) === 'first-7');
          expect(withHeaders?.headers.map(([k, v]) => [k, text(v)])).toEqual([
            ['h', 'x'],
            ['h', 'y'],
          ]);
          expect(storedB.map((r) => text(r.value))).toEqual(['b-0', 'b-1', 'b-2', 'b-3', 'b-4']);

          // A refused message fails the call with a KafkaJS error; the call's other messages are still written.
          const refused = producer.send({
            topic: b,
            messages: [
              { partition: 0, value: 'ok-1' },
              { partition: 0, value: 'bad', timestamp: 'not a number' },
              { partition: 0, value: 'ok-2' },
            ],
          });
          await expect(refused).rejects.toBeInstanceOf(facade.KafkaJSNonRetriableError);
          await expect(refused).rejects.toThrow(/timestamp/);
          const after = (await readBack(client, b)).records.filter((r) => r.partition === 0).map((r) => text(r.value));
          expect(after).toEqual(['ok-1', 'ok-2']);
        } finally {
          await client.close();
        }
      } finally {
        await producer.disconnect();
      }
    },
  );
});
