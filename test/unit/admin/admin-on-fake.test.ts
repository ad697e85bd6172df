/**
 * The admin's topic and config calls against the fake cluster (test/fake-kafka): what it sends, how each
 * resource's error maps to the admin's typed errors (one failure thrown as its KafkaError, several as
 * TopicErrors / ResourceErrors carrying what succeeded), and a topic created by the admin, written by a producer
 * and read by a consumer. Logic only: test/integration/admin proves the same against Kafka.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Admin } from '../../../src/admin/admin.js';
import { TopicErrors } from '../../../src/admin/errors.js';
import { ResourceErrors } from '../../../src/admin/resource-errors.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { Producer } from '../../../src/producer/producer.js';
import { FakeKafka } from '../../fake-kafka/cluster.js';
import { consumerView, coordinatorsView, producerView } from '../../fake-kafka/views.js';

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
});

/** Three fake brokers, and an admin over them. */
function setup() {
  const kafka = new FakeKafka([1, 2, 3]);
  const admin = new Admin(consumerView(kafka), { requestTimeoutMs: 2_000, coordinators: coordinatorsView(kafka) });
  return { kafka, admin };
}

describe('admin topics on the fake cluster', () => {
  it('creates topics with configs, waits for their leaders, and reports ids, counts and configs', async () => {
    const { kafka, admin } = setup();
    const created = await admin.createTopics([
      { name: 'orders', numPartitions: 3, replicationFactor: 2, configs: { 'cleanup.policy': 'compact' } },
      { name: 'audit' },
    ]);
    expect(kafka.requests('CreateTopics')[0].version).toBe(7);
    expect(created.map((t) => [t.name, t.numPartitions, t.replicationFactor])).toEqual([
      ['orders', 3, 2],
      ['audit', 1, 3],
    ]);
    expect(created[0].topicId).toBe(kafka.topics.get('orders')!.topicId);
    expect(created[0].configs?.find((c) => c.name === 'cleanup.policy')).toMatchObject({ value: 'compact', source: 1 });
    expect(kafka.topics.get('orders')!.partitions).toHaveLength(3);
    expect(await admin.listTopics()).toEqual(['audit', 'orders']);
  });

  it('validateOnly creates nothing', async () => {
    const { kafka, admin } = setup();
    const checked = await admin.createTopics([{ name: 'dry', numPartitions: 2 }], { validateOnly: true });
    expect(checked.map((t) => [t.name, t.numPartitions])).toEqual([['dry', 2]]);
    expect(kafka.topics.has('dry')).toBe(false);
  });

  it('one refused topic throws its KafkaError naming the topic; several throw TopicErrors with what succeeded', async () => {
    const { kafka, admin } = setup();
    kafka.createTopic('taken', 1);
    const one = await admin.createTopics([{ name: 'taken' }]).catch((e) => e);
    expect(one).toMatchObject({ errorName: 'TOPIC_ALREADY_EXISTS', context: { api: 'CreateTopics', topic: 'taken' } });

    const several = await admin
      .createTopics([
        { name: 'taken' },
        { name: 'fine', numPartitions: 2 },
        { name: 'too-many-replicas', replicationFactor: 4 },
        { name: 'bad-config', configs: { 'no.such.config': 'x' } },
      ])
      .catch((e) => e);
    expect(several).toBeInstanceOf(TopicErrors);
    expect(Object.fromEntries([...several.errors].map(([k, e]) => [k, e.errorName]))).toEqual({
      taken: 'TOPIC_ALREADY_EXISTS',
      'too-many-replicas': 'INVALID_REPLICATION_FACTOR',
      'bad-config': 'INVALID_CONFIG',
    });
    expect(several.succeeded.map((t: { name: string }) => t.name)).toEqual(['fine']);
    expect(kafka.topics.has('fine')).toBe(true);
  });

  it('deletes topics by name and by id, and waits until metadata no longer lists them', async () => {
    const { kafka, admin } = setup();
    kafka.createTopic('a', 1);
    kafka.createTopic('b', 1);
    const idOfB = kafka.topics.get('b')!.topicId;
    expect(await admin.deleteTopics(['a'])).toMatchObject([{ name: 'a' }]);
    expect(await admin.deleteTopicsById([idOfB])).toMatchObject([{ name: 'b', topicId: idOfB }]);
    expect(await admin.listTopics()).toEqual([]);
    const unknown = await admin.deleteTopics(['a']).catch((e) => e);
    expect(unknown.errorName).toBe('UNKNOWN_TOPIC_OR_PARTITION');
  });

  it('raises partition counts; a count that is no increase or an unknown topic is refused per topic', async () => {
    const { kafka, admin } = setup();
    kafka.createTopic('t', 2);
    expect(await admin.createPartitions([{ topic: 't', count: 5 }])).toEqual([{ topic: 't', count: 5 }]);
    expect(kafka.topics.get('t')!.partitions).toHaveLength(5);
    const one = await admin.createPartitions([{ topic: 't', count: 5 }]).catch((e) => e);
    expect(one.errorName).toBe('INVALID_PARTITIONS');
    expect(one.message).toContain('not an increase');
    const several = await admin
      .createPartitions([
        { topic: 't', count: 3 },
        { topic: 'missing', count: 3 },
      ])
      .catch((e) => e);
    expect(several).toBeInstanceOf(TopicErrors);
    expect([...several.errors.keys()].sort()).toEqual(['missing', 't']);
  });
});

