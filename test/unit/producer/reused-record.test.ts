/**
 * The producer prepares every record into one reused PendingRecord (Producer.prepare): a record appended at
 * once is written into its batch there and then, and one that waits (metadata, buffer room) is queued as a copy.
 * These check that no record ever takes another's bytes, timestamp, partition or settlers, whichever way it goes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ProducerOptions } from '../../../src/producer/options.js';
import { Producer } from '../../../src/producer/producer.js';
import { type FakeKafka, fakeKafkaWith } from '../../fake-kafka/cluster.js';
import { producerView } from '../../fake-kafka/views.js';

const producers: Producer[] = [];
function producerFor(broker: FakeKafka, options: ProducerOptions = {}): Producer {
  const p = new Producer(producerView(broker), { lingerMs: 2, retryBackoffMs: 1, retryBackoffMaxMs: 5, ...options });
  producers.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(producers.splice(0).map((p) => p.close({ timeoutMs: 100 })));
});

const T0 = 1_700_000_000_000;

describe('Producer: the reused PendingRecord', () => {
  it('records that wait (first metadata, then buffer room) and records appended at once each keep their own', async () => {
    const broker = fakeKafkaWith({ t: 3 });
    broker.latencyMs.Produce = 5;
    // Room for a few records: later sends wait for buffer room behind the first metadata lookup and each other.
    const p = producerFor(broker, { bufferMemory: 600, highWaterMark: 300, lingerMs: 0 });
    const sends = Array.from({ length: 40 }, (_, i) =>
      p.send({
        topic: 't',
        partition: i % 3,
        key: `k${i}`,
        value: `v${i}`,
        headers: i % 2 === 0 ? [{ key: 'h', value: `h${i}` }] : undefined,
        timestamp: T0 + i,
      }),
    );
    const metadata = await Promise.all(sends);
    metadata.forEach((m, i) => {
      expect(m.partition).toBe(i % 3);
      expect(m.timestamp).toBe(T0 + i);
    });
    for (let partition = 0; partition < 3; partition++) {
      const records = broker.log('t', partition).map((e) => e.record);
      const expected = Array.from({ length: 40 }, (_, i) => i).filter((i) => i % 3 === partition);
      expect(records.map((r) => r.key?.toString())).toEqual(expected.map((i) => `k${i}`));
      expect(records.map((r) => r.value?.toString())).toEqual(expected.map((i) => `v${i}`));
      expect(records.map((r) => r.headers.map((h) => h.value?.toString()))).toEqual(
        expected.map((i) => (i % 2 === 0 ? [`h${i}`] : [])),
      );
      // Offsets follow send() order within the partition: each promise got its own record's answer.
      expect(expected.map((i) => metadata[i].offset)).toEqual(expected.map((_, n) => BigInt(n)));
    }
  });

  it('a partitioner that sends from inside an append does not overwrite the record being appended', async () => {
    const broker = fakeKafkaWith({ t: 2 });
    const inner: Promise<unknown>[] = [];
    const p: Producer = producerFor(broker, {
      partitioner: ({ value }) => {
        if (value?.toString() === 'outer') inner.push(p.send({ topic: 't', value: 'inner', partition: 1 }));
        return 0;
      },
    });
    await p.send({ topic: 't', value: 'warm-up', partition: 0 });
    const outer = await p.send({ topic: 't', key: 'outer-key', value: 'outer' });
    await Promise.all(inner);
    expect(outer.partition).toBe(0);
    expect(broker.log('t', 0).map((e) => [e.record.key?.toString(), e.record.value?.toString()])).toEqual([
      [undefined, 'warm-up'],
      ['outer-key', 'outer'],
    ]);
    expect(broker.values('t', 1)).toEqual(['inner']);
  });

  it('sendBatch() records that wait keep their own bytes and results', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    const p = producerFor(broker, { bufferMemory: 500, highWaterMark: 250, lingerMs: 0 });
    const values = Array.from({ length: 30 }, (_, i) => `b${i}`);
    const results = await p.sendBatch(values.map((value, i) => ({ topic: 't', value, timestamp: T0 + i })));
    expect(broker.values('t')).toEqual(values);
    expect(results.map((m) => [m.offset, m.timestamp])).toEqual(values.map((_, i) => [BigInt(i), T0 + i]));
  });
});
