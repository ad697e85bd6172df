import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { sleep } from '../../../src/cluster/backoff.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { ConsumerBatch } from '../../../src/consumer/consumer-record.js';
import { newClient, newTopic, produce, targets, uniqueGroup } from './setup.js';

/**
 * A manual `assign()` taking a partition back while its drop is still pending (the drop waits for the handler
 * running on it, or the batch in hand, before it commits), against the real brokers: the partition goes on
 * after what was processed, so every record is handled exactly once, the group's offsets end at the end of
 * the log, and the stored offset of the partition never goes backwards. Before the fix, the re-added
 * partition looked its stored offset up at once and handed out the running batch a second time.
 */
describe.each(targets())('assign() taking a partition back while its drop is pending ($label)', (target) => {
  const PER_PARTITION = 100;
  let client: Client;
  let topic: string;
  const all = () => [0, 1].map((partition) => ({ topic, partition }));
  const each = Array.from({ length: PER_PARTITION }, (_, i) => i);

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'reassign', 2);
    await produce(client, topic, [0, 1], PER_PARTITION, { batchSize: 10 });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  /** A consumer of both partitions that records the offsets the group stores for partition 0, in order. */
  function newConsumer(groupId: string) {
    const consumer = new Consumer(client, {
      groupId,
      autoOffsetReset: 'earliest',
      autoCommitIntervalMs: 50,
      maxPartitionFetchBytes: 1_000,
    });
    const stored: bigint[] = [];
    consumer.on('commit', (e) => {
      for (const o of e.offsets) if (o.partition === 0) stored.push(o.offset);
    });
    consumer.assign(all());
    return { consumer, stored };
  }

  /**
   * Handles one batch for a test: the first batch of partition 0 from offset 20 on drops the partition and
   * takes it back while it is held (long enough for a lookup of the stored offset and a fetch on the real
   * broker); every batch's offsets go to `seen`. Returns whether every record was seen.
   */
  function handleTakingBack(consumer: Consumer, seen: number[][], state: { takenBack: boolean }) {
    return async (batch: ConsumerBatch): Promise<boolean> => {
      if (batch.partition === 0 && !state.takenBack && batch.records[0].offset >= 20n) {
        state.takenBack = true;
        consumer.assign(all().slice(1));
        consumer.assign(all());
        await sleep(500);
      }
      seen[batch.partition].push(...batch.records.map((r) => Number(r.offset)));
      return seen.flat().length >= 2 * PER_PARTITION;
    };
  }

  /** After the consumer closed: the group ends at the log's end, and partition 0's commits never went back. */
  async function expectCommittedToEnd(groupId: string, stored: bigint[]) {
    const committed = await client.offsets.committed(groupId, all());
    expect(committed.map((c) => c.offset)).toEqual([BigInt(PER_PARTITION), BigInt(PER_PARTITION)]);
    expect(stored.every((o, i) => i === 0 || o >= stored[i - 1])).toBe(true);
  }

  it('processBatches: the handler running through the drop and return is not run again', {
    timeout: 60_000,
  }, async () => {
    const groupId = uniqueGroup('reassign-lanes');
    const { consumer, stored } = newConsumer(groupId);
    const seen: number[][] = [[], []];
    const state = { takenBack: false };
    const handle = handleTakingBack(consumer, seen, state);
    const stop = new AbortController();
    try {
      await consumer.processBatches(
        async (batch) => {
          if (await handle(batch)) stop.abort();
        },
        { concurrency: 2, signal: AbortSignal.any([stop.signal, AbortSignal.timeout(30_000)]) },
      );
    } finally {
      await consumer.close();
    }
    expect(state.takenBack).toBe(true);
    expect(seen).toEqual([each, each]);
    await expectCommittedToEnd(groupId, stored);
  });

  it('the batch in hand through the drop and return is not handed out again', { timeout: 60_000 }, async () => {
    const groupId = uniqueGroup('reassign-in-hand');
    const { consumer, stored } = newConsumer(groupId);
    const seen: number[][] = [[], []];
    const state = { takenBack: false };
    const handle = handleTakingBack(consumer, seen, state);
    try {
      for await (const batch of consumer.batches({ signal: AbortSignal.timeout(30_000) })) {
        if (!(await handle(batch))) continue;
        // Leaving the loop gives the batch up: acknowledge it first, so the close commits it.
        batch.ack();
        break;
      }
    } finally {
      await consumer.close();
    }
    expect(state.takenBack).toBe(true);
    expect(seen).toEqual([each, each]);
    await expectCommittedToEnd(groupId, stored);
  });
});
