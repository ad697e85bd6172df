/**
 * The pool of batch buffers (batch-buffers.ts): a batch takes a buffer for its first record and gives it back
 * only once answered, never while a write of it could still be queued, and a reused buffer carries nothing of
 * the batch before it onto the wire.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodeRecords } from '../../../codecs/records/index.js';
import { type PendingRecord, ProducerBatch } from '../../../src/producer/batch.js';
import { BatchBuffers } from '../../../src/producer/batch-buffers.js';
import { Producer } from '../../../src/producer/producer.js';
import { fakeKafkaWith } from '../../fake-kafka/cluster.js';
import { producerView } from '../../fake-kafka/views.js';

function record(value: string): PendingRecord {
  return {
    topic: 't',
    partition: 0,
    key: null,
    value: Buffer.from(value),
    headers: [],
    timestamp: 1_700_000_000_000,
    size: 10 + value.length,
    settings: undefined,
    resolve: () => {},
    reject: () => {},
    group: undefined,
    index: 0,
  };
}

function filled(pool: BatchBuffers, values: string[]): ProducerBatch {
  const batch = new ProducerBatch('t', 0, 0, 1, undefined, pool);
  for (const v of values) expect(batch.tryAppend(record(v), pool.bufferBytes)).toBe(true);
  return batch;
}

const valuesOf = (bytes: Buffer) =>
  decodeRecords(bytes, { topic: 't', partition: 0 }).batches[0].records.map((r) => r.value?.toString());

const producers: Producer[] = [];
afterEach(async () => {
  await Promise.all(producers.splice(0).map((p) => p.close({ timeoutMs: 100 })));
});

describe('BatchBuffers', () => {
  it('an answered batch gives its buffer back; the next batch writes over it and sends only its own records', () => {
    const pool = new BatchBuffers(4096, 2);
    const first = filled(pool, ['a'.repeat(300), 'b'.repeat(300), 'c'.repeat(300)]);
    expect(valuesOf(first.encode(0, undefined))).toHaveLength(3);
    expect(pool.freeCount).toBe(0);
    first.complete(0n, -1n);
    expect(pool.freeCount).toBe(1);
    const second = filled(pool, ['x', 'y']);
    expect(pool.freeCount).toBe(0);
    expect(valuesOf(second.encode(0, undefined))).toEqual(['x', 'y']);
    expect(valuesOf(second.encode(1, undefined))).toEqual(['x', 'y']);
  });

  it('a failed batch keeps its buffer from the pool (a write of it may still be queued); a split one too', () => {
    const pool = new BatchBuffers(4096, 2);
    const failed = filled(pool, ['a', 'b']);
    failed.encode(0, undefined);
    failed.fail(new Error('connection lost'));
    const split = filled(pool, ['c', 'd']);
    split.encode(0, undefined);
    const [one, two] = split.split();
    expect(pool.freeCount).toBe(0);
    // The halves took buffers of their own and give them back once answered.
    one.complete(0n, -1n);
    two.complete(1n, -1n);
    expect(pool.freeCount).toBe(2);
  });

  it('a batch that outgrows its pooled buffer moves to one of its own and gives the pooled one back at once', () => {
    const pool = new BatchBuffers(1024, 2);
    const batch = new ProducerBatch('t', 0, 0, 1, undefined, pool);
    batch.tryAppend(record('a'.repeat(500)), 1 << 20);
    expect(pool.freeCount).toBe(0);
    batch.tryAppend(record('b'.repeat(800)), 1 << 20);
    expect(pool.freeCount).toBe(1);
    expect(valuesOf(batch.encode(0, undefined))).toEqual(['a'.repeat(500), 'b'.repeat(800)]);
    batch.complete(0n, -1n);
    // Its own, larger buffer is not pooled.
    expect(pool.freeCount).toBe(1);
  });

  it('keeps at most maxFree buffers unused', () => {
    const pool = new BatchBuffers(256, 2);
    const taken = [pool.take(), pool.take(), pool.take()];
    for (const b of taken) pool.give(b);
    expect(pool.freeCount).toBe(2);
    pool.give(Buffer.alloc(100));
    expect(pool.freeCount).toBe(2);
  });

  it('a producer sending batch after batch through reused buffers delivers every record intact', async () => {
    const broker = fakeKafkaWith({ t: 1 });
    const p = new Producer(producerView(broker), { lingerMs: 0, batchSize: 2048, highWaterMark: 4096 });
    producers.push(p);
    const values = Array.from({ length: 200 }, (_, i) => `value-${i}-`.padEnd(40 + (i % 7) * 30, String(i % 10)));
    for (let i = 0; i < values.length; i += 20) {
      await Promise.all(values.slice(i, i + 20).map((value) => p.send({ topic: 't', value })));
    }
    expect(broker.values('t')).toEqual(values);
  });
});
