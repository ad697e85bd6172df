/**
 * Bounded per-partition concurrency (src/consumer/concurrent.ts) on the fake cluster: order within each
 * partition, never more than `concurrency` handlers at once (and more than one reached), a throwing handler's
 * partition read again from the failed record while the others go on, and a revoke that waits for the revoked
 * partition's running handler and commits only what handlers finished. Logic only: the real-broker tests are
 * test/integration/consumer/concurrent.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from '../../../src/cluster/backoff.js';
import { processBatches } from '../../../src/consumer/concurrent.js';
import { buildParts, type ConsumerParts } from '../../../src/consumer/consumer-parts.js';
import type { ConsumerBatch } from '../../../src/consumer/consumer-record.js';
import type { GroupMembership } from '../../../src/consumer/group/membership.js';
import { groupListener } from '../../../src/consumer/group-listener.js';
import type { Coordinators } from '../../../src/coordinator/coordinators.js';
import { MemoryOffsetStore } from '../../../src/offsets/memory-offset-store.js';
import type { OffsetCommit } from '../../../src/offsets/offset-store.js';
import { ConfigError } from '../../../src/options/config-error.js';
import { FakeKafka } from '../../fake-kafka/cluster.js';
import { consumerView } from '../../fake-kafka/views.js';

class RecordingStore extends MemoryOffsetStore {
  readonly commits: OffsetCommit[][] = [];
  override async commit(group: string, offsets: readonly OffsetCommit[]): Promise<void> {
    this.commits.push([...offsets]);
    return super.commit(group, offsets);
  }
}

let parts: ConsumerParts | undefined;
afterEach(async () => {
  await parts?.fetcher.close();
  parts = undefined;
});

const PARTITIONS = 4;
const RECORDS = 60;
const all = Array.from({ length: PARTITIONS }, (_, partition) => ({ topic: 't', partition }));

/** A fake cluster with 4 partitions of 60 records (or `records`) in batches of 5, fetched a few batches at a time. */
function setUp(records = RECORDS) {
  const kafka = new FakeKafka([1]);
  kafka.createTopic('t', PARTITIONS);
  for (let p = 0; p < PARTITIONS; p++) kafka.append('t', p, records, 5);
  const store = new RecordingStore();
  const membership = {
    commitContext: () => ({ groupId: 'g', memberId: 'm-1', generationId: 1, groupInstanceId: null }),
    notePoll: () => {},
    requestRejoin: () => {},
  } as unknown as GroupMembership;
  parts = buildParts(
    { cluster: consumerView(kafka), coordinators: {} as Coordinators },
    {
      groupId: 'g',
      offsetStore: store,
      autoOffsetReset: 'earliest',
      fetchMaxWaitMs: 10,
      maxPartitionFetchBytes: 300,
      revokeTimeoutMs: 5_000,
    },
    30_000,
    {
      emit: () => {},
      listens: () => false,
      membership: () => membership,
      isClosed: () => false,
      isLeaving: () => false,
    },
  );
  const listener = groupListener({ ...parts.listenerContext(), groupId: 'g', user: undefined });
  return { parts, listener, store };
}

const offsetsOf = (batch: ConsumerBatch) => batch.records.map((r) => Number(r.offset));

