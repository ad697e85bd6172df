import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { newClient, newTopic, produce, targets } from './setup.js';

const PARTITIONS = 8;
const TOTAL = 1_000_000;
const PER_PARTITION = TOTAL / PARTITIONS;

/** Checks each record against the next one expected in its partition; returns how many were seen per partition. */
function orderChecker() {
  const next = new Array<number>(PARTITIONS).fill(0);
  return {
    next,
    see(partition: number, offset: bigint, value: Buffer | null): void {
      const seq = next[partition];
      // Offsets, and the sequence number the producer wrote into each value, both advance by exactly one.
      if (
        offset !== BigInt(seq) ||
        value === null ||
        value.readInt32BE(0) !== partition ||
        value.readInt32BE(4) !== seq
      ) {
        const got = value === null ? 'null' : `(${value.readInt32BE(0)}, ${value.readInt32BE(4)})`;
        throw new Error(`partition ${partition}: expected record ${seq}, got offset ${offset} holding ${got}`);
      }
      next[partition] = seq + 1;
    },
  };
}

describe.each(targets())('one consumer reads 1,000,000 records exactly once, in order ($label)', (target) => {
  let client: Client;
  let topic: string;

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'exactly-once', PARTITIONS);
    await produce(client, topic, [...Array(PARTITIONS).keys()], PER_PARTITION, { batchSize: 1_000 });
  }, 300_000);
  afterAll(async () => {
    await client?.close();
  });

  it('delivers every record once, each partition in offset order', async () => {
    const consumer = new Consumer(client, { autoOffsetReset: 'earliest' });
    consumer.assign([...Array(PARTITIONS).keys()].map((partition) => ({ topic, partition })));
    const check = orderChecker();
    let total = 0;
    for await (const batch of consumer.batches({ signal: AbortSignal.timeout(240_000) })) {
      for (const r of batch.records) check.see(r.partition, r.offset, r.value);
      total += batch.records.length;
      if (total >= TOTAL) {
        // Leaving the loop does not count as processing the batch in hand: say it was.
        batch.ack();
        break;
      }
    }
    expect(total).toBe(TOTAL);
    expect(check.next).toEqual(new Array(PARTITIONS).fill(PER_PARTITION));
    const metrics = consumer.metrics();
    expect(metrics.recordsDelivered).toBe(TOTAL);
    expect(metrics.lag.every((l) => l.lag === 0n)).toBe(true);
    await consumer.close();
  }, 300_000);
});
