import { describe, expect, it } from 'vitest';
import { FetchBuffer } from '../../../../src/consumer/fetch/fetch-buffer.js';
import { PartitionState } from '../../../../src/consumer/positions.js';
import { chunkWith } from './chunks.js';

const chunkOf = (state: PartitionState, bytes: number) => chunkWith(state, Buffer.alloc(bytes));

describe('FetchBuffer', () => {
  it('counts reserved, buffered and released bytes against its limit', () => {
    let spaceCalls = 0;
    const buffer = new FetchBuffer(1000, () => spaceCalls++);
    const s = new PartitionState('t', 0);
    buffer.reserve(600);
    expect(buffer.available).toBe(400);
    buffer.push(chunkOf(s, 500));
    buffer.unreserve(600);
    expect(buffer.available).toBe(500);
    const taken = buffer.shift()!;
    // Taken is not released: the application still holds it.
    expect(buffer.available).toBe(500);
    buffer.release(taken);
    expect(buffer.available).toBe(1000);
    expect(spaceCalls).toBe(2);
  });

  it('tells the fetch loop of released room only once a fetch fits (a quarter of the limit)', () => {
    let spaceCalls = 0;
    const buffer = new FetchBuffer(1000, () => spaceCalls++);
    expect(buffer.requestBytes).toBe(250);
    const s = new PartitionState('t', 0);
    for (const bytes of [450, 300, 100, 100]) buffer.push(chunkOf(s, bytes));
    const taken = [0, 1, 2, 3].map(() => buffer.shift()!);
    buffer.release(taken[3]);
    expect(buffer.available).toBe(150);
    expect(spaceCalls).toBe(0);
    buffer.release(taken[2]);
    expect(buffer.available).toBe(250);
    expect(spaceCalls).toBe(1);
    buffer.release(taken[1]);
    expect(spaceCalls).toBe(2);
  });

  it('drops the chunks of one partition and frees their bytes', () => {
    const buffer = new FetchBuffer(10_000, () => {});
    const a = new PartitionState('t', 0);
    const b = new PartitionState('t', 1);
    buffer.push(chunkOf(a, 100));
    buffer.push(chunkOf(b, 200));
    buffer.push(chunkOf(a, 300));
    expect(buffer.drop((c) => c.state === a)).toBe(400);
    expect(buffer.buffered).toBe(200);
    expect(buffer.shift()?.state).toBe(b);
    expect(buffer.shift()).toBeUndefined();
  });

  it('wakes waiters on data and on notify, and rejects them when their signal aborts', async () => {
    const buffer = new FetchBuffer(10_000, () => {});
    const waiting = buffer.wait();
    buffer.push(chunkOf(new PartitionState('t', 0), 1));
    await waiting;
    const woken = buffer.wait();
    buffer.notify();
    await woken;
    const controller = new AbortController();
    const aborted = buffer.wait(controller.signal);
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
  });
});