describe('processBatches: bounded per-partition concurrency', () => {
  it('keeps order within each partition and never runs more than `concurrency` handlers', async () => {
    const { parts, listener } = setUp();
    await listener.onAssigned!(all);
    const seen = new Map<number, number[]>();
    let batches = 0;
    let running = 0;
    let most = 0;
    const runningPartitions = new Set<number>();
    const stop = new AbortController();
    await processBatches(
      parts.delivery,
      parts.positions,
      async (batch) => {
        expect(runningPartitions.has(batch.partition)).toBe(false);
        runningPartitions.add(batch.partition);
        most = Math.max(most, ++running);
        batches++;
        await sleep(5);
        seen.set(batch.partition, [...(seen.get(batch.partition) ?? []), ...offsetsOf(batch)]);
        running--;
        runningPartitions.delete(batch.partition);
        if ([...seen.values()].flat().length === PARTITIONS * RECORDS) stop.abort();
      },
      { concurrency: 3, signal: stop.signal },
    );
    const expected = Array.from({ length: RECORDS }, (_, i) => i);
    for (let p = 0; p < PARTITIONS; p++) expect(seen.get(p)).toEqual(expected);
    expect(most).toBe(3);
    // Several batches per partition, so the order held across batches, not only inside one.
    expect(batches).toBeGreaterThan(PARTITIONS * 2);
    // Every partition is processed to its end: that is what a commit would store.
    for (let p = 0; p < PARTITIONS; p++) expect(parts.positions.get('t', p)?.processed()?.offset).toBe(60n);
  });

  it("reads a throwing handler's partition again from the failed batch while the others go on", async () => {
    const { parts, listener } = setUp();
    await listener.onAssigned!(all);
    const seen = new Map<number, number[]>();
    const errors: unknown[] = [];
    let failedOnce = false;
    const otherDuringBackoff: number[] = [];
    let inBackoff = false;
    const stop = new AbortController();
    await processBatches(
      parts.delivery,
      parts.positions,
      async (batch) => {
        if (inBackoff && batch.partition !== 2) otherDuringBackoff.push(batch.partition);
        const offsets = offsetsOf(batch);
        if (batch.partition === 2 && offsets.includes(20) && !failedOnce) {
          failedOnce = true;
          throw new Error('boom at 20');
        }
        seen.set(batch.partition, [...(seen.get(batch.partition) ?? []), ...offsets]);
        if ([...seen.values()].flat().length === PARTITIONS * RECORDS) stop.abort();
      },
      {
        concurrency: 2,
        signal: stop.signal,
        onError: async (error, batch) => {
          errors.push([(error as Error).message, batch.partition]);
          inBackoff = true;
          await sleep(100);
          inBackoff = false;
        },
      },
    );
    expect(errors).toEqual([['boom at 20', 2]]);
    const expected = Array.from({ length: RECORDS }, (_, i) => i);
    // Read again from the failed batch: every record once in the seen list, in order.
    for (let p = 0; p < PARTITIONS; p++) expect(seen.get(p)).toEqual(expected);
    expect(otherDuringBackoff.length).toBeGreaterThan(0);
  });

  it("stops with a handler's error when there is no onError, after the running handlers return", async () => {
    const { parts, listener } = setUp();
    await listener.onAssigned!(all);
    let returned = 0;
    const run = processBatches(
      parts.delivery,
      parts.positions,
      async (batch) => {
        if (batch.partition === 1) throw new Error('handler failed');
        await sleep(30);
        returned++;
      },
      { concurrency: 4 },
    );
    await expect(run).rejects.toThrow('handler failed');
    const afterStop = returned;
    await sleep(60);
    expect(returned).toBe(afterStop);
    // Partition 1 was not processed: its position went back to the failed batch.
    expect(parts.positions.get('t', 1)?.processed()?.offset).toBe(0n);
    expect(parts.positions.get('t', 1)?.position).toBe(0n);
  });

  it('a revoke waits for the running handler of a revoked partition and commits only finished batches', async () => {
    const { parts, listener, store } = setUp();
    await listener.onAssigned!(all);
    let release: (() => void) | undefined;
    const holding = new Promise<ConsumerBatch>((resolveHeld) => {
      void processBatches(
        parts.delivery,
        parts.positions,
        async (batch) => {
          if (batch.partition === 0 && release === undefined) {
            const released = new Promise<void>((r) => {
              release = r;
            });
            resolveHeld(batch);
            await released;
          }
        },
        { concurrency: 2, signal: AbortSignal.timeout(3_000) },
      ).catch(() => {});
    });
    const held = await holding;
    let revoked = false;
    const revoking = Promise.resolve(listener.onRevoked!([{ topic: 't', partition: 0 }])).then(() => {
      revoked = true;
    });
    await sleep(100);
    expect(revoked).toBe(false);
    expect(store.commits.flat().filter((c) => c.partition === 0)).toEqual([]);
    release?.();
    await revoking;
    // Committed exactly the end of the batch whose handler returned: nothing behind it was processed.
    const committed = store.commits.flat().filter((c) => c.partition === 0);
    expect(committed.map((c) => c.offset)).toEqual([held.nextOffset]);
    expect(held.nextOffset).toBeLessThan(60n);
    expect(parts.positions.get('t', 0)).toBeUndefined();
  });

  it('a partition whose handler is stuck holds back only its own fetching, not the other partitions', async () => {
    const records = 300;
    const { parts, listener } = setUp(records);
    await listener.onAssigned!(all);
    let release: () => void = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    const seen = new Map<number, number[]>();
    const total = () => [...seen.values()].flat().length;
    const stop = new AbortController();
    const run = processBatches(
      parts.delivery,
      parts.positions,
      async (batch) => {
        if (batch.partition === 0) await released;
        seen.set(batch.partition, [...(seen.get(batch.partition) ?? []), ...offsetsOf(batch)]);
        if (total() === PARTITIONS * records) stop.abort();
      },
      { concurrency: 2, signal: AbortSignal.any([stop.signal, AbortSignal.timeout(10_000)]) },
    );
    // Partition 0's first handler is stuck: the other three still go to their ends through the other slot.
    const othersDone = () => [1, 2, 3].every((p) => seen.get(p)?.length === records);
    for (const deadline = Date.now() + 5_000; !othersDone() && Date.now() < deadline; ) await sleep(10);
    expect(othersDone()).toBe(true);
    expect(seen.get(0)).toBeUndefined();
    // Partition 0 was fetched only a few batches past its stuck handler: it holds its own bytes, no more.
    const p0 = parts.positions.get('t', 0);
    expect(p0?.backlogged).toBe(true);
    expect(p0?.position).toBeLessThan(150n);
    release();
    await run;
    const expected = Array.from({ length: records }, (_, i) => i);
    for (let p = 0; p < PARTITIONS; p++) expect(seen.get(p)).toEqual(expected);
    expect(p0?.backlogged).toBe(false);
  });

  it('lanes take turns for the slots: a partition with batches always waiting does not keep its slot', async () => {
    const { parts, listener } = setUp();
    await listener.onAssigned!(all);
    const order: number[] = [];
    const stop = new AbortController();
    await processBatches(
      parts.delivery,
      parts.positions,
      async (batch) => {
        order.push(batch.partition);
        await sleep(5);
        if (order.length === 12) stop.abort();
      },
      { concurrency: 1, signal: AbortSignal.any([stop.signal, AbortSignal.timeout(5_000)]) },
    );
    // One slot, four partitions with batches waiting: all four ran within the first eight batches.
    expect(new Set(order.slice(0, 8)).size).toBe(PARTITIONS);
  });

  it('refuses a concurrency that is not a positive integer', async () => {
    const { parts } = setUp();
    await expect(processBatches(parts.delivery, parts.positions, () => {}, { concurrency: 0 })).rejects.toThrow(
      ConfigError,
    );
  });
});
