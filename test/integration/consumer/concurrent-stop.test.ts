import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { sleep } from '../../../src/cluster/backoff.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { ConsumerBatch } from '../../../src/consumer/consumer-record.js';
import { newClient, newTopic, produce, targets, uniqueGroup } from './setup.js';

/**
 * `close()` in the middle of `processBatches` against the real broker, in a group and with a manual `assign()`:
 * the close starts no new batch, waits for the handlers running then, and commits exactly what handlers
 * finished, so the next consumer of the group reads from exactly the first unprocessed offset of every
 * partition (no record read twice, none skipped). With `assign()`, every auto-commit during the run stores
 * only finished batches, and an `unsubscribe()` mid-run lets go of the partitions as the close does. Small topic, short handler delays: a few seconds per case.
 */
describe.each(targets())('processBatches stopped by close() ($label)', (target) => {
  const PARTITIONS = 4;
  const PER_PARTITION = 100;
  let client: Client;
  let topic: string;
  const all = () => Array.from({ length: PARTITIONS }, (_, partition) => ({ topic, partition }));

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'concurrent-stop', PARTITIONS);
    await produce(client, topic, [0, 1, 2, 3], PER_PARTITION, { batchSize: 10 });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  /**
   * A first consumer works slowly until about a fifth of the records are done, then is closed from outside
   * while its handlers run; returns where each partition's finished batches end, and the commits seen.
   */
  async function closeMidWork(first: Consumer, stop: (c: Consumer) => Promise<void> = (c) => c.close()) {
    const ends = new Map<number, bigint>();
    const finished = () => [...ends.values()].reduce((n, e) => n + Number(e), 0);
    const aheadOfWork: string[] = [];
    first.on('commit', (e) => {
      for (const o of e.offsets)
        if (o.offset > (ends.get(o.partition) ?? 0n)) aheadOfWork.push(`${e.reason} ${o.partition}@${o.offset}`);
    });
    let closing = false;
    let startedWhileClosing = 0;
    let running = 0;
    const run = first.processBatches(
      async (batch: ConsumerBatch) => {
        if (closing) startedWhileClosing++;
        running++;
        await sleep(40);
        ends.set(batch.partition, batch.nextOffset);
        running--;
      },
      { concurrency: 2, signal: AbortSignal.timeout(60_000) },
    );
    while (finished() < (PARTITIONS * PER_PARTITION) / 5 || running === 0) await sleep(5);
    closing = true;
    const runningAtClose = running;
    await stop(first);
    // Once stopped (an unsubscribe leaves nothing to read), the close ends the run.
    await first.close();
    await run;
    expect(runningAtClose).toBeGreaterThan(0);
    expect(startedWhileClosing).toBe(0);
    expect(aheadOfWork).toEqual([]);
    return all().map((p) => ends.get(p.partition) ?? 0n);
  }

  /** What a second consumer reads of every partition, up to the end. */
  async function readRest(second: Consumer, ends: bigint[]) {
    const read = new Map<number, bigint[]>();
    const left = () => ends.reduce((n, e) => n + PER_PARTITION - Number(e), 0);
    let count = 0;
    const stop = AbortSignal.timeout(30_000);
    for await (const batch of second.batches({ signal: stop })) {
      read.set(batch.partition, [...(read.get(batch.partition) ?? []), ...batch.records.map((r) => r.offset)]);
      count += batch.records.length;
      if (count >= left()) break;
    }
    return all().map((p) => read.get(p.partition) ?? []);
  }

  const range = (from: bigint) =>
    Array.from({ length: PER_PARTITION - Number(from) }, (_, i) => from + BigInt(i)) as bigint[];

  it('in a group: the next member reads from exactly the first unprocessed offset', { timeout: 90_000 }, async () => {
    const groupId = uniqueGroup('concurrent-close');
    const options = { groupId, autoOffsetReset: 'earliest' as const, maxPartitionFetchBytes: 1_000 };
    const first = new Consumer(client, options);
    await first.subscribe({ topics: [topic] });
    const ends = await closeMidWork(first);
    expect(ends.some((e) => e > 0n)).toBe(true);
    const committed = await client.offsets.committed(groupId, all());
    expect(committed.map((c) => c.offset ?? 0n)).toEqual(ends);
    const second = new Consumer(client, options);
    try {
      await second.subscribe({ topics: [topic] });
      const read = await readRest(second, ends);
      // No re-read (each partition starts where the first member's finished batches end) and no gap.
      for (let p = 0; p < PARTITIONS; p++) expect(read[p]).toEqual(range(ends[p]));
    } finally {
      await second.close();
    }
  });

  it.each([
    { how: 'close()', stop: undefined },
    { how: 'unsubscribe()', stop: (c: Consumer) => c.unsubscribe() },
  ])(
    'with assign(), stopped by $how: commits only finished batches, and a later assign() reads on from there',
    {
      timeout: 60_000,
    },
    async ({ stop }) => {
      const groupId = uniqueGroup('concurrent-assign');
      const options = {
        groupId,
        autoOffsetReset: 'earliest' as const,
        maxPartitionFetchBytes: 1_000,
        autoCommitIntervalMs: 50,
      };
      const first = new Consumer(client, options);
      first.assign(all());
      const ends = await closeMidWork(first, stop);
      const committed = await client.offsets.committed(groupId, all());
      expect(committed.map((c) => c.offset ?? 0n)).toEqual(ends);
      const second = new Consumer(client, options);
      try {
        second.assign(all());
        const read = await readRest(second, ends);
        for (let p = 0; p < PARTITIONS; p++) expect(read[p]).toEqual(range(ends[p]));
      } finally {
        await second.close();
      }
    },
  );
});
