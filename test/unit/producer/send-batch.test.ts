/** producer.sendBatch(records): one promise for many records, against the fake broker (logic only). */
import { afterEach, describe, expect, it } from 'vitest';
import { TRACING_CHANNELS } from '../../../src/observability/channels.js';
import { InvalidRecordError, ProducerClosedError } from '../../../src/producer/errors.js';
import { Producer } from '../../../src/producer/producer.js';
import { fakeKafkaWith } from '../../fake-kafka/cluster.js';
import { producerView } from '../../fake-kafka/views.js';

const producers: Producer[] = [];
afterEach(async () => {
  await Promise.all(producers.splice(0).map((p) => p.close({ timeoutMs: 100 })));
});

function producerOn(partitions: number) {
  const broker = fakeKafkaWith({ t: partitions });
  const p = new Producer(producerView(broker), { lingerMs: 2, retryBackoffMs: 1, retryBackoffMaxMs: 5 });
  producers.push(p);
  return { broker, p };
}

describe('Producer.sendBatch', () => {
  it('writes the records in order and resolves with each one’s place, in the order given', async () => {
    const { broker, p } = producerOn(1);
    const records = Array.from({ length: 500 }, (_, i) => ({ topic: 't', value: `v${i}`, timestamp: 1000 + i }));
    const results = await p.sendBatch(records);
    expect(results.map((m) => m.offset)).toEqual(records.map((_, i) => BigInt(i)));
    expect(results[42]).toEqual({ topic: 't', partition: 0, offset: 42n, timestamp: 1042 });
    expect(broker.values('t')).toEqual(records.map((r) => r.value));
  });

  it('keeps order with send() calls around it, and places keyed records by key', async () => {
    const { broker, p } = producerOn(3);
    const before = p.send({ topic: 't', partition: 1, value: 'first' });
    const batch = p.sendBatch([
      { topic: 't', partition: 1, value: 'second' },
      { topic: 't', partition: 1, value: 'third' },
      { topic: 't', key: 'k', value: 'keyed' },
    ]);
    const after = p.send({ topic: 't', partition: 1, value: 'fourth' });
    const [b, a] = [await batch, await after];
    expect((await before).offset).toBe(0n);
    expect(b.slice(0, 2).map((m) => m.offset)).toEqual([1n, 2n]);
    expect(a.offset).toBe(3n);
    expect(broker.log('t', 1).map((e) => e.record.value?.toString())).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('rejects with a refused record’s error once the others are delivered', async () => {
    const { broker, p } = producerOn(1);
    const outcome = p.sendBatch([
      { topic: 't', value: 'ok-1' },
      { topic: 't', value: 'bad', timestamp: -5 },
      { topic: 't', value: 'ok-2' },
    ]);
    await expect(outcome).rejects.toBeInstanceOf(InvalidRecordError);
    expect(broker.values('t')).toEqual(['ok-1', 'ok-2']);
  });

  it('with a tracing subscriber, traces every record of a call (and send() too) and keeps the results in order', async () => {
    const none = () => {};
    let started = 0;
    const start = (c: { headers: Record<string, string> }) => {
      started++;
      c.headers.traceparent = `00-${started}`;
    };
    const handlers = { start, end: none, asyncStart: none, asyncEnd: none, error: none } as never;
    TRACING_CHANNELS.producerSend.subscribe(handlers);
    try {
      const { broker, p } = producerOn(1);
      const results = await p.sendBatch([0, 1, 2].map((i) => ({ topic: 't', value: `v${i}` })));
      await p.send({ topic: 't', value: 'v3' });
      expect(results.map((m) => m.offset)).toEqual([0n, 1n, 2n]);
      expect(started).toBe(4);
      const traceparents = broker.log('t').map((e) => e.record.headers[0]?.value?.toString());
      expect(traceparents).toEqual(['00-1', '00-2', '00-3', '00-4']);
    } finally {
      TRACING_CHANNELS.producerSend.unsubscribe(handlers);
    }
  });

  it('resolves an empty batch at once and refuses what is not an array or comes after close()', async () => {
    const { p } = producerOn(1);
    await expect(p.sendBatch([])).resolves.toEqual([]);
    await expect(p.sendBatch({} as never)).rejects.toBeInstanceOf(InvalidRecordError);
    await p.close();
    await expect(p.sendBatch([{ topic: 't', value: 'late' }])).rejects.toBeInstanceOf(ProducerClosedError);
  });
});
