/**
 * How `processBatches` stops, on the fake cluster with a manual `assign()` (no group): a `close()` during a run
 * starts no new batch, waits for the running handlers and commits exactly what they finished (a handler that
 * never returns is given up after `revokeTimeoutMs`, reported by a `warning`, and its batch not committed);
 * the auto-commits during the run store only finished batches, in memory or a FileOffsetStore; aborting the
 * signal stops every lane at its next batch boundary, the batches not started going back to be read again. A
 * re-assignment (`assign()` leaving a partition out, `unsubscribe()`) lets go of the dropped partitions as a
 * revoke does: their running handlers are awaited (bounded, a `warning` when given up) before the commit.
 * Logic only: the real-broker tests are test/integration/consumer/concurrent-stop.test.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from '../../../src/cluster/backoff.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { ConsumerBatch } from '../../../src/consumer/consumer-record.js';
import type { ConsumerWarningEvent } from '../../../src/consumer/events.js';
import type { Coordinators } from '../../../src/coordinator/coordinators.js';
import { FileOffsetStore } from '../../../src/offsets/file/file-offset-store.js';
import { MemoryOffsetStore } from '../../../src/offsets/memory-offset-store.js';
import type { OffsetCommit, OffsetStore } from '../../../src/offsets/offset-store.js';
import { FakeKafka } from '../../fake-kafka/cluster.js';
import { consumerView } from '../../fake-kafka/views.js';

const PARTITIONS = 4;
const RECORDS = 60;
const all = Array.from({ length: PARTITIONS }, (_, partition) => ({ topic: 't', partition }));

/** Where each partition's finished batches end: what a commit may store, and no more. */
class Finished {
  readonly ends = new Map<number, bigint>();
  note(batch: ConsumerBatch): void {
    this.ends.set(batch.partition, batch.nextOffset);
  }
  end(partition: number): bigint {
    return this.ends.get(partition) ?? 0n;
  }
  count(): number {
    return [...this.ends.values()].reduce((n, end) => n + Number(end), 0);
  }
}

/** Checks every commit against what handlers had finished when it was made. */
class CheckingStore extends MemoryOffsetStore {
  readonly ahead: OffsetCommit[] = [];
  constructor(private readonly finished: Finished) {
    super();
  }
  override async commit(group: string, offsets: readonly OffsetCommit[]): Promise<void> {
    for (const o of offsets) if (o.offset > this.finished.end(o.partition)) this.ahead.push(o);
    return super.commit(group, offsets);
  }
}

let open: Consumer[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  open = [];
});

function setUp(revokeTimeoutMs = 5_000, fileStore?: FileOffsetStore) {
  const kafka = new FakeKafka([1]);
  kafka.createTopic('t', PARTITIONS);
  for (let p = 0; p < PARTITIONS; p++) kafka.append('t', p, RECORDS, 5);
  const finished = new Finished();
  const store = new CheckingStore(finished);
  const consumer = new Consumer(
    { cluster: consumerView(kafka), coordinators: {} as Coordinators },
    {
      groupId: 'g',
      offsetStore: fileStore ?? store,
      autoOffsetReset: 'earliest',
      autoCommitIntervalMs: 20,
      fetchMaxWaitMs: 10,
      maxPartitionFetchBytes: 300,
      revokeTimeoutMs,
    },
  );
  open.push(consumer);
  const warnings: ConsumerWarningEvent[] = [];
  consumer.on('warning', (w) => warnings.push(w));
  consumer.assign(all);
  return { consumer, store, finished, warnings };
}

async function storedOffsets(store: OffsetStore): Promise<bigint[]> {
  const loaded = await store.load('g', all);
  return all.map((p) => loaded.get('t')?.get(p.partition)?.offset ?? 0n);
}

/**
 * Runs handlers on two partitions at once, partition 0's second batch never returning, and then `stop`: it must
 * go on after revokeTimeoutMs, with a `warning` that `step` went on without that handler, and partition 0
 * stored at the stuck batch's first record (read again later).
 */
