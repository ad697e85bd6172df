/**
 * Default consumer options against real brokers: large Fetch responses are read into reused memory
 * (src/consumer/fetch/frame-pool.ts) and records are decoded from copies (chunk-reader.ts), so the default
 * contract holds: a record's key, value and headers stay what was produced for as long as the application keeps
 * them. Records held from the first batches are compared byte for byte after the rest of the topic went through
 * the same pooled memory; the pool is seen to be reused, and its idle memory never exceeds maxBufferedBytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { ConsumerRecord } from '../../../src/consumer/consumer-record.js';
import { newClient, newTopic, targets } from './setup.js';

const PARTITIONS = 2;
const PER_PARTITION = 15_000;
const BUFFERED = 1024 * 1024;
/** Batches whose first record is held to the end. */
const HELD_BATCHES = 40;

/** What record `i` of partition `p` was produced with, as one string: key, value, then each header. */
function produced(p: number, i: number): string {
  return `k${p}:${i} | v${p}:${i}:${'x'.repeat(40 + (i % 50))} | h=${p}:${i} | n=null`;
}

function delivered(r: ConsumerRecord): string {
  const headers = r.headers.map((h) => `${h.key}=${h.value === null ? 'null' : h.value.toString()}`);
  return [r.key?.toString(), r.value?.toString(), ...headers].join(' | ');
}

describe.each(targets())('default options: records copied out of reused response memory ($label)', (target) => {
  let client: Client;
  let topic: string;

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'copy-out', PARTITIONS);
    const producer = client.producer();
    for (let p = 0; p < PARTITIONS; p++) {
      for (let first = 0; first < PER_PARTITION; first += 1000) {
        const records = Array.from({ length: 1000 }, (_, k) => {
          const i = first + k;
          return {
            topic,
            partition: p,
            key: Buffer.from(`k${p}:${i}`),
            value: Buffer.from(`v${p}:${i}:${'x'.repeat(40 + (i % 50))}`),
            headers: [
              { key: 'h', value: Buffer.from(`${p}:${i}`) },
              { key: 'n', value: null },
            ],
          };
        });
        await producer.sendBatch(records);
      }
    }
    await producer.close();
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  it('keys, values and headers held from the first batches keep their bytes to the end of the topic', async () => {
    const consumer = new Consumer(client, {
      autoOffsetReset: 'earliest',
      maxBufferedBytes: BUFFERED,
      maxPartitionFetchBytes: 128 * 1024,
    });
    consumer.assign([...Array(PARTITIONS).keys()].map((partition) => ({ topic, partition })));
    const next = new Array<number>(PARTITIONS).fill(0);
    const held: ConsumerRecord[] = [];
    const wrong: string[] = [];
    let batches = 0;
    let mostIdle = 0;
    let reused = 0;
    try {
      for await (const batch of consumer.batches({ signal: AbortSignal.timeout(90_000) })) {
        const p = batch.partition;
        for (const r of batch.records) {
          if (Number(r.offset) !== next[p] || delivered(r) !== produced(p, next[p])) wrong.push(`${p}@${r.offset}`);
          next[p] = Number(r.offset) + 1;
        }
        if (batches++ < HELD_BATCHES) held.push(batch.records[0]);
        const memory = consumer.metrics().responseMemory;
        mostIdle = Math.max(mostIdle, memory.idleBytes);
        reused = memory.reused;
        if (next.every((n) => n === PER_PARTITION)) break;
      }
    } finally {
      await consumer.close();
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(next).toEqual(new Array(PARTITIONS).fill(PER_PARTITION));
    // The topic (about 3 MiB) went through the pool several times over, into memory the held records came from.
    expect(reused).toBeGreaterThan(3);
    expect(mostIdle).toBeLessThanOrEqual(BUFFERED);
    expect(held).toHaveLength(HELD_BATCHES);
    const changed = held
      .filter((r) => delivered(r) !== produced(r.partition, Number(r.offset)))
      .map((r) => `${r.partition}@${r.offset}: ${delivered(r).slice(0, 60)}`);
    expect(changed.slice(0, 5)).toEqual([]);
  }, 150_000);
});
