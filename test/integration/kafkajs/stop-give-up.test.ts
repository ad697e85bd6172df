/**
 * `disconnect()` of a tidemark/kafkajs consumer whose handler outlives the stop's bound (`rebalanceTimeout`,
 * kafkajs's time for a member to finish its work): the stop goes on after the bound, the commit stores exactly
 * what was resolved when it gave up (nothing the handler resolves later), and a warning names the partition
 * and the offset that is read again. eachMessage one partition at a time, with partitionsConsumedConcurrently,
 * and eachBatch resolving offsets itself; against the real brokers. And a handler that throws while the stop
 * waits for it: the stop does not wait out kafkajs's retry backoff, and the failed offset is not committed.
 */
import { describe, expect, it } from 'vitest';
import * as facade from '../../../src/kafkajs/index.js';
import { uniqueTopicName } from '../../harness/context.js';
import { generations, waitFor } from './brokers.js';

const MESSAGES = 20;
/** The offset whose handler does not return before the stop gives up. */
const STUCK = 5;
const BOUND_MS = 1_500;

const modes = [
  { mode: 'eachMessage', run: 'message' as const, concurrency: undefined },
  { mode: 'eachMessage, partitionsConsumedConcurrently: 2', run: 'message' as const, concurrency: 2 },
  { mode: 'eachBatch resolving offsets itself', run: 'batch' as const, concurrency: undefined },
];

/** A one-partition topic holding MESSAGES records, a fresh group id, and a connected admin. */
async function loadedTopic(kafka: facade.Kafka, prefix: string) {
  const topic = uniqueTopicName(prefix);
  const groupId = uniqueTopicName(`${prefix}-g`);
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic, messages: Array.from({ length: MESSAGES }, (_, i) => ({ value: `m${i}` })) });
  await producer.disconnect();
  return { topic, groupId, admin };
}

describe.each(generations)('stop() giving up on a handler ($label)', ({ address }) => {
  it.skipIf(address === null).each(modes)(
    '$mode: returns after the bound, commits what was resolved then, and says what is read again',
    { timeout: 60_000 },
    async ({ run, concurrency }) => {
      const warnings: facade.LogEntry[] = [];
      let stuck = false;
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const kafka = new facade.Kafka({
        clientId: 'give-up',
        brokers: [address as string],
        logLevel: facade.logLevel.WARN,
        logCreator: () => (entry) => {
          if (entry.label !== 'WARN') return;
          warnings.push(entry);
          // The handler ends the moment the stop gives up on it, before the close's commit: what it resolves
          // now comes too late and must not be committed.
          release();
        },
      });
      const { topic, groupId, admin } = await loadedTopic(kafka, 'kjs-give-up');

      const consumer = kafka.consumer({ groupId, rebalanceTimeout: BOUND_MS });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        ...(concurrency === undefined ? {} : { partitionsConsumedConcurrently: concurrency }),
        ...(run === 'message'
          ? {
              eachMessage: async ({ message }) => {
                if (Number(message.offset) !== STUCK) return;
                stuck = true;
                await released;
              },
            }
          : {
              eachBatch: async ({ batch, resolveOffset }) => {
                for (const message of batch.messages) {
                  if (Number(message.offset) === STUCK) {
                    stuck = true;
                    await released;
                  }
                  // Once the stop gave up, these come too late: they must not be committed.
                  resolveOffset(message.offset);
                }
              },
            }),
      });
      try {
        await waitFor(() => stuck, 'the handler to reach the stuck offset');
        const started = Date.now();
        await consumer.disconnect();
        const took = Date.now() - started;
        expect(took).toBeGreaterThanOrEqual(BOUND_MS - 50);
        expect(took).toBeLessThan(BOUND_MS + 5_000);
        await new Promise((r) => setTimeout(r, 200));
        const fetched = await admin.fetchOffsets({ groupId, topics: [topic] });
        expect(fetched[0].partitions.map((p) => p.offset)).toEqual([String(STUCK)]);
        const aboutStuck = warnings.filter((w) => w.log.message.includes(`${topic}-0`));
        expect(aboutStuck).toHaveLength(1);
        expect(aboutStuck[0].log.message).toContain(`from offset ${STUCK}`);
        expect(aboutStuck[0].log.message).toContain('read again');
      } finally {
        release();
        await consumer.disconnect();
        await admin.disconnect();
      }
    },
  );
});

describe.each(generations)('stop() while a handler throws ($label)', ({ address }) => {
  it.skipIf(address === null)(
    'returns without the retry backoff and commits up to the failed offset only',
    { timeout: 60_000 },
    async () => {
      const errors: facade.LogEntry[] = [];
      let stuck = false;
      let fail: () => void = () => {};
      const failing = new Promise<void>((resolve) => {
        fail = resolve;
      });
      const kafka = new facade.Kafka({
        clientId: 'throw-at-stop',
        brokers: [address as string],
        logLevel: facade.logLevel.ERROR,
        logCreator: () => (entry) => {
          if (entry.label === 'ERROR') errors.push(entry);
        },
        // A backoff far longer than the stop may take: before the fix, the stop waited it out.
        retry: { initialRetryTime: 20_000, maxRetryTime: 30_000, retries: 5 },
      });
      const { topic, groupId, admin } = await loadedTopic(kafka, 'kjs-throw-stop');

      const consumer = kafka.consumer({ groupId, rebalanceTimeout: 10_000 });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          if (Number(message.offset) !== STUCK) return;
          stuck = true;
          await failing;
          throw new Error('handler failed during the stop');
        },
      });
      try {
        await waitFor(() => stuck, 'the handler to reach the stuck offset');
        const started = Date.now();
        const stopping = consumer.disconnect();
        fail();
        await stopping;
        expect(Date.now() - started).toBeLessThan(8_000);
        const fetched = await admin.fetchOffsets({ groupId, topics: [topic] });
        expect(fetched[0].partitions.map((p) => p.offset)).toEqual([String(STUCK)]);
        expect(errors.filter((e) => e.log.message.includes('eachMessage'))).toHaveLength(1);
      } finally {
        fail();
        await consumer.disconnect();
        await admin.disconnect();
      }
    },
  );
});
