/** The producer's queue of records waiting for metadata or buffer room: order kept across compactions. */
import { describe, expect, it } from 'vitest';
import type { PendingRecord } from '../../../src/producer/batch.js';
import { appended, settleWaiters, WaitingRecords } from '../../../src/producer/waiting-records.js';

const record = (i: number) => ({ index: i }) as unknown as PendingRecord;

describe('WaitingRecords', () => {
  it('takes records off in the order they came, through compactions, with more pushed meanwhile', () => {
    const q = new WaitingRecords();
    const taken: number[] = [];
    let next = 0;
    for (; next < 5000; next++) q.push(record(next), next);
    // Take 3 for every 1 pushed: the head passes the compaction threshold many times.
    while (q.length > 0) {
      for (let k = 0; k < 3 && q.length > 0; k++) {
        const w = q.first();
        if (w === undefined) throw new Error('queue claims records but has none');
        taken.push(w.record.index);
        expect(w.since).toBe(w.record.index);
        q.shift();
      }
      if (next < 7000) q.push(record(next), next++);
    }
    expect(taken).toEqual(Array.from({ length: 7000 }, (_, i) => i));
    expect(q.first()).toBeUndefined();
    expect(q.last()).toBeUndefined();
  });

  it('last() is the newest, takeAll() empties it oldest first, and flushes waiting on a record are called', async () => {
    const q = new WaitingRecords();
    for (let i = 0; i < 3000; i++) q.push(record(i), 0);
    for (let i = 0; i < 2000; i++) q.shift();
    expect(q.last()?.record.index).toBe(2999);
    const last = q.last();
    if (last === undefined) throw new Error('no last record');
    let done = 0;
    const waits = [appended(last).then(() => done++), appended(last).then(() => done++)];
    const all = q.takeAll();
    expect(all.map((w) => w.record.index)).toEqual(Array.from({ length: 1000 }, (_, i) => 2000 + i));
    expect(q.length).toBe(0);
    for (const w of all) settleWaiters(w);
    await Promise.all(waits);
    expect(done).toBe(2);
  });
});
