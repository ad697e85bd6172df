/**
 * Produce-then-consume in process: a producer writes to the fake cluster (test/fake-kafka), a consumer in a
 * KIP-848 group reads every record once, in order per partition, and commits; the group's committed offsets
 * are the log ends, and a new member of the group starts there. Logic only: the real-broker tests in
 * test/integration prove the same against Kafka.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Consumer } from '../../../src/consumer/consumer.js';
import { Coordinators } from '../../../src/coordinator/coordinators.js';
import { Producer } from '../../../src/producer/producer.js';
import { type FakeKafka, fakeKafkaWith } from '../../fake-kafka/cluster.js';
import { consumerView, producerView } from '../../fake-kafka/views.js';

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
});

function groupConsumer(kafka: FakeKafka): Consumer {
  const cluster = consumerView(kafka);
  const coordinators = new Coordinators(cluster, {
    requestTimeoutMs: 1_000,
    backoff: { initialMs: 1, maxMs: 5 },
  });
  const consumer = new Consumer(
    { cluster, coordinators },
    { groupId: 'g', group: { protocol: 'consumer' }, autoOffsetReset: 'earliest', fetchMaxWaitMs: 20 },
  );
  open.push(consumer);
  return consumer;
}

/** Reads until `count` records came, acknowledging each batch; `partition:offset=value` of each. */
async function read(consumer: Consumer, count: number): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of consumer.batches({ signal: AbortSignal.timeout(5_000) })) {
    for (const r of batch.records) out.push(`${r.partition}:${r.offset}=${r.value?.toString()}`);
    batch.ack();
    if (out.length >= count) break;
  }
  return out;
}

describe('produce then consume (fake cluster)', () => {
  it('a group member reads what the producer wrote, once and in order, and commits the log ends', async () => {
    const kafka = fakeKafkaWith({ t: 3 });
    const producer = new Producer(producerView(kafka), { lingerMs: 1 });
    open.push(producer);
    const sent = await Promise.all(
      Array.from({ length: 30 }, (_, i) => producer.send({ topic: 't', key: `k${i % 7}`, value: `v${i}` })),
    );
    const expected = sent.map((m, i) => `${m.partition}:${m.offset}=v${i}`);

    const consumer = groupConsumer(kafka);
    await consumer.subscribe({ topics: ['t'] });
    const got = await read(consumer, 30);
    expect([...got].sort()).toEqual([...expected].sort());
    for (const partition of [0, 1, 2]) {
      const mine = (list: string[]) => list.filter((s) => s.startsWith(`${partition}:`));
      expect(mine(got)).toEqual(mine(expected));
    }
    await consumer.commit();
    const ends = [0, 1, 2].map((p) => kafka.partition('t', p).logEnd);
    expect([0, 1, 2].map((p) => kafka.group('g').committed.get(`t/${p}`)?.offset)).toEqual(ends);
    expect(ends.reduce((a, b) => a + b)).toBe(30n);
    await consumer.close();

    // A new member starts at the committed offsets: it sees only what comes after.
    await producer.send({ topic: 't', partition: 1, value: 'after' });
    const next = groupConsumer(kafka);
    await next.subscribe({ topics: ['t'] });
    expect(await read(next, 1)).toEqual([`1:${ends[1]}=after`]);
  });
});
