import { describe, expect, it } from 'vitest';
import { RecordAccumulator } from '../../../src/producer/accumulator.js';
import type { PendingRecord } from '../../../src/producer/batch.js';
import { BufferMemory } from '../../../src/producer/buffer-memory.js';
import { BufferExhaustedError } from '../../../src/producer/errors.js';

function record(topic: string, partition: number, size = 100): PendingRecord {
  return {
    topic,
    partition,
    key: null,
    value: Buffer.alloc(size - 10),
    headers: [],
    timestamp: 0,
    size,
    resolve: () => {},
    reject: () => {},
    group: undefined,
    index: 0,
  };
}

const config = { batchSize: 1061, lingerMs: 50, deliveryTimeoutMs: 1000, compression: 0 };
const leaderOne = () => 1;

describe('RecordAccumulator', () => {
  it('fills a batch up to batchSize, then opens the next; full batches are ready at once', () => {
    const acc = new RecordAccumulator(config);
    // append() refills one result object: copied to keep each.
    const results = Array.from({ length: 12 }, () => ({ ...acc.append(record('t', 0), 1000) }));
    expect(results.filter((r) => r.newBatch)).toHaveLength(2);
    expect(results[9].switchAllowed).toBe(true);
    expect(results[8].switchAllowed).toBe(false);
    expect(results[10].full).toBe(true);
    const ready = acc.ready(1000, leaderOne, false);
    expect([...ready.byNode.keys()]).toEqual([1]);
    const drained = acc.drain(ready.byNode.get(1)!, 1000, 1 << 20, false, () => true);
    expect(drained.map((b) => b.recordCount)).toEqual([10]);
    // The second batch is not full: it waits for linger.
    expect(acc.ready(1000, leaderOne, false).nextCheckAt).toBe(1050);
    expect(acc.ready(1050, leaderOne, false).byNode.size).toBe(1);
  });

  it('lingers a partial batch, unless flushing, closing or memory is exhausted', () => {
    const acc = new RecordAccumulator(config);
    acc.append(record('t', 0), 1000);
    expect(acc.ready(1010, leaderOne, false).byNode.size).toBe(0);
    expect(acc.ready(1010, leaderOne, true).byNode.size).toBe(1);
    acc.flushing++;
    expect(acc.ready(1010, leaderOne, false).byNode.size).toBe(1);
  });

  it('holds partitions without a leader back and names their topics for a refresh', () => {
    const acc = new RecordAccumulator(config);
    acc.append(record('t', 0), 1000);
    const ready = acc.ready(2000, () => -1, false);
    expect(ready.byNode.size).toBe(0);
    expect([...ready.unknownLeaders]).toEqual(['t']);
  });

  it('drains at most one batch per partition per request and respects the request size', () => {
    const acc = new RecordAccumulator(config);
    for (let p = 0; p < 4; p++) for (let i = 0; i < 25; i++) acc.append(record('t', p), 1000);
    const queues = acc.ready(1000, leaderOne, false).byNode.get(1)!;
    const first = acc.drain(queues, 1000, 2500, false, () => true);
    expect(first).toHaveLength(2);
    expect(new Set(first.map((b) => b.partition)).size).toBe(2);
    const refused = acc.drain(queues, 1000, 1 << 20, false, (b) => b.partition !== 0);
    expect(refused.map((b) => b.partition).includes(0)).toBe(false);
  });

  it('puts retried batches back ahead of unsent ones, in sequence order', () => {
    const acc = new RecordAccumulator(config);
    for (let i = 0; i < 40; i++) acc.append(record('t', 0), 1000);
    const queues = acc.ready(1000, leaderOne, false).byNode.get(1)!;
    const sent = [0, 1, 2].map(() => acc.drain(queues, 1000, 1 << 20, false, () => true)[0]);
    sent.forEach((b, i) => {
      b.setProducerState(7n, 0, i * 10);
      b.attempts = 1;
    });
    acc.reenqueue(sent[2]);
    acc.reenqueue(sent[0]);
    acc.reenqueue(sent[1]);
    const order = [0, 1, 2, 3].map(() => acc.drain(queues, 5000, 1 << 20, false, () => true)[0]);
    expect(order.slice(0, 3).map((b) => b.baseSequence)).toEqual([0, 10, 20]);
    expect(order[3].sent).toBe(false);
  });

  it('expires batches older than the delivery timeout, oldest first', () => {
    const acc = new RecordAccumulator(config);
    acc.append(record('t', 0), 1000);
    acc.append(record('t', 1), 1500);
    expect(acc.expire(1999)).toHaveLength(0);
    expect(acc.expire(2000)).toHaveLength(1);
    expect(acc.expire(2500)).toHaveLength(1);
    expect(acc.hasIncomplete).toBe(true);
  });

  it('fits more records in a compressed batch as it learns the compression ratio, as Java does', () => {
    const acc = new RecordAccumulator({ ...config, batchSize: 10_061, compression: 1 });
    // Records that go into one batch: appends until one opens the next batch (which is then taken away).
    const perBatch = () => {
      acc.takeAll();
      acc.append(record('z', 0), 1000);
      let n = 1;
      while (!acc.append(record('z', 0), 1000).newBatch && n < 100_000) n++;
      return n;
    };
    expect(perBatch()).toBe(100);
    // Falls by 0.005 per batch towards what is observed (here 0.2).
    for (let i = 0; i < 200; i++) acc.observeCompression('z', 10_000, 2_000);
    expect(perBatch()).toBe(Math.floor(10_000 / 100 / (0.2 * 1.05)));
    // Worse than expected: the ratio rises at once.
    acc.observeCompression('z', 10_000, 9_000);
    expect(perBatch()).toBe(Math.floor(10_000 / 100 / (0.9 * 1.05)));
  });
});

describe('BufferMemory', () => {
  it('serves waiters first come, first served, and times them out with BufferExhaustedError', async () => {
    const memory = new BufferMemory(1000);
    expect(memory.tryReserve(800)).toBe(true);
    const order: string[] = [];
    const big = memory.reserve(500, 1000).then(() => order.push('big'));
    const small = memory.reserve(100, 1000).then(() => order.push('small'));
    // Room for the small one, but the big one is ahead of it.
    expect(memory.tryReserve(100)).toBe(false);
    expect(memory.exhausted).toBe(true);
    memory.release(400);
    await Promise.all([big, small]);
    expect(order).toEqual(['big', 'small']);
    await expect(memory.reserve(900, 10)).rejects.toBeInstanceOf(BufferExhaustedError);
  });
});