describe('admin configs on the fake cluster', () => {
  it('describes a topic’s configs with their sources, only the names asked for when given', async () => {
    const { kafka, admin } = setup();
    kafka.createTopic('t', 1, undefined, new Map([['retention.ms', '1000']]));
    const [all] = await admin.describeConfigs([{ type: 'topic', name: 't' }]);
    expect(all.configs.find((c) => c.name === 'retention.ms')).toMatchObject({
      value: '1000',
      source: 'DYNAMIC_TOPIC_CONFIG',
      isDefault: false,
    });
    expect(all.configs.find((c) => c.name === 'cleanup.policy')).toMatchObject({ value: 'delete', isDefault: true });
    const [some] = await admin.describeConfigs([{ type: 'topic', name: 't' }], { configNames: ['retention.ms'] });
    expect(some.configs.map((c) => c.name)).toEqual(['retention.ms']);
  });

  it('sends a broker resource to that broker, and maps each resource’s error', async () => {
    const { kafka, admin } = setup();
    kafka.createTopic('t', 1);
    const [broker] = await admin.describeConfigs([{ type: 'broker', name: '2' }]);
    expect(kafka.requests('DescribeConfigs').map((r) => r.node)).toEqual([2]);
    expect(broker.configs.find((c) => c.name === 'broker.id')).toMatchObject({ value: '2', isReadOnly: true });

    const one = await admin.describeConfigs([{ type: 'topic', name: 'missing' }]).catch((e) => e);
    expect(one).toMatchObject({ errorName: 'UNKNOWN_TOPIC_OR_PARTITION', context: { resource: 'topic:missing' } });
    const several = await admin
      .describeConfigs([
        { type: 'topic', name: 't' },
        { type: 'topic', name: 'missing' },
        { type: 'topic', name: 'gone' },
      ])
      .catch((e) => e);
    expect(several).toBeInstanceOf(ResourceErrors);
    expect([...several.errors.keys()]).toEqual(['topic:missing', 'topic:gone']);
    expect(several.succeeded.map((r: { resource: { name: string } }) => r.resource.name)).toEqual(['t']);
  });
});

describe('produce, admin, consume on the fake cluster', () => {
  it('a topic the admin creates and grows is written by a producer and read back by an assigned consumer', async () => {
    const { kafka, admin } = setup();
    await admin.createTopics([{ name: 'events', numPartitions: 1 }]);
    await admin.createPartitions([{ topic: 'events', count: 2 }]);
    const producer = new Producer(producerView(kafka), { lingerMs: 1 });
    open.push(producer);
    const sent = await Promise.all(
      Array.from({ length: 10 }, (_, i) => producer.send({ topic: 'events', partition: i % 2, value: `v${i}` })),
    );
    expect(sent.map((m) => m.partition)).toEqual([0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    const cluster = consumerView(kafka);
    const consumer = new Consumer(
      { cluster, coordinators: coordinatorsView(kafka) },
      { autoOffsetReset: 'earliest', fetchMaxWaitMs: 20 },
    );
    open.push(consumer);
    consumer.assign([
      { topic: 'events', partition: 0 },
      { topic: 'events', partition: 1 },
    ]);
    const got: string[] = [];
    for await (const batch of consumer.batches({ signal: AbortSignal.timeout(5_000) })) {
      for (const r of batch.records) got.push(`${r.partition}:${r.offset}=${r.value?.toString()}`);
      batch.ack();
      if (got.length >= 10) break;
    }
    expect(got.sort()).toEqual(sent.map((m, i) => `${m.partition}:${m.offset}=v${i}`).sort());
    await admin.deleteTopics(['events']);
    expect(kafka.topics.has('events')).toBe(false);
  });
});
