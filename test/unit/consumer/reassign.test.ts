/**
 * A manual `assign()` that takes a partition back while its drop is still pending (the drop waits for the
 * partition's running handler or the batch in hand, then commits): on the fake cluster, the partition must go
 * on from where what was processed ends, never reading a record again or skipping one, and the pending drop
 * must not store an older offset after a newer one; a close, or an unsubscribe() dropping it again, while it
 * waits commits where the running handler's batch ends. Logic only: the real-broker tests are
 * test/integration/consumer/reassign.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from '../../../src/cluster/backoff.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { ConsumerWarningEvent } from '../../../src/consumer/events.js';
import type { Coordinators } from '../../../src/coordinator/coordinators.js';
import { MemoryOffsetStore } from '../../../src/offsets/memory-offset-store.js';
import type { OffsetCommit } from '../../../src/offsets/offset-store.js';
import { FakeKafka } from '../../fake-kafka/cluster.js';
import { consumerView } from '../../fake-kafka/views.js';

const PARTITIONS = 2;
const RECORDS = 60;
const all = Array.from({ length: PARTITIONS }, (_, partition) => ({ topic: 't', partition }));

/** Every commit in the order the store received it. */
class RecordingStore extends MemoryOffsetStore {
  readonly commits: OffsetCommit[] = [];
  override async commit(group: string, offsets: readonly OffsetCommit[]): Promise<void> {
    this.commits.push(...offsets);
    return super.commit(group, offsets);
  }
  /** The offsets stored for `partition`, in order. */
  of(partition: number): bigint[] {
    return this.commits.filter((c) => c.partition === partition).map((c) => c.offset);
  }
}

let open: Consumer[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  open = [];
});

function setUp(autoCommit = true) {
  const kafka = new FakeKafka([1]);
  kafka.createTopic('t', PARTITIONS);
  for (let p = 0; p < PARTITIONS; p++) kafka.append('t', p, RECORDS, 5);
  const store = new RecordingStore();
  const consumer = new Consumer(
    { cluster: consumerView(kafka), coordinators: {} as Coordinators },
    {
      groupId: 'g',
      offsetStore: store,
      autoCommit,
      autoOffsetReset: 'earliest',
      autoCommitIntervalMs: 20,
      fetchMaxWaitMs: 10,
      maxPartitionFetchBytes: 300,
      revokeTimeoutMs: 5_000,
    },
  );
  open.push(consumer);
  const warnings: ConsumerWarningEvent[] = [];
  consumer.on('warning', (w) => warnings.push(w));
  consumer.assign(all);
  return { consumer, store, warnings };
}

const each = (n: number) => Array.from({ length: n }, (_, i) => i);
const ascending = (xs: readonly bigint[]) => xs.every((x, i) => i === 0 || x >= xs[i - 1]);

/**
 * Reads partition 0 batch by batch until `upTo` records; in the body of the first batch from offset 10 on,
 * drops the partition and takes it back (the drop waits for this batch), runs `then`, and holds the batch a
 * while, so the fetcher has time to look the partition up again. The last batch is acknowledged before the
 * loop is left (leaving gives it up). Returns the offsets read and where the batch held through the drop ends.
 */
async function readTakingBack(consumer: Consumer, upTo: (seen: number[]) => boolean, then = () => {}) {
  const seen: number[] = [];
  let inHandEnd = -1;
  for await (const batch of consumer.batches({ signal: AbortSignal.timeout(8_000) })) {
    if (batch.partition !== 0) continue;
    seen.push(...batch.records.map((r) => Number(r.offset)));
    if (inHandEnd < 0 && batch.records[0].offset >= 10n) {
      inHandEnd = Number(batch.nextOffset);
      consumer.assign(all.slice(1));
      consumer.assign(all);
      then();
      await sleep(100);
    }
    if (!upTo(seen)) continue;
    batch.ack();
    break;
  }
  expect(inHandEnd).toBeGreaterThan(10);
  return { seen, inHandEnd };
}

