/**
 * kafkajs's documented usage, run with only the import changed: the README's producer and `eachMessage`
 * consumer, the docs' `eachBatch` loop (resolveOffset, heartbeat, isRunning, isStale), a transaction with
 * sendOffsets, and a throwing handler that kafkajs retries from the failed offset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompressionTypes, Kafka, logLevel } from '../../../src/kafkajs/index.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';

const waitFor = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
].filter((g): g is { label: string; address: string } => g.address !== null);

describe.each(generations)('kafkajs documented examples on tidemark/kafkajs ($label)', ({ address }) => {
  const kafka = new Kafka({ clientId: 'my-app', brokers: [address], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  beforeAll(() => admin.connect());
  afterAll(() => admin.disconnect());

  it('README: producer send, consumer eachMessage', { timeout: 60_000 }, async () => {
    const topic = uniqueTopicName('test-topic');
    await admin.createTopics({ topics: [{ topic }] });
    // --- from kafkajs's README, unchanged ---
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: [{ value: 'Hello KafkaJS user!' }] });
    await producer.disconnect();

    const consumer = kafka.consumer({ groupId: uniqueTopicName('test-group') });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const seen: { value: string | undefined }[] = [];
    await consumer.run({
      eachMessage: async ({ topic: _t, partition: _p, message }) => {
        seen.push({ value: message.value?.toString() });
      },
    });
    // ---
    await waitFor(() => seen.length === 1, 'the message');
    expect(seen).toEqual([{ value: 'Hello KafkaJS user!' }]);
    await consumer.disconnect();
  });

  it('docs: eachBatch with resolveOffset and heartbeat; sendBatch with compression', { timeout: 60_000 }, async () => {
    const topic = uniqueTopicName('batch-topic');
    await admin.createTopics({ topics: [{ topic, numPartitions: 2 }] });
    const producer = kafka.producer();
    await producer.connect();
    const sent = await producer.sendBatch({
      compression: CompressionTypes.GZIP,
      topicMessages: [
        { topic, messages: Array.from({ length: 50 }, (_, i) => ({ key: `k${i % 5}`, value: `v${i}` })) },
      ],
    });
    expect(sent.map((r) => r.partition).sort()).toEqual([0, 1]);
    expect(sent.every((r) => r.baseOffset === '0' && r.errorCode === 0)).toBe(true);
    await producer.disconnect();

    const groupId = uniqueTopicName('batch-group');
    const consumer = kafka.consumer({ groupId });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const values: string[] = [];
    await consumer.run({
      eachBatchAutoResolve: true,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        for (const message of batch.messages) {
          if (!isRunning() || isStale()) break;
          values.push(message.value?.toString() ?? '');
          resolveOffset(message.offset);
          await heartbeat();
        }
      },
    });
    await waitFor(() => values.length === 50, 'fifty messages');
    await consumer.disconnect();
    expect(new Set(values).size).toBe(50);
    const committed = await admin.fetchOffsets({
      groupId: (consumer as unknown as { config: { groupId: string } }).config.groupId,
      topics: [topic],
    });
    const total = committed[0].partitions.reduce((n, p) => n + Number(p.offset), 0);
    expect(total).toBe(50);
  });

  it('a throwing eachMessage is retried from the failed offset; nothing skipped, nothing repeated before it', {
    timeout: 60_000,
  }, async () => {
    const topic = uniqueTopicName('retry-topic');
    await admin.createTopics({ topics: [{ topic }] });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: Array.from({ length: 5 }, (_, i) => ({ value: `m${i}` })) });
    await producer.disconnect();

    const consumer = kafka.consumer({ groupId: uniqueTopicName('retry-group'), retry: { initialRetryTime: 50 } });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const calls: string[] = [];
    let failures = 0;
    await consumer.run({
      eachMessage: async ({ message }) => {
        calls.push(message.offset);
        if (message.offset === '2' && failures < 2) {
          failures++;
          throw new Error('transient');
        }
      },
    });
    await waitFor(() => calls.length === 7, 'five messages and two retries');
    await consumer.disconnect();
    expect(calls).toEqual(['0', '1', '2', '2', '2', '3', '4']);
  });

  it('docs: transaction with send, sendOffsets and commit; abort discards', { timeout: 60_000 }, async () => {
    const topic = uniqueTopicName('txn-topic');
    await admin.createTopics({ topics: [{ topic }] });
    const groupId = uniqueTopicName('txn-group');
    const producer = kafka.producer({
      transactionalId: uniqueTopicName('txn-id'),
      maxInFlightRequests: 1,
      idempotent: true,
    });
    await producer.connect();
    const transaction = await producer.transaction();
    expect(transaction.isActive()).toBe(true);
    await transaction.send({ topic, messages: [{ key: 'key', value: 'committed' }] });
    await transaction.sendOffsets({
      consumerGroupId: groupId,
      topics: [{ topic, partitions: [{ partition: 0, offset: '7' }] }],
    });
    await transaction.commit();
    expect(transaction.isActive()).toBe(false);
    const aborted = await producer.transaction();
    await aborted.send({ topic, messages: [{ value: 'aborted' }] });
    await aborted.abort();
    // A committed record after the aborted one: once it arrives, the reader has passed the aborted record.
    const last = await producer.transaction();
    await last.send({ topic, messages: [{ value: 'after' }] });
    await last.commit();
    await producer.disconnect();

    expect(await admin.fetchOffsets({ groupId, topics: [topic] })).toEqual([
      { topic, partitions: [{ partition: 0, offset: '7', metadata: '' }] },
    ]);
    const consumer = kafka.consumer({ groupId: uniqueTopicName('txn-reader') });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const values: string[] = [];
    await consumer.run({ eachMessage: async ({ message }) => void values.push(message.value?.toString() ?? '') });
    const offsets = await admin.fetchTopicOffsets(topic);
    // Each transaction: its record and its marker.
    expect(offsets[0].high).toBe('6');
    await waitFor(() => values.includes('after'), 'the last committed record');
    await consumer.disconnect();
    expect(values).toEqual(['committed', 'after']);
  });
});