async function stuckOnPartition0(
  { consumer, store, finished, warnings }: ReturnType<typeof setUp>,
  stop: (consumer: Consumer) => Promise<void>,
  step: string,
) {
  let stuck: ConsumerBatch | undefined;
  const never = new Promise<void>(() => {});
  const run = consumer.processBatches(
    async (batch) => {
      if (batch.partition === 0 && batch.records[0].offset > 0n) {
        stuck = batch;
        await never;
      }
      await sleep(5);
      finished.note(batch);
    },
    { concurrency: 2 },
  );
  while (stuck === undefined || finished.end(1) < 20n) await sleep(10);
  const started = Date.now();
  await stop(consumer);
  const took = Date.now() - started;
  expect(took).toBeGreaterThanOrEqual(250);
  expect(took).toBeLessThan(5_000);
  const aboutStuck = warnings.filter((w) => w.message.startsWith(`${step} went on without the handler`));
  expect(aboutStuck.map((w) => [w.topic, w.partition])).toEqual([['t', 0]]);
  expect(aboutStuck[0].message).toContain(`from offset ${stuck?.records[0].offset}`);
  expect((await storedOffsets(store))[0]).toBe(stuck?.records[0].offset);
  return { consumer, store, finished, run };
}

describe('processBatches: stopping without a re-read', () => {
  /** Runs slow handlers on three partitions at once and closes the consumer while they run. */
  async function closeMidRun(consumer: Consumer, finished: Finished): Promise<number> {
    let closing = false;
    let startedWhileClosing = 0;
    let closed: Promise<void> | undefined;
    await consumer.processBatches(
      async (batch) => {
        if (closing) startedWhileClosing++;
        await sleep(40);
        finished.note(batch);
        // Close while the other handlers run (this one returns right away; it must not await the close).
        if (finished.count() >= 40 && closed === undefined) {
          closing = true;
          closed = consumer.close();
        }
      },
      { concurrency: 3 },
    );
    await closed;
    return startedWhileClosing;
  }

  it('close() waits for the running handlers, starts no new batch, and commits exactly what they finished', async () => {
    const { consumer, store, finished } = setUp();
    expect(await closeMidRun(consumer, finished)).toBe(0);
    // The handlers running at the close finished after it began, and their batches were committed.
    expect(await storedOffsets(store)).toEqual(all.map((p) => finished.end(p.partition)));
    expect(finished.count()).toBeLessThan(PARTITIONS * RECORDS);
    // No commit, during the run (every 20 ms) or at the close, stored a batch whose handler had not returned.
    expect(store.ahead).toEqual([]);
  });

  it('the same into a FileOffsetStore: reopened, it holds exactly where the finished batches end', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tidemark-lanes-'));
    try {
      const fileStore = new FileOffsetStore({ dir, fsync: false });
      const { consumer, finished } = setUp(5_000, fileStore);
      expect(await closeMidRun(consumer, finished)).toBe(0);
      await fileStore.close();
      const reopened = new FileOffsetStore({ dir, fsync: false });
      expect(await storedOffsets(reopened)).toEqual(all.map((p) => finished.end(p.partition)));
      expect(finished.count()).toBeGreaterThan(0);
      await reopened.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a handler that never returns: close goes on after revokeTimeoutMs, says so, and does not commit its batch', async () => {
    const { store, finished, run } = await stuckOnPartition0(setUp(300), (c) => c.close(), 'close');
    const stored = await storedOffsets(store);
    expect(stored).toEqual(all.map((p) => finished.end(p.partition)));
    expect(store.ahead).toEqual([]);
    // The run itself still waits for the stuck handler (it is the application's): not part of the close.
    let ran = false;
    void run.then(() => {
      ran = true;
    });
    await sleep(20);
    expect(ran).toBe(false);
  });

  it('aborting the signal stops every lane at its next batch boundary; batches not started are read again', async () => {
    const { consumer, store, finished } = setUp();
    const stop = new AbortController();
    let startedAfterStop = 0;
    const firstRun: number[][] = Array.from({ length: PARTITIONS }, () => []);
    await consumer.processBatches(
      async (batch) => {
        if (stop.signal.aborted) startedAfterStop++;
        await sleep(20);
        firstRun[batch.partition].push(...batch.records.map((r) => Number(r.offset)));
        finished.note(batch);
        if (finished.count() >= 40) stop.abort();
      },
      { concurrency: 3, signal: stop.signal },
    );
    expect(startedAfterStop).toBe(0);
    expect(finished.count()).toBeLessThan(PARTITIONS * RECORDS);
    // Each partition goes on from the first record no handler finished: nothing skipped, nothing twice.
    const secondRun: number[][] = Array.from({ length: PARTITIONS }, () => []);
    const rest = new AbortController();
    await consumer.processBatches(
      (batch) => {
        secondRun[batch.partition].push(...batch.records.map((r) => Number(r.offset)));
        finished.note(batch);
        if (secondRun.flat().length + firstRun.flat().length >= PARTITIONS * RECORDS) rest.abort();
      },
      { concurrency: 3, signal: AbortSignal.any([rest.signal, AbortSignal.timeout(5_000)]) },
    );
    const expected = Array.from({ length: RECORDS }, (_, i) => i);
    for (let p = 0; p < PARTITIONS; p++) expect([...firstRun[p], ...secondRun[p]]).toEqual(expected);
    await consumer.close();
    expect(await storedOffsets(store)).toEqual(all.map(() => BigInt(RECORDS)));
  });
});

