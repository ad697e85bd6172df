import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { sleep } from '../../../src/cluster/backoff.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { CommitEvent } from '../../../src/consumer/events.js';
import { newClient, newTopic, produce, readRecords, targets, uniqueGroup } from './setup.js';

/**
 * The seed paper's auto-commit bug: offsets committed when records are fetched, so records fetched but not yet
 * handled are lost when the consumer stops. Here 100 records arrive in one fetch; the handler is stopped while
 * it works on record 37, with auto-commit running every 20 ms. A new consumer of the group must begin at 37.
 */
describe.each(targets())('a consumer stopped in the middle of a batch ($label)', (target) => {
  let client: Client;
  let topic: string;
  const tp = () => ({ topic, partition: 0 });

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'stop-mid-batch', 1);
    await produce(client, topic, [0], 100, { batchSize: 100 });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  /** Runs `handle` over the records until it stops at offset 37, then closes the consumer while it is stuck there. */
  async function stopAt37(
    groupId: string,
    iterate: (consumer: Consumer, stuck: Promise<void>, reached: () => void) => Promise<void>,
  ) {
    const consumer = new Consumer(client, { groupId, autoOffsetReset: 'earliest', autoCommitIntervalMs: 20 });
    const commits: CommitEvent[] = [];
    consumer.on('commit', (e) => commits.push(e));
    consumer.assign([tp()]);
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached!: () => void;
    const atRecord37 = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const loop = iterate(consumer, stuck, reached);
    await atRecord37;
    // Auto-commit gets several turns while the handler is stuck; everything was fetched long ago.
    await sleep(200);
    expect(consumer.metrics().bytesFetched).toBeGreaterThan(0);
    await consumer.close();
    release();
    await loop;
    return { commits };
  }

  async function restartedAt(groupId: string): Promise<bigint> {
    const [committed] = await client.offsets.committed(groupId, [tp()]);
    const consumer = new Consumer(client, { groupId, autoOffsetReset: 'earliest' });
    consumer.assign([tp()]);
    try {
      const [first] = await readRecords(consumer, 1);
      expect(committed.offset).toBe(first.offset);
      return first.offset;
    } finally {
      await consumer.close();
    }
  }

  it('per-record iteration: restarts at the record whose handler had not finished', async () => {
    const group = uniqueGroup('stop-records');
    const { commits } = await stopAt37(group, async (consumer, stuck, reached) => {
      for await (const record of consumer.records()) {
        if (record.offset === 37n) {
          reached();
          await stuck;
        }
      }
    });
    // No commit ever went beyond what was handled.
    expect(commits.flatMap((c) => c.offsets.map((o) => o.offset)).every((o) => o <= 37n)).toBe(true);
    expect(await restartedAt(group)).toBe(37n);
  });

  it('batch iteration with acks: restarts at the first record not acked', async () => {
    const group = uniqueGroup('stop-acks');
    await stopAt37(group, async (consumer, stuck, reached) => {
      for await (const batch of consumer) {
        for (const record of batch.records) {
          if (record.offset === 37n) {
            reached();
            await stuck;
            return;
          }
          batch.ack(record);
        }
      }
    });
    expect(await restartedAt(group)).toBe(37n);
  });

  it('batch iteration without acks: the unfinished batch is read again (at least once, never lost)', async () => {
    const group = uniqueGroup('stop-batch');
    await stopAt37(group, async (consumer, stuck, reached) => {
      for await (const batch of consumer) {
        for (const record of batch.records) {
          if (record.offset === 37n) {
            reached();
            await stuck;
            return;
          }
        }
      }
    });
    expect(await restartedAt(group)).toBe(0n);
  });
});

/**
 * A stop request given to `batches({ signal })` ends delivery at the next batch boundary (issue 19): batches
 * already buffered behind the one in hand are not delivered, the batch whose body returned counts as processed,
 * and the next reader continues right after it (nothing lost, nothing committed that was not processed).
 */
describe.each(targets())('batches({ signal }) aborted while batches are buffered ($label)', (target) => {
  let client: Client;
  let topic: string;
  const RECORDS = 300;

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'stop-on-abort', 1);
    // 2 KiB records: about 600 KiB, many delivered batches, all fetched ahead of the application.
    const producer = client.producer();
    await Promise.all(
      Array.from({ length: RECORDS }, (_, i) =>
        producer.send({ topic, partition: 0, key: Buffer.from(String(i)), value: Buffer.alloc(2048, i % 256) }),
      ),
    );
    await producer.close();
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  it('stops at the next batch boundary; the next reader starts right after the last processed batch', async () => {
    const groupId = uniqueGroup('stop-on-abort');
    const consumer = new Consumer(client, { groupId, autoOffsetReset: 'earliest', autoCommit: false });
    consumer.assign([{ topic, partition: 0 }]);
    const stop = new AbortController();
    const delivered: { first: bigint; last: bigint }[] = [];
    let stoppedWith: unknown;
    try {
      for await (const batch of consumer.batches({ signal: stop.signal })) {
        delivered.push({ first: batch.records[0].offset, last: batch.records.at(-1)!.offset });
        if (delivered.length === 2) {
          // Wait until more than this batch is buffered, then ask to stop while the body still runs.
          while (consumer.metrics().bufferedBytes < 200_000) await sleep(20);
          stop.abort(new Error('stop'));
        }
      }
    } catch (err) {
      stoppedWith = err;
    }
    expect((stoppedWith as Error)?.message).toBe('stop');
    expect(delivered.length).toBe(2);
    await consumer.commit();
    const next = delivered[1].last + 1n;
    expect((await client.offsets.committed(groupId, [{ topic, partition: 0 }]))[0].offset).toBe(next);
    await consumer.close();

    const successor = new Consumer(client, { groupId, autoOffsetReset: 'earliest', autoCommit: false });
    successor.assign([{ topic, partition: 0 }]);
    try {
      const rest = await readRecords(successor, RECORDS - Number(next));
      expect(rest[0].offset).toBe(next);
      expect(rest.at(-1)!.offset).toBe(BigInt(RECORDS - 1));
    } finally {
      await successor.close();
    }
  }, 60_000);
});
