/**
 * One scenario written against kafkajs's API, run on kafkajs 2.2.4 and on tidemark/kafkajs by the tests:
 * what it returns is everything a program could observe (answers, payload shapes, committed offsets, errors),
 * with the values that differ between runs (topic names, timestamps) normalised.
 */
import type * as Facade from '../../../src/kafkajs/index.js';

export type KafkaModule = Pick<typeof Facade, 'Kafka' | 'logLevel'>;

export interface Observed {
  created: boolean;
  createdAgain: boolean;
  createError: {
    name: string;
    retriable: unknown;
    errors: { name: string; type: unknown; retriable: unknown; topic: unknown }[];
  };
  sent: unknown[];
  messages: unknown[];
  batches: unknown[];
  committed: unknown;
  groups: unknown;
  topicOffsets: unknown;
}

const shape = (value: unknown): string =>
  Buffer.isBuffer(value) ? 'Buffer' : Array.isArray(value) ? 'Array' : value === null ? 'null' : typeof value;

const waitFor = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

export async function runScenario(mod: KafkaModule, broker: string, topic: string, groupId: string): Promise<Observed> {
  const kafka = new mod.Kafka({ clientId: 'differential', brokers: [broker], logLevel: mod.logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const created = await admin.createTopics({ topics: [{ topic, numPartitions: 3 }] });
  const createdAgain = await admin.createTopics({ topics: [{ topic, numPartitions: 3 }] });
  let createError: Observed['createError'] | undefined;
  try {
    await admin.createTopics({ topics: [{ topic: `${topic}-rf`, numPartitions: 1, replicationFactor: 7 }] });
  } catch (e) {
    const err = e as { name: string; retriable: unknown; errors?: Record<string, unknown>[] };
    createError = {
      name: err.name,
      retriable: err.retriable,
      errors: (err.errors ?? []).map((x) => ({
        name: x.name as string,
        type: x.type,
        retriable: x.retriable,
        topic: String(x.topic).replace(topic, 'T'),
      })),
    };
  }

  const producer = kafka.producer();
  await producer.connect();
  const sent = await producer.send({
    topic,
    messages: [0, 1, 2, 3, 4, 5].map((i) => ({
      key: `key-${i}`,
      value: `value-${i}`,
      headers: { 'trace-id': `t${i}`, multi: ['a', 'b'] },
    })),
  });
  await producer.disconnect();

  const consumer = kafka.consumer({ groupId });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  const messages: Record<string, unknown>[] = [];
  await consumer.run({
    eachMessage: async ({ topic: t, partition, message }) => {
      messages.push({
        topic: t === topic ? 'T' : t,
        partition,
        offset: message.offset,
        key: message.key?.toString(),
        value: message.value?.toString(),
        headers: Object.fromEntries(
          Object.entries(message.headers ?? {}).map(([k, v]) => [
            k,
            Array.isArray(v) ? v.map((x) => `${shape(x)}:${x.toString()}`) : `${shape(v)}:${String(v)}`,
          ]),
        ),
        timestamp: shape(message.timestamp),
        attributes: message.attributes,
      });
    },
  });
  await waitFor(() => messages.length >= 6, 'six messages');
  await consumer.disconnect();

  // eachBatch in a second group: the Batch's shape and arithmetic.
  const batches: Record<string, unknown>[] = [];
  const batchConsumer = kafka.consumer({ groupId: `${groupId}-batch` });
  await batchConsumer.connect();
  await batchConsumer.subscribe({ topic, fromBeginning: true });
  let seen = 0;
  await batchConsumer.run({
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      for (const message of batch.messages) {
        resolveOffset(message.offset);
        seen++;
      }
      await heartbeat();
      batches.push({
        partition: batch.partition,
        highWatermark: batch.highWatermark,
        firstOffset: batch.firstOffset(),
        lastOffset: batch.lastOffset(),
        offsetLag: batch.offsetLag(),
        offsetLagLow: batch.offsetLagLow(),
        isEmpty: batch.isEmpty(),
        running: isRunning(),
        stale: isStale(),
      });
    },
  });
  await waitFor(() => seen >= 6, 'six batch messages');
  await batchConsumer.disconnect();

  const committed = await admin.fetchOffsets({ groupId, topics: [topic] });
  const described = (await admin.describeGroups([groupId])).groups.map((g) => ({
    groupId: g.groupId === groupId ? 'G' : g.groupId,
    state: g.state,
    protocolType: g.protocolType,
    members: g.members.length,
  }));
  const deletedGroups = (await admin.deleteGroups([groupId])).map((g) => ({ ...g, groupId: 'G' }));
  const morePartitions = await admin.createPartitions({ topicPartitions: [{ topic, count: 4 }] });
  let fewerPartitions: unknown;
  try {
    await admin.createPartitions({ topicPartitions: [{ topic, count: 2 }] });
  } catch (e) {
    const err = e as { name: string; type?: string; retriable?: boolean };
    fewerPartitions = { name: err.name, type: err.type, retriable: err.retriable };
  }
  const topicOffsets = await admin.fetchTopicOffsets(topic);
  await admin.deleteTopics({ topics: [topic] });
  await admin.disconnect();

  const sortBy = (xs: Record<string, unknown>[]) =>
    xs.sort((a, b) => Number(a.partition) - Number(b.partition) || Number(a.offset ?? 0) - Number(b.offset ?? 0));
  return {
    created,
    createdAgain,
    createError: createError ?? { name: 'none', retriable: undefined, errors: [] },
    sent: sortBy(
      sent.map((m) => ({
        topicName: m.topicName === topic ? 'T' : m.topicName,
        partition: m.partition,
        errorCode: m.errorCode,
        baseOffset: m.baseOffset,
        logAppendTime: m.logAppendTime,
        fields: Object.keys(m).sort(),
      })),
    ),
    messages: sortBy(messages),
    batches: sortBy(batches).filter((b) => b.isEmpty === false),
    committed: committed.map((c) => ({ ...c, topic: 'T' })),
    groups: { described, deletedGroups, morePartitions, fewerPartitions },
    // kafkajs lists partitions in the order brokers answered: sorted here, as no order is promised.
    topicOffsets: [...topicOffsets].sort((a, b) => a.partition - b.partition),
  };
}
