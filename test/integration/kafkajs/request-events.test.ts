/**
 * The events tidemark/kafkajs derives from the core's request tracing and from assignments: REQUEST (with
 * kafkajs's payload, and only for the object that caused the request), HEARTBEAT, and
 * RECEIVED_UNSUBSCRIBED_TOPICS when a kafkajs leader deals this member a topic it did not subscribe to;
 * REQUEST_QUEUE_SIZE (requests in flight per broker) and the admin's CONNECT, REQUEST and DISCONNECT, in the
 * order and shape kafkajs 2.2.4's admin emits them.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import * as kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { Client } from '../../../src/index.js';
import { type InstrumentationEvent, Kafka, logLevel } from '../../../src/kafkajs/index.js';
import { bootstrap, legacyBootstrap, uniqueTopicName } from '../../harness/context.js';
import { eventually } from '../../harness/eventually.js';

const generations = [
  { label: 'Kafka 4.x', address: bootstrap() },
  { label: 'Kafka 3.9', address: legacyBootstrap() },
];

/** Whether the core publishes each request on `tidemark:request` (the per-request events' only source). */
async function coreTracesRequests(address: string): Promise<boolean> {
  let seen = false;
  const onStart = () => {
    seen = true;
  };
  subscribe('tracing:tidemark:request:start', onStart);
  const client = new Client({ bootstrap: address });
  try {
    await client.metadata({ topics: [] });
  } finally {
    unsubscribe('tracing:tidemark:request:start', onStart);
    await client.close();
  }
  return seen;
}

const payloads = (events: InstrumentationEvent[], type: string) =>
  events.filter((e) => e.type === type).map((e) => e.payload as Record<string, unknown>);

