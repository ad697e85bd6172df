import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { sleep } from '../../../src/cluster/backoff.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { ConsumerBatch } from '../../../src/consumer/consumer-record.js';
import { newClient, newTopic, produce, targets, uniqueGroup } from './setup.js';

/**
 * `consumer.processBatches(handler, { concurrency })` against the real broker: each partition's records in
 * order, at most `concurrency` handlers at once (and more than one reached), a throwing handler's partition read
 * again from the failed batch while the others go on, commits of exactly what handlers finished, and a
 * rebalance in the middle of slow handlers that loses nothing (the revoke waits for them before committing).
 */
describe.each(targets())('bounded per-partition concurrency ($label)', (target) => {
  const PARTITIONS = 4;
  const PER_PARTITION = 200;
  let client: Client;
  let topic: string;
  const all = () => Array.from({ length: PARTITIONS }, (_, partition) => ({ topic, partition }));

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'concurrent', PARTITIONS);
    await produce(client, topic, [0, 1, 2, 3], PER_PARTITION, { batchSize: 20 });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  const offsets = (batch: ConsumerBatch) => batch.records.map((r) => Number(r.offset));
  const expected = Array.from({ length: PER_PARTITION }, (_, i) => i);

  it('order per partition, at most 3 at once, a failed batch retried while others go on', {
    timeout: 90_000,
  }, async () => {
    const groupId = uniqueGroup('concurrent');
    // Small fetches, so each partition comes in several batches.
    const consumer = new Consumer(client, { groupId, autoOffsetReset: 'earliest', maxPartitionFetchBytes: 2_000 });
    await consumer.subscribe({ topics: [topic] });
    const seen = new Map<number, number[]>();
    let running = 0;
    let most = 0;
    let batches = 0;
    let failed = false;
    const errors: string[] = [];
    const done = new AbortController();
    const timeout = AbortSignal.timeout(60_000);
    await consumer.processBatches(
      async (batch) => {
        running++;
        batches++;
        most = Math.max(most, running);
        try {
          await sleep(10);
          if (batch.partition === 1 && offsets(batch).includes(100) && !failed) {
            failed = true;
            throw new Error('handler failed at 100');
          }
          seen.set(batch.partition, [...(seen.get(batch.partition) ?? []), ...offsets(batch)]);
          if ([...seen.values()].flat().length >= PARTITIONS * PER_PARTITION) done.abort();
        } finally {
          running--;
        }
      },
      {
        concurrency: 3,
        signal: AbortSignal.any([done.signal, timeout]),
        onError: async (error) => {
          errors.push((error as Error).message);
          await sleep(50);
        },
      },
    );
    expect(timeout.aborted).toBe(false);
    for (let p = 0; p < PARTITIONS; p++) expect(seen.get(p)).toEqual(expected);
    expect(errors).toEqual(['handler failed at 100']);
    expect(most).toBe(3);
    expect(batches).toBeGreaterThan(PARTITIONS * 2);
    await consumer.commit();
    const committed = await client.offsets.committed(groupId, all());
    expect(committed.map((c) => c.offset)).toEqual(all().map(() => BigInt(PER_PARTITION)));
    await consumer.close();
  });

  it('a member joining mid-work: nothing lost, the revoked partitions committed only up to finished batches', {
    timeout: 120_000,
  }, async () => {
    const groupId = uniqueGroup('concurrent-rebalance');
    const options = { groupId, autoOffsetReset: 'earliest' as const, maxPartitionFetchBytes: 2_000 };
    const first = new Consumer(client, options);
    const second = new Consumer(client, options);
    const seen = new Map<number, Set<number>>();
    const note = (batch: ConsumerBatch) => {
      const set = seen.get(batch.partition) ?? new Set<number>();
      for (const o of offsets(batch)) set.add(o);
      seen.set(batch.partition, set);
    };
    const total = () => [...seen.values()].reduce((n, s) => n + s.size, 0);
    const done = new AbortController();
    const signal = AbortSignal.any([done.signal, AbortSignal.timeout(90_000)]);
    let bySecond = 0;
    const revokedFromFirst: number[] = [];
    first.on('rebalance', (e) => {
      if (e.kind === 'revoked') revokedFromFirst.push(...e.partitions.map((p) => p.partition));
    });
    const slowHandler = async (batch: ConsumerBatch) => {
      await sleep(batch.records.length * 10);
      note(batch);
      if (total() >= PARTITIONS * PER_PARTITION) done.abort();
    };
    try {
      await first.subscribe({ topics: [topic] });
      const firstRun = first.processBatches(slowHandler, { concurrency: 2, signal });
      // Let the first member get going, then a second joins and takes partitions the first is working on.
      while (total() < 40) await sleep(20);
      await second.subscribe({ topics: [topic] });
      const secondRun = second.processBatches(
        async (batch) => {
          bySecond += batch.records.length;
          await slowHandler(batch);
        },
        { concurrency: 2, signal },
      );
      await Promise.all([firstRun, secondRun]);
      expect(signal.aborted && done.signal.aborted).toBe(true);
      // Every offset of every partition processed by one member or the other: no commit ran ahead of the work.
      for (let p = 0; p < PARTITIONS; p++) expect([...(seen.get(p) ?? [])].sort((a, b) => a - b)).toEqual(expected);
      // The second member took partitions over from the first (revoked while its handlers ran) and read them.
      expect(revokedFromFirst.length).toBeGreaterThan(0);
      expect(bySecond).toBeGreaterThan(0);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