describe('processBatches: a manual re-assignment lets go of dropped partitions as a revoke does', () => {
  /** Runs handlers on every partition; once partition 0's handler runs past `after` records, calls `drop`. */
  async function dropMidRun(consumer: Consumer, finished: Finished, drop: () => void, handlerMs = 150) {
    let dropped = false;
    let running: ConsumerBatch | undefined;
    const stop = new AbortController();
    const run = consumer.processBatches(
      async (batch) => {
        if (batch.partition === 0 && !dropped && batch.records[0].offset >= 10n) {
          running = batch;
          dropped = true;
          setTimeout(drop, 20);
          await sleep(handlerMs);
        } else await sleep(5);
        finished.note(batch);
        if (finished.count() >= 3 * RECORDS) stop.abort();
      },
      { concurrency: 4, signal: AbortSignal.any([stop.signal, AbortSignal.timeout(10_000)]) },
    );
    return { run, running: () => running as ConsumerBatch, stop };
  }

  it('assign() without a partition whose handler runs: waits for it, then commits where that batch ends', async () => {
    const { consumer, store, finished, warnings } = setUp();
    const { run, running, stop } = await dropMidRun(consumer, finished, () => consumer.assign(all.slice(1)));
    while (!finished.ends.has(0) || finished.end(0) < running()?.nextOffset) await sleep(10);
    // The drop commits once the handler returned: exactly where its batch ends (before, the batch's first record).
    let stored = await storedOffsets(store);
    for (let i = 0; i < 50 && stored[0] !== running().nextOffset; i++) {
      await sleep(20);
      stored = await storedOffsets(store);
    }
    expect(stored[0]).toBe(running().nextOffset);
    expect(consumer.assignment()).toEqual(all.slice(1));
    stop.abort();
    await run;
    expect(store.ahead).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('unsubscribe() waits for the running handlers and commits exactly what they finished', async () => {
    const { consumer, store, finished } = setUp();
    let unsubscribed: Promise<void> | undefined;
    const { run, running } = await dropMidRun(consumer, finished, () => {
      unsubscribed = consumer.unsubscribe();
    });
    while (unsubscribed === undefined) await sleep(5);
    await unsubscribed;
    // Resolved after the handler running at the call returned, with its batch committed.
    expect(finished.end(0)).toBe(running().nextOffset);
    expect(await storedOffsets(store)).toEqual(all.map((p) => finished.end(p.partition)));
    expect(consumer.assignment()).toEqual([]);
    expect(store.ahead).toEqual([]);
    await consumer.close();
    await run;
  });

  it('a handler that never returns: the re-assignment goes on after revokeTimeoutMs and says so', async () => {
    const { consumer, store } = await stuckOnPartition0(setUp(300), (c) => c.unsubscribe(), 'assign()');
    expect(consumer.assignment()).toEqual([]);
    expect(store.ahead).toEqual([]);
  });
});