describe.each(generations)('tidemark/kafkajs request events on $label', ({ address }) => {
  it.skipIf(address === null)(
    'REQUEST for the object that sent it, in kafkajs shape; HEARTBEAT with the member and generation',
    { timeout: 60_000 },
    async (ctx) => {
      const broker = address as string;
      // The core's per-request TracingChannel is what REQUEST, REQUEST_TIMEOUT and HEARTBEAT come from; a core
      // built without it publishes nothing, and then these events cannot be checked (nor are they emitted).
      if (!(await coreTracesRequests(broker))) ctx.skip();
      const kafka = new Kafka({ clientId: 'req-events', brokers: [broker], logLevel: logLevel.NOTHING });
      const topic = uniqueTopicName('kjs-req');
      const admin = kafka.admin();
      await admin.connect();
      await admin.createTopics({ topics: [{ topic }] });
      await admin.disconnect();

      const listened = kafka.producer();
      const quiet = kafka.producer();
      const producerEvents: InstrumentationEvent[] = [];
      listened.on(listened.events.REQUEST, (e) => producerEvents.push(e as InstrumentationEvent));
      await listened.connect();
      await quiet.connect();
      await quiet.send({ topic, messages: [{ value: 'from the quiet producer' }] });
      await listened.send({ topic, messages: [{ value: 'a' }, { value: 'b' }] });
      await quiet.disconnect();
      await listened.disconnect();
      await new Promise((r) => setTimeout(r, 50)); // listeners run asynchronously, as in kafkajs
      const produces = payloads(producerEvents, 'producer.network.request').filter((p) => p.apiName === 'Produce');
      // One Produce of the listened producer; none of the quiet one's reached its listener.
      expect(produces).toHaveLength(1);
      expect(produces[0]).toMatchObject({ apiKey: 0, broker, clientId: 'req-events' });
      for (const field of ['apiVersion', 'correlationId', 'createdAt', 'sentAt', 'pendingDuration', 'duration', 'size'])
        expect(typeof produces[0][field], field).toBe('number');
      expect(produces[0].size).toBeGreaterThan(0);

      const consumer = kafka.consumer({ groupId: uniqueTopicName('kjs-req-g'), heartbeatInterval: 200 });
      const events: InstrumentationEvent[] = [];
      const record = (e: unknown) => events.push(e as InstrumentationEvent);
      for (const name of [consumer.events.REQUEST, consumer.events.HEARTBEAT, consumer.events.GROUP_JOIN])
        consumer.on(name, record);
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      let seen = 0;
      await consumer.run({ eachMessage: async () => void seen++ });
      await eventually(async () => {
        expect(seen).toBe(3);
        expect(payloads(events, 'consumer.heartbeat').length).toBeGreaterThan(0);
      }, 30_000);
      await consumer.disconnect();
      await new Promise((r) => setTimeout(r, 50));
      const join = payloads(events, 'consumer.group_join').at(-1);
      const beat = payloads(events, 'consumer.heartbeat').at(-1);
      expect(beat).toEqual({
        groupId: join?.groupId,
        memberId: join?.memberId,
        groupGenerationId: expect.any(Number),
      });
      expect(beat?.groupGenerationId).toBeGreaterThan(0);
      const apis = new Set(payloads(events, 'consumer.network.request').map((p) => p.apiName));
      for (const api of ['JoinGroup', 'SyncGroup', 'Heartbeat', 'Fetch', 'OffsetFetch']) expect(apis).toContain(api);
      expect(apis).not.toContain('Produce');
    },
  );

  it.skipIf(address === null)(
    "the admin's events as kafkajs's admin emits them; REQUEST_QUEUE_SIZE back to 0 on every broker",
    { timeout: 60_000 },
    async (ctx) => {
      const broker = address as string;
      if (!(await coreTracesRequests(broker))) ctx.skip();
      type AdminLike = {
        events: Record<string, string>;
        on(name: string, listener: (e: unknown) => void): () => void;
        connect(): Promise<void>;
        listTopics(): Promise<string[]>;
        fetchTopicMetadata(o: { topics: string[] }): Promise<unknown>;
        disconnect(): Promise<void>;
      };
      const run = async (admin: AdminLike) => {
        const events: InstrumentationEvent[] = [];
        for (const name of Object.values(admin.events)) admin.on(name, (e) => events.push(e as InstrumentationEvent));
        await admin.connect();
        await admin.listTopics();
        await admin.fetchTopicMetadata({ topics: [] });
        await admin.disconnect();
        await new Promise((r) => setTimeout(r, 50));
        return events;
      };
      const theirs = await run(
        new kafkajs.Kafka({ clientId: 'adm', brokers: [broker], logLevel: kafkajs.logLevel.NOTHING }).admin(),
      );
      const ours = await run(new Kafka({ clientId: 'adm', brokers: [broker], logLevel: logLevel.NOTHING }).admin());
      // The same kinds of event; DISCONNECT last, after the last request, as kafkajs (connect()'s own requests
      // may come before or after CONNECT in kafkajs from run to run, so only the kinds are compared there).
      const kinds = (events: InstrumentationEvent[]) =>
        [...new Set(events.map((e) => e.type))].filter((t) => !t.endsWith('request_queue_size')).sort();
      expect(kinds(ours)).toEqual(kinds(theirs));
      expect(kinds(ours)).toEqual(['admin.connect', 'admin.disconnect', 'admin.network.request']);
      for (const events of [ours, theirs]) {
        expect(events.filter((e) => !e.type.endsWith('request_queue_size')).at(-1)?.type).toBe('admin.disconnect');
      }
      const keys = (events: InstrumentationEvent[], type: string) =>
        Object.keys(payloads(events, type)[0] ?? {}).sort();
      expect(keys(ours, 'admin.network.request')).toEqual(keys(theirs, 'admin.network.request'));
      expect(payloads(ours, 'admin.network.request').map((p) => p.apiName)).toContain('Metadata');
      // kafkajs 2.2.4's RequestQueueSizeEvent: { broker, clientId, queueSize }; in flight per broker here.
      const sizes = payloads(ours, 'admin.network.request_queue_size');
      expect(sizes.length).toBeGreaterThan(0);
      expect(Object.keys(sizes[0]).sort()).toEqual(['broker', 'clientId', 'queueSize']);
      expect(Math.max(...sizes.map((s) => s.queueSize as number))).toBeGreaterThanOrEqual(1);
      const last = new Map(sizes.map((s) => [s.broker, s.queueSize]));
      for (const size of last.values()) expect(size).toBe(0);
    },
  );

  it.skipIf(address === null)(
    'RECEIVED_UNSUBSCRIBED_TOPICS when a kafkajs leader deals its own topics',
    { timeout: 60_000 },
    async () => {
      const broker = address as string;
      const client = new Client({ bootstrap: broker });
      const [shared, extra] = [uniqueTopicName('kjs-shared'), uniqueTopicName('kjs-extra')];
      await client.admin.createTopics([
        { name: shared, numPartitions: 2, replicationFactor: 1 },
        { name: extra, numPartitions: 2, replicationFactor: 1 },
      ]);
      const groupId = uniqueTopicName('kjs-unsub-g');
      // The kafkajs member joins first and leads; it subscribes to both topics and deals both to everyone.
      const leader = new kafkajs.Kafka({ brokers: [broker], logLevel: kafkajs.logLevel.NOTHING }).consumer({
        groupId,
        heartbeatInterval: 200,
        maxWaitTimeInMs: 200,
      });
      await leader.connect();
      await leader.subscribe({ topics: [shared, extra] });
      await leader.run({ eachMessage: async () => {} });
      const facade = new Kafka({ brokers: [broker], logLevel: logLevel.NOTHING }).consumer({
        groupId,
        heartbeatInterval: 200,
      });
      const received: Record<string, unknown>[] = [];
      facade.on(facade.events.RECEIVED_UNSUBSCRIBED_TOPICS, (e) =>
        received.push((e as InstrumentationEvent<Record<string, unknown>>).payload),
      );
      try {
        await facade.connect();
        await facade.subscribe({ topic: shared });
        await facade.run({ eachMessage: async () => {} });
        await eventually(async () => expect(received.length).toBeGreaterThan(0), 30_000);
        expect(received[0]).toMatchObject({
          groupId,
          assignedTopics: expect.arrayContaining([extra]),
          topicsSubscribed: [shared],
          topicsNotSubscribed: [extra],
        });
        expect(typeof received[0].memberId).toBe('string');
      } finally {
        await facade.disconnect();
        await leader.disconnect();
        await client.close();
      }
    },
  );
});
