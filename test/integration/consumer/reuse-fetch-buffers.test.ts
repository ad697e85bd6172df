/**
 * The consumer option `reuseFetchBuffers` against real brokers: with it on, a topic is read exactly once with
 * every value's bytes right while its batch is in hand (checked against what was produced, record by record,
 * also after the loop body awaited),
 * through a seek back and a pause/resume in the middle, and large responses are read into memory an earlier
 * response used: a value kept past its batch (against the option's contract) is overwritten by a later response.
 * With it off (the default contract), responses are read into reused memory too, but records are decoded from
 * copies: every value kept stays what it was while the memory it came from is read into again. And with
 * `processBatches`, whose detached batches may outlive their chunk, every value is still right when a slow
 * handler reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { sleep } from '../../../src/cluster/backoff.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { newClient, newTopic, produce, recordValue, targets } from './setup.js';

const PARTITIONS = 4;
const PER_PARTITION = 12_000;
/** Frames above the network's 64 KiB scratch are the ones read into pooled memory. */
const SCRATCH_BYTES = 64 * 1024;

interface ReadOutcome {
  /** Values delivered, summed as checksums, and the count of records. */
  records: number;
  /** Values kept past their batch (the first of every batch): how many still hold their bytes, and how many not. */
  keptIntact: number;
  keptOverwritten: number;
  /** Responses read into memory an earlier response had used (the consumer's `responseMemory.reused`). */
  framesReused: number;
}

/**
 * Reads every partition to its end, checking each record against what was produced while its batch is in hand:
 * offsets follow on from the last one delivered (exactly once, in order). Midway it seeks partition 0 back and
 * pauses partition 1 for a while.
 */
async function readAll(client: Client, topic: string, reuseFetchBuffers: boolean): Promise<ReadOutcome> {
  const consumer = new Consumer(client, {
    autoOffsetReset: 'earliest',
    reuseFetchBuffers,
    maxBufferedBytes: 1024 * 1024,
    maxPartitionFetchBytes: 128 * 1024,
  });
  const next = new Array<number>(PARTITIONS).fill(0);
  let records = 0;
  const kept: { view: Buffer; copy: Buffer }[] = [];
  let sought = false;
  let pausedAt = -1;
  let batches = 0;
  let framesReused = 0;
  consumer.assign([...Array(PARTITIONS).keys()].map((partition) => ({ topic, partition })));
  try {
    for await (const batch of consumer.batches({ signal: AbortSignal.timeout(90_000) })) {
      batches++;
      // Now and then the loop body awaits before it reads: responses fetched meanwhile land in pooled memory,
      // which must not be this batch's until the batch is finished.
      if (batches % 3 === 0) await sleep(3);
      const p = batch.partition;
      if (pausedAt >= 0) expect(p, 'a record of a paused partition').not.toBe(1);
      for (const r of batch.records) {
        expect(Number(r.offset), `partition ${p}`).toBe(next[p]);
        if (!r.value!.equals(recordValue(p, next[p]))) {
          expect.fail(`partition ${p} offset ${r.offset}: value ${r.value!.toString('hex')} is not what was produced`);
        }
        next[p]++;
        records++;
      }
      const view = batch.records[0].value!;
      // With the option on, only values in a large response's memory: small ones are copies out of the network's
      // scratch. Off, every value must keep its bytes.
      if (!reuseFetchBuffers || view.buffer.byteLength > SCRATCH_BYTES) kept.push({ view, copy: Buffer.from(view) });
      if (!sought && next[0] > PER_PARTITION / 2) {
        // Back to a third: everything from there comes again, in order.
        sought = true;
        next[0] = PER_PARTITION / 3;
        consumer.seek({ topic, partition: 0 }, BigInt(next[0]));
      }
      if (pausedAt < 0 && sought && next[1] > PER_PARTITION / 4 && next[1] < PER_PARTITION) {
        consumer.pause([{ topic, partition: 1 }]);
        pausedAt = batches;
      } else if (pausedAt >= 0 && batches > pausedAt + 20) {
        consumer.resume([{ topic, partition: 1 }]);
        pausedAt = -2;
      }
      if (pausedAt >= 0 && next.every((n, i) => i === 1 || n === PER_PARTITION)) {
        consumer.resume([{ topic, partition: 1 }]);
        pausedAt = -2;
      }
      if (next.every((n) => n === PER_PARTITION)) break;
    }
    framesReused = consumer.metrics().responseMemory.reused;
  } finally {
    await consumer.close();
  }
  expect(next).toEqual(new Array(PARTITIONS).fill(PER_PARTITION));
  expect(sought).toBe(true);
  expect(pausedAt).toBe(-2);
  const keptIntact = kept.filter((k) => k.view.equals(k.copy)).length;
  return { records, keptIntact, keptOverwritten: kept.length - keptIntact, framesReused };
}

describe.each(targets())('reuseFetchBuffers ($label)', (target) => {
  let client: Client;
  let topic: string;

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'reuse-fetch-buffers', PARTITIONS);
    await produce(client, topic, [...Array(PARTITIONS).keys()], PER_PARTITION);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  it('reads every record once with the right bytes, across a seek and a pause, into reused memory', async () => {
    const on = await readAll(client, topic, true);
    // Every record once, plus partition 0 again from a third to the half where the seek took it back.
    expect(on.records).toBeGreaterThanOrEqual(PARTITIONS * PER_PARTITION + PER_PARTITION / 6);
    // The memory of finished batches was read into again.
    expect(on.keptOverwritten).toBeGreaterThan(0);
  }, 150_000);

  it('with the option off (the default), values kept past their batch keep their bytes', async () => {
    const off = await readAll(client, topic, false);
    expect(off.records).toBeGreaterThanOrEqual(PARTITIONS * PER_PARTITION + PER_PARTITION / 6);
    // Responses were read into reused memory here too: what was kept did not stay in it.
    expect(off.framesReused).toBeGreaterThan(0);
    expect(off.keptIntact).toBeGreaterThan(5);
    expect(off.keptOverwritten).toBe(0);
  }, 150_000);

  it('processBatches: a handler reads every value right after awaiting, while later responses come in', async () => {
    const consumer = new Consumer(client, {
      autoOffsetReset: 'earliest',
      reuseFetchBuffers: true,
      maxBufferedBytes: 1024 * 1024,
      maxPartitionFetchBytes: 128 * 1024,
    });
    consumer.assign([...Array(PARTITIONS).keys()].map((partition) => ({ topic, partition })));
    const next = new Array<number>(PARTITIONS).fill(0);
    const wrong: string[] = [];
    const done = new AbortController();
    const timeout = AbortSignal.timeout(90_000);
    try {
      await consumer.processBatches(
        async (batch) => {
          // Other partitions' handlers run, and responses are read, while this one waits.
          await sleep(2);
          const p = batch.partition;
          for (const r of batch.records) {
            if (Number(r.offset) !== next[p] || !r.value!.equals(recordValue(p, next[p]))) {
              wrong.push(`partition ${p} offset ${r.offset} (expected ${next[p]})`);
            }
            next[p] = Number(r.offset) + 1;
          }
          if (next.every((n) => n === PER_PARTITION)) done.abort();
        },
        { concurrency: PARTITIONS, signal: AbortSignal.any([done.signal, timeout]) },
      );
    } finally {
      await consumer.close();
    }
    expect(timeout.aborted).toBe(false);
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(next).toEqual(new Array(PARTITIONS).fill(PER_PARTITION));
  }, 150_000);
});
