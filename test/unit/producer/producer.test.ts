import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../protocol/error-codes.js';
import { isKafkaError } from '../../../protocol/kafka-error.js';
import { ConfigError } from '../../../src/options/config-error.js';
import {
  BufferExhaustedError,
  DeliveryTimeoutError,
  InvalidRecordError,
  ProducerClosedError,
} from '../../../src/producer/errors.js';
import { partitionForKey } from '../../../src/producer/murmur2.js';
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
/** Milliseconds between the first two Produce requests the cluster received. */
const arrivalGap = (kafka: FakeKafka) => {
  const [first, second] = kafka.requests('Produce').map((r) => r.at);
  return second - first;
};
afterEach(async () => {
  await Promise.all(producers.splice(0).map((p) => p.close({ timeoutMs: 100 })));
});

describe('Producer (against a fake broker)', () => {
  it('delivers records with their partition, offset and timestamp, in order per partition', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    const p = producerFor(broker);
    const sent = await Promise.all(
      Array.from({ length: 50 }, (_, i) => p.send({ topic: 't', value: `v${i}`, timestamp: 1_700_000_000_000 + i })),
    );
    expect(sent.map((m) => m.offset)).toEqual(Array.from({ length: 50 }, (_, i) => BigInt(i)));
    expect(sent[7]).toEqual({ topic: 't', partition: 0, offset: 7n, timestamp: 1_700_000_000_007 });
    expect(broker.values('t')).toEqual(Array.from({ length: 50 }, (_, i) => `v${i}`));
  });

  it('batches records that arrive within linger into one request', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    const p = producerFor(broker, { lingerMs: 20 });
    await Promise.all(Array.from({ length: 100 }, (_, i) => p.send({ topic: 't', value: `v${i}` })));
    expect(broker.produceCalls).toHaveLength(1);
    expect(broker.produceCalls[0].partitions[0].count).toBe(100);
  });

  it('closes a batch at batchSize and sends full batches without waiting for linger', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    const p = producerFor(broker, { lingerMs: 60_000, batchSize: 1000 });
    const started = Date.now();
    const all = Array.from({ length: 30 }, () => p.send({ topic: 't', value: Buffer.alloc(100) }));
    await Promise.all(all.slice(0, 20));
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const call of broker.produceCalls) expect(call.partitions[0].count).toBeLessThanOrEqual(9);
    await p.flush();
    await Promise.all(all);
  });

  it('places keyed records by murmur2 and honours an explicit partition and a custom partitioner', async () => {
    const broker = fakeKafkaWith({ t: 7 });
    const p = producerFor(broker, { partitioner: ({ key }) => (key?.toString() === 'pinned' ? 6 : undefined) });
    for (let i = 0; i < 30; i++) {
      const m = await p.send({ topic: 't', key: `key-${i}`, value: 'x' });
      expect(m.partition).toBe(partitionForKey(Buffer.from(`key-${i}`), 7));
    }
    expect((await p.send({ topic: 't', key: 'key-1', value: 'x', partition: 3 })).partition).toBe(3);
    expect((await p.send({ topic: 't', key: 'pinned', value: 'x' })).partition).toBe(6);
    await expect(p.send({ topic: 't', value: 'x', partition: 7 })).rejects.toBeInstanceOf(InvalidRecordError);
  });

  it('a partitioner that throws rejects that send (no synchronous throw) and the next sends go on', async () => {
    const broker = fakeKafkaWith({ t: 2 });
    const boom = new Error('partitioner broke');
    const p = producerFor(broker, {
      partitioner: ({ key }) => {
        if (key?.toString() === 'bad') throw boom;
        return 1;
      },
    });
    await p.send({ topic: 't', key: 'first', value: 'w' }); // metadata known: the next send appends at once
    let sent: Promise<unknown> | undefined;
    expect(() => {
      sent = p.send({ topic: 't', key: 'bad', value: 'x' });
    }).not.toThrow();
    await expect(sent).rejects.toBe(boom);
    const after = await p.send({ topic: 't', key: 'good', value: 'y' });
    expect(after).toMatchObject({ partition: 1, offset: 1n });
  });

  it('keeps null keys, null values, empty values, and headers (repeated keys, null values) exact', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    const p = producerFor(broker);
    await p.send({
      topic: 't',
      key: null,
      value: null,
      headers: [
        { key: 'a', value: '1' },
        { key: 'a', value: null },
        { key: 'é', value: Buffer.from([0, 255]) },
      ],
    });
    await p.send({ topic: 't', key: '', value: Buffer.alloc(0), headers: { x: 'y' } });
    const [tombstone, empty] = broker.log('t').map((e) => e.record);
    expect(tombstone.key).toBeNull();
    expect(tombstone.value).toBeNull();
    expect(tombstone.headers.map((h) => [h.key, h.value && [...h.value]])).toEqual([
      ['a', [...Buffer.from('1')]],
      ['a', null],
      ['é', [0, 255]],
    ]);
    expect(empty.key).toEqual(Buffer.alloc(0));
    expect(empty.value).toEqual(Buffer.alloc(0));
    expect(empty.headers.map((h) => h.key)).toEqual(['x']);
  });

  it('retries retriable errors, refreshing metadata after a leader error', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.injectProduce('t', 0, { kind: 'error', code: ErrorCode.NOT_LEADER_OR_FOLLOWER }, 2);
    const p = producerFor(broker);
    const m = await p.send({ topic: 't', value: 'once' });
    expect(m.offset).toBe(0n);
    expect(broker.values('t')).toEqual(['once']);
    expect(broker.produceCalls).toHaveLength(3);
    expect(
      producerView(broker).noted.some((n) => n.topic === 't' && isKafkaError(n.err, 'NOT_LEADER_OR_FOLLOWER')),
    ).toBe(true);
  });

  it('fails a record with the typed broker error when the error is not retriable', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.injectProduce('t', 0, { kind: 'error', code: ErrorCode.TOPIC_AUTHORIZATION_FAILED });
    const p = producerFor(broker);
    const err = await p.send({ topic: 't', value: 'no' }).catch((e: unknown) => e);
    expect(isKafkaError(err, 'TOPIC_AUTHORIZATION_FAILED')).toBe(true);
    expect(broker.produceCalls).toHaveLength(1);
  });

  it('fails with DeliveryTimeoutError once retries outlast deliveryTimeoutMs', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.injectProduce('t', 0, { kind: 'error', code: ErrorCode.NOT_LEADER_OR_FOLLOWER }, 1000);
    const p = producerFor(broker, { deliveryTimeoutMs: 150, requestTimeoutMs: 100, lingerMs: 0 });
    const err = await p.send({ topic: 't', value: 'late' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeliveryTimeoutError);
    expect((err as DeliveryTimeoutError).maybeWritten).toBe(false);
    expect(isKafkaError((err as Error).cause, 'NOT_LEADER_OR_FOLLOWER')).toBe(true);
  });

  it('stops at `retries`', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.injectProduce('t', 0, { kind: 'error', code: ErrorCode.NOT_ENOUGH_REPLICAS }, 10);
    const p = producerFor(broker, { retries: 2 });
    const err = await p.send({ topic: 't', value: 'x' }).catch((e: unknown) => e);
    expect(isKafkaError(err, 'NOT_ENOUGH_REPLICAS')).toBe(true);
    expect(broker.produceCalls).toHaveLength(3);
  });

  it('splits a batch the broker finds too large, and still delivers every record in order', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.injectProduce('t', 0, { kind: 'error', code: ErrorCode.MESSAGE_TOO_LARGE }, 2);
    const p = producerFor(broker, { lingerMs: 10 });
    const sent = await Promise.all(Array.from({ length: 8 }, (_, i) => p.send({ topic: 't', value: `v${i}` })));
    expect(broker.values('t')).toEqual(Array.from({ length: 8 }, (_, i) => `v${i}`));
    expect(sent.map((m) => m.offset)).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n]);
    expect(broker.produceCalls.slice(0, 3).map((c) => c.partitions[0].count)).toEqual([8, 4, 2]);
  });

  it('acks 0: resolves once written, offset -1, no idempotence', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    const p = producerFor(broker, { acks: 0 });
    const m = await p.send({ topic: 't', value: 'fire' });
    expect(m.offset).toBe(-1n);
    expect(broker.produceCalls[0].acks).toBe(0);
    expect(broker.produceCalls[0].partitions[0].producerId).toBe(-1n);
    expect(p.producerIdAndEpoch).toBeUndefined();
  });

  it('sends acks 1 and -1 as asked; idempotence follows acks as in Java', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    await producerFor(broker, { acks: 1 }).send({ topic: 't', value: 'a' });
    await producerFor(broker, { acks: 'all' }).send({ topic: 't', value: 'b' });
    expect(broker.produceCalls.map((c) => [c.acks, c.partitions[0].producerId >= 0n])).toEqual([
      [1, false],
      [-1, true],
    ]);
  });

  it('applies backpressure: send() waits for room, and fails after maxBlockMs', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.latencyMs.Produce = 200;
    const p = producerFor(broker, { bufferMemory: 2000, maxBlockMs: 50, highWaterMark: 1000, lingerMs: 0 });
    const first = p.send({ topic: 't', value: Buffer.alloc(1500) });
    expect(p.backpressure).toBe(true);
    const blocked = p.send({ topic: 't', value: Buffer.alloc(1000) }).catch((e: unknown) => e);
    expect(await blocked).toBeInstanceOf(BufferExhaustedError);
    await first;
    expect(p.backpressure).toBe(false);
    // Room again: a waiting send goes through once the first batch is acknowledged.
    broker.latencyMs.Produce = 20;
    const big = p.send({ topic: 't', value: Buffer.alloc(1500) });
    const next = p.send({ topic: 't', value: Buffer.alloc(1000) });
    const p2 = new Producer(producerView(broker), { bufferMemory: 2000, maxBlockMs: 5000 });
    producers.push(p2);
    await Promise.all([big, next]);
    expect(broker.values('t')).toHaveLength(3);
    await expect(p.send({ topic: 't', value: Buffer.alloc(3000) })).rejects.toBeInstanceOf(InvalidRecordError);
  });

  it('waitForCapacity() resolves once the buffer is down to half the high-water mark', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    const p = producerFor(broker, { highWaterMark: 1000, lingerMs: 0 });
    const sends = Array.from({ length: 20 }, () => p.send({ topic: 't', value: Buffer.alloc(100) }));
    expect(p.backpressure).toBe(true);
    await p.waitForCapacity();
    expect(p.bufferedBytes).toBeLessThanOrEqual(500);
    await Promise.all(sends);
  });

  it('flush() sends lingering batches at once and resolves when they are acknowledged', async () => {
    const broker = fakeKafkaWith({ t: 3 });
    const p = producerFor(broker, { lingerMs: 60_000 });
    const sends = Array.from({ length: 9 }, (_, i) => p.send({ topic: 't', key: `${i}`, value: 'x' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(broker.produceCalls).toHaveLength(0);
    await p.flush();
    expect(broker.log('t', 0).length + broker.log('t', 1).length + broker.log('t', 2).length).toBe(9);
    expect(await Promise.all(sends)).toHaveLength(9);
  });

  it('close() delivers what it holds, then refuses new records', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    const p = producerFor(broker, { lingerMs: 60_000 });
    const sends = Array.from({ length: 5 }, (_, i) => p.send({ topic: 't', value: `v${i}` }));
    await p.close();
    expect((await Promise.all(sends)).map((m) => m.offset)).toEqual([0n, 1n, 2n, 3n, 4n]);
    await expect(p.send({ topic: 't', value: 'late' })).rejects.toBeInstanceOf(ProducerClosedError);
  });

  it('close({ timeoutMs }) fails what it could not deliver with ProducerClosedError', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.injectProduce('t', 0, { kind: 'error', code: ErrorCode.NOT_LEADER_OR_FOLLOWER }, 10_000);
    const p = producerFor(broker, { lingerMs: 0 });
    const stuck = p.send({ topic: 't', value: 'stuck' }).catch((e: unknown) => e);
    await p.close({ timeoutMs: 50 });
    expect(await stuck).toBeInstanceOf(ProducerClosedError);
  });

  it('waits for metadata of a topic it does not know yet, and gives up after maxBlockMs', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    const p = producerFor(broker, { maxBlockMs: 100 });
    const err = await p.send({ topic: 'missing', value: 'x' }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('CallTimeoutError');
    // A record for a known topic after it is not held up for good.
    expect((await p.send({ topic: 't', value: 'y' })).offset).toBe(0n);
  });

  it('rejects bad records and options with typed errors', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    const p = producerFor(broker);
    await expect(p.send({ topic: '', value: 'x' })).rejects.toBeInstanceOf(InvalidRecordError);
    await expect(p.send({ topic: 't', value: 'x', timestamp: -5 })).rejects.toBeInstanceOf(InvalidRecordError);
    await expect(p.send({ topic: 't', value: 'x', partition: 1.5 })).rejects.toBeInstanceOf(InvalidRecordError);
    await expect(p.send({ topic: 't', value: 42 as unknown as string })).rejects.toBeInstanceOf(InvalidRecordError);
    expect(() => new Producer(producerView(broker), { acks: 2 as 1 })).toThrow(ConfigError);
    expect(() => new Producer(producerView(broker), { idempotent: true, acks: 1 })).toThrow(ConfigError);
    expect(() => new Producer(producerView(broker), { maxInFlightRequestsPerConnection: 6 })).toThrow(ConfigError);
    expect(() => new Producer(producerView(broker), { produceVersion: 2 })).toThrow(ConfigError);
    expect(() => new Producer(producerView(broker), { compression: 'brotli' as 'gzip' })).toThrow(ConfigError);
    expect(() => new Producer(producerView(broker), { lingerMs: -1 })).toThrow(ConfigError);
    expect(() => new Producer(producerView(broker), { lingerz: 1 } as ProducerOptions)).toThrow(ConfigError);
    expect(
      () => new Producer(producerView(broker), { idempotent: false, maxInFlightRequestsPerConnection: 50 }),
    ).not.toThrow();
  });

  it('fails waiting records at once when connections are refused for good (the client was closed)', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    const p = producerFor(broker, { idempotent: false, acks: 1, lingerMs: 0 });
    await p.send({ topic: 't', value: 'before' });
    broker.refuseConnections = true;
    const started = Date.now();
    const err = await p.send({ topic: 't', value: 'after' }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('ConnectionError');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('waits out the throttle time a broker asks for (Produce v6+, KIP-219)', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    broker.throttleTimeMs.Produce = 150;
    const p = producerFor(broker, { lingerMs: 0 });
    await p.send({ topic: 't', value: 'a' });
    await p.send({ topic: 't', value: 'b' });
    expect(arrivalGap(broker)).toBeGreaterThanOrEqual(140);
    // Older versions throttle on the broker side (the response comes late): no extra wait.
    const legacy = fakeKafkaWith({ t: 1 });
    legacy.throttleTimeMs.Produce = 150;
    legacy.versions.Produce = 5;
    const q = producerFor(legacy, { lingerMs: 0 });
    await q.send({ topic: 't', value: 'a' });
    await q.send({ topic: 't', value: 'b' });
    expect(arrivalGap(legacy)).toBeLessThan(100);
  });

  it('grows the default delivery timeout to fit lingerMs + requestTimeoutMs, but rejects a too-small explicit one', () => {
    const broker = fakeKafkaWith({ t: 1 });
    expect(producerFor(broker, { requestTimeoutMs: 200_000 }).options.deliveryTimeoutMs).toBe(200_002);
    expect(() => new Producer(producerView(broker), { requestTimeoutMs: 200_000, deliveryTimeoutMs: 1000 })).toThrow(
      ConfigError,
    );
  });

  it('keeps at most maxInFlightRequestsPerConnection requests in flight', async () => {
    const broker = fakeKafkaWith({ t: 8 });
    broker.latencyMs.Produce = 10;
    const p = producerFor(broker, { lingerMs: 0, batchSize: 200 });
    const sends = [];
    for (let i = 0; i < 400; i++) sends.push(p.send({ topic: 't', key: `${i}`, value: Buffer.alloc(100) }));
    await Promise.all(sends);
    expect(broker.maxInFlight('Produce')).toBe(5);
  });
});
