/**
 * `disconnect()` of a tidemark/kafkajs consumer, with `partitionsConsumedConcurrently` and without, in the middle
 * of slow `eachMessage` handlers: no message starts after it, the running handlers finish, and the commit stores
 * exactly what they finished, so the next member of the group starts at the first message no handler finished
 * (nothing read twice, nothing skipped). Small topic, short handler delays.
 */
import { describe, expect, it } from 'vitest';
import * as facade from '../../../src/kafkajs/index.js';
import { uniqueTopicName } from '../../harness/context.js';
import { generations, waitFor } from './brokers.js';

const PARTITIONS = 4;
const PER_PARTITION = 40;

/** With partitionsConsumedConcurrently (the core's processBatches), and without (the facade's own loop). */
const modes = [
  { mode: 'partitionsConsumedConcurrently: 2', concurrency: 2 },
  { mode: 'one partition at a time', concurrency: undefined },
];

describe.each(generations)('disconnect() during a run ($label)', ({ address }) => {
  it.skipIf(address === null).each(modes)(
    '$mode: commits what the running handlers finished; the next member reads on from there',
    {
      timeout: 90_000,
    },
    async ({ concurrency }) => {
      const kafka = new facade.Kafka({
        clientId: 'conc-stop',
        brokers: [address as string],
        logLevel: facade.logLevel.NOTHING,
      });
      const topic = uniqueTopicName('kjs-conc-stop');
      const groupId = uniqueTopicName('kjs-conc-stop-g');
      const admin = kafka.admin();
      await admin.connect();
      await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS }] });
      const producer = kafka.producer();
      await producer.connect();
      for (let i = 0; i < PER_PARTITION; i += 10) {
        await producer.send({
          topic,
          messages: Array.from({ length: PARTITIONS * 10 }, (_, j) => ({ partition: j % PARTITIONS, value: `${i}` })),
        });
      }
      await producer.disconnect();

      const first = kafka.consumer({ groupId, maxBytesPerPartition: 500 });
      const done = Array.from({ length: PARTITIONS }, () => 0);
      let stopping = false;
      let startedWhileStopping = 0;
      let running = 0;
      await first.connect();
      await first.subscribe({ topics: [topic], fromBeginning: true });
      await first.run({
        ...(concurrency === undefined ? {} : { partitionsConsumedConcurrently: concurrency }),
        eachMessage: async ({ partition, message }) => {
          if (stopping) startedWhileStopping++;
          running++;
          await new Promise((r) => setTimeout(r, 15));
          done[partition] = Number(message.offset) + 1;
          running--;
        },
      });
      await waitFor(() => done.reduce((a, b) => a + b, 0) >= 30 && running > 0, 'work under way');
      stopping = true;
      await first.disconnect();
      expect(startedWhileStopping).toBe(0);
      const fetched = await admin.fetchOffsets({ groupId, topics: [topic] });
      const committed = fetched[0].partitions
        .sort((a, b) => a.partition - b.partition)
        .map((p) => Math.max(0, Number(p.offset)));
      expect(committed).toEqual(done);

      const second = kafka.consumer({ groupId });
      const read: number[][] = Array.from({ length: PARTITIONS }, () => []);
      const left = PARTITIONS * PER_PARTITION - done.reduce((a, b) => a + b, 0);
      await second.connect();
      await second.subscribe({ topics: [topic], fromBeginning: true });
      await second.run({
        eachMessage: async ({ partition, message }) => {
          read[partition].push(Number(message.offset));
        },
      });
      try {
        await waitFor(() => read.flat().length >= left, 'the rest');
        for (let p = 0; p < PARTITIONS; p++) {
          expect(read[p]).toEqual(Array.from({ length: PER_PARTITION - done[p] }, (_, i) => done[p] + i));
        }
      } finally {
        await second.disconnect();
        await admin.disconnect();
      }
    },
  );
});