describe('assign(): a partition taken back while its drop is pending', () => {
  it('processBatches: goes on after the batch whose handler ran through the drop, nothing read twice', async () => {
    const { consumer, store, warnings } = setUp();
    const seen: number[][] = all.map(() => []);
    let reassigned = false;
    const stop = new AbortController();
    const run = consumer.processBatches(
      async (batch) => {
        if (batch.partition === 0 && !reassigned && batch.records[0].offset >= 10n) {
          reassigned = true;
          // Dropped and taken back while this handler runs: the drop is still waiting for it.
          setTimeout(() => consumer.assign(all.slice(1)), 20);
          setTimeout(() => consumer.assign(all), 40);
          await sleep(150);
        } else await sleep(2);
        seen[batch.partition].push(...batch.records.map((r) => Number(r.offset)));
        if (seen.flat().length >= PARTITIONS * RECORDS) stop.abort();
      },
      { concurrency: 2, signal: AbortSignal.any([stop.signal, AbortSignal.timeout(8_000)]) },
    );
    await run;
    expect(reassigned).toBe(true);
    for (const offsets of seen) expect(offsets).toEqual(each(RECORDS));
    await consumer.close();
    expect(store.of(0).at(-1)).toBe(BigInt(RECORDS));
    expect(ascending(store.of(0))).toBe(true);
    expect(warnings).toEqual([]);
  });

  it.each([
    { how: 'close()', stop: (c: Consumer) => c.close() },
    // The new state is dropped before it took over: its drop commits what the earlier state processed.
    { how: 'unsubscribe()', stop: (c: Consumer) => c.unsubscribe() },
  ])('$how while it waits to take over commits where the running handler ends, not past it', async ({ stop }) => {
    const { consumer, store } = setUp();
    let running: { end: bigint; done: boolean } | undefined;
    let stopped: Promise<void> | undefined;
    const run = consumer.processBatches(
      async (batch) => {
        if (batch.partition !== 0 || running !== undefined || batch.records[0].offset < 10n) return;
        running = { end: batch.nextOffset, done: false };
        consumer.assign(all.slice(1));
        consumer.assign(all);
        setTimeout(() => {
          stopped = stop(consumer);
        }, 20);
        await sleep(150);
        running.done = true;
      },
      { concurrency: 2 },
    );
    while (stopped === undefined) await sleep(5);
    await stopped;
    // It waited for the handler of the earlier state, and committed where that batch ends.
    expect(running?.done).toBe(true);
    expect((await store.load('g', all)).get('t')?.get(0)?.offset).toBe(running?.end);
    expect(ascending(store.of(0))).toBe(true);
    expect(consumer.assignment()).toEqual([]);
    await consumer.close();
    await run;
  });

  it('the batch in hand: goes on after it once the loop asks for the next one, nothing read twice', async () => {
    const { consumer, store, warnings } = setUp();
    const { seen } = await readTakingBack(consumer, (seen) => seen.length >= RECORDS);
    expect(seen).toEqual(each(RECORDS));
    await consumer.close();
    expect(store.of(0).at(-1)).toBe(BigInt(RECORDS));
    expect(ascending(store.of(0))).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('without auto-commit: goes on from what was processed, and commit() stores it', async () => {
    const { consumer, store } = setUp(false);
    const { seen } = await readTakingBack(consumer, (seen) => seen.length >= 30);
    expect(seen).toEqual(each(30));
    await consumer.commit();
    expect(store.of(0)).toEqual([30n]);
  });

  it('a seek after taking it back wins over what the dropped incarnation processed', async () => {
    const { consumer } = setUp();
    const { seen, inHandEnd } = await readTakingBack(
      consumer,
      (seen) => seen.at(-1) === RECORDS - 1,
      () => consumer.seek(all[0], 40n),
    );
    expect(seen).toEqual([...each(inHandEnd), ...each(RECORDS - 40).map((i) => i + 40)]);
  });
});
