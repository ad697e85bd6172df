/**
 * kafkajs's consumer lifecycle on tidemark/kafkajs: instrumentation events (GROUP_JOIN, START/END_BATCH_PROCESS,
 * COMMIT_OFFSETS, CRASH, STOP) with kafkajs's payload fields, `on()` removers, a crash that
 * `restartOnFailure` declines (the consumer stops, nothing past the failed offset is committed), and a topic
 * paused before the group assigns it staying paused until resumed.
 */
import { describe, expect, it } from 'vitest';
import { type InstrumentationEvent, Kafka, logLevel } from '../../../src/kafkajs/index.js';
import { bootstrap, uniqueTopicName } from '../../harness/context.js';

const waitFor = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('tidemark/kafkajs consumer events and crashes', () => {
  const kafka = new Kafka({ brokers: [bootstrap()], logLevel: logLevel.NOTHING });

  async function topicWith(count: number): Promise<string> {
    const topic = uniqueTopicName('kjs-events');
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic }] });
    await admin.disconnect();
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: Array.from({ length: count }, (_, i) => ({ value: `m${i}` })) });
    await producer.disconnect();
    return topic;
  }

  it('emits kafkajs events; on() returns a remover', { timeout: 60_000 }, async () => {
    const topic = await topicWith(3);
    const consumer = kafka.consumer({ groupId: uniqueTopicName('kjs-events-g') });
    const events: InstrumentationEvent[] = [];
    const record = (e: unknown) => events.push(e as InstrumentationEvent);
    const { GROUP_JOIN, START_BATCH_PROCESS, END_BATCH_PROCESS, COMMIT_OFFSETS, STOP, FETCH } = consumer.events;
    for (const name of [GROUP_JOIN, START_BATCH_PROCESS, END_BATCH_PROCESS, COMMIT_OFFSETS, STOP])
      consumer.on(name, record);
    const removeFetch = consumer.on(FETCH, record);
    removeFetch();
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    let seen = 0;
    await consumer.run({ eachMessage: async () => void seen++ });
    await waitFor(() => seen === 3, 'three messages');
    await consumer.disconnect();
    // Listeners run asynchronously, as in kafkajs.
    await new Promise((r) => setTimeout(r, 50));
    const types = events.map((e) => e.type);
    expect(types).toContain('consumer.group_join');
    expect(types).not.toContain('consumer.fetch');
    expect(types.at(-1)).toBe('consumer.stop');
    const end = events.find((e) => e.type === 'consumer.end_batch_process')?.payload as Record<string, unknown>;
    expect(end).toMatchObject({
      topic,
      partition: 0,
      highWatermark: '3',
      firstOffset: '0',
      lastOffset: '2',
      batchSize: 3,
    });
    expect(typeof end.duration).toBe('number');
    const commits = events.filter((e) => e.type === 'consumer.commit_offsets');
    expect(commits.at(-1)?.payload).toMatchObject({
      topics: [{ topic, partitions: [{ partition: '0', offset: '3' }] }],
    });
  });

  it('a crash that restartOnFailure declines stops the consumer at the failed offset', {
    timeout: 60_000,
  }, async () => {
    const topic = await topicWith(4);
    const groupId = uniqueTopicName('kjs-crash-g');
    const asked: string[] = [];
    const consumer = kafka.consumer({
      groupId,
      retry: {
        retries: 1,
        initialRetryTime: 20,
        restartOnFailure: async (e) => {
          asked.push(e.name);
          return false;
        },
      },
    });
    const crashes: Record<string, unknown>[] = [];
    let stopped = false;
    consumer.on(consumer.events.CRASH, (e) =>
      crashes.push((e as InstrumentationEvent<Record<string, unknown>>).payload),
    );
    consumer.on(consumer.events.STOP, () => {
      stopped = true;
    });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const calls: string[] = [];
    await consumer.run({
      eachMessage: async ({ message }) => {
        calls.push(message.offset);
        if (message.offset === '2') throw new Error('poison');
      },
    });
    await waitFor(() => stopped, 'the consumer to stop');
    await consumer.disconnect();
    expect(calls).toEqual(['0', '1', '2', '2']);
    expect(asked).toEqual(['KafkaJSNumberOfRetriesExceeded']);
    expect(crashes).toHaveLength(1);
    expect(crashes[0]).toMatchObject({ groupId, restart: false });
    expect((crashes[0].error as Error).name).toBe('KafkaJSNumberOfRetriesExceeded');
    const admin = kafka.admin();
    await admin.connect();
    const committed = await admin.fetchOffsets({ groupId, topics: [topic] });
    await admin.disconnect();
    expect(committed[0].partitions[0].offset).toBe('2');
  });

  it('eachBatchAutoResolve false: what is not resolved is read again, and only resolved offsets are committed', {
    timeout: 60_000,
  }, async () => {
    const topic = await topicWith(6);
    const groupId = uniqueTopicName('kjs-resolve-g');
    const consumer = kafka.consumer({ groupId });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const firsts: string[] = [];
    let resolvedAll = false;
    await consumer.run({
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset }) => {
        firsts.push(batch.firstOffset() ?? '');
        // The first delivery resolves offsets 0..2 only; the next resolves everything it gets.
        const upTo = firsts.length === 1 ? 2 : Number(batch.lastOffset());
        for (const m of batch.messages) if (Number(m.offset) <= upTo) resolveOffset(m.offset);
        if (firsts.length > 1) resolvedAll = true;
      },
    });
    await waitFor(() => resolvedAll, 'the batch read again');
    await consumer.disconnect();
    expect(firsts.slice(0, 2)).toEqual(['0', '3']);
    const admin = kafka.admin();
    await admin.connect();
    const committed = await admin.fetchOffsets({ groupId, topics: [topic] });
    await admin.disconnect();
    expect(committed[0].partitions[0].offset).toBe('6');
  });

  it('a topic paused before its assignment stays paused until resumed', { timeout: 60_000 }, async () => {
    const topic = await topicWith(2);
    const consumer = kafka.consumer({ groupId: uniqueTopicName('kjs-pause-g') });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    consumer.pause([{ topic }]);
    const values: string[] = [];
    await consumer.run({ eachMessage: async ({ message }) => void values.push(message.value?.toString() ?? '') });
    expect(consumer.paused()).toEqual([{ topic, partitions: [0] }]);
    // Paused: a fetch round trip passes and nothing arrives.
    await new Promise((r) => setTimeout(r, 1500));
    expect(values).toEqual([]);
    consumer.resume([{ topic }]);
    await waitFor(() => values.length === 2, 'the messages after resume');
    expect(consumer.paused()).toEqual([]);
    await consumer.disconnect();
  });
});
