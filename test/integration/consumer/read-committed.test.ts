import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { JavaOracle } from './java-oracle.js';
import { newClient, newTopic, targets } from './setup.js';

let java: JavaOracle;
beforeAll(async () => {
  java = await JavaOracle.start();
}, 180_000);
afterAll(async () => {
  await java?.close();
});

/** Interleaved committed and aborted transactions, written by Kafka's Java transactional producer. */
const TRANSACTIONS = [
  { values: ['a0', 'a1', 'a2'] },
  { values: ['b0', 'b1', 'b2', 'b3'], abort: true },
  { values: ['c0'] },
  { values: ['d0', 'd1'], abort: true },
  { values: ['e0', 'e1', 'e2'] },
];

async function readAll(consumer: Consumer, topic: string): Promise<{ values: string[]; offsets: bigint[] }> {
  const tp = { topic, partition: 0 };
  consumer.assign([tp]);
  const values: string[] = [];
  const offsets: bigint[] = [];
  // The end for this isolation level: the last stable offset (read_committed) or the log end.
  const signal = AbortSignal.timeout(30_000);
  for await (const batch of consumer.batches({ signal })) {
    for (const r of batch.records) {
      values.push(r.value!.toString());
      offsets.push(r.offset);
    }
    if (
      batch.nextOffset >=
      (consumer.options.isolationLevel === 'read_committed' ? batch.lastStableOffset : batch.highWatermark)
    ) {
      batch.ack();
      break;
    }
  }
  return { values, offsets };
}

describe.each(targets())('read_committed ($label)', (target) => {
  let client: Client;
  let topic: string;

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'read-committed', 1);
    await java.produceTransactions(target.bootstrap, topic, `txn-${topic}`, TRANSACTIONS);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  it('hides the records of aborted transactions and every transaction marker, as the Java consumer does', async () => {
    const consumer = new Consumer(client, { autoOffsetReset: 'earliest', isolationLevel: 'read_committed' });
    try {
      const { values } = await readAll(consumer, topic);
      expect(values).toEqual(['a0', 'a1', 'a2', 'c0', 'e0', 'e1', 'e2']);
      expect(values).toEqual(await java.consumeValues(target.bootstrap, topic, 'read_committed'));
      // Markers take offsets too: the position ends past the last one, so nothing is left to read.
      expect(consumer.lag()).toEqual([expect.objectContaining({ lag: 0n })]);
    } finally {
      await consumer.close();
    }
  });

  it('read_uncommitted shows aborted records but still no markers', async () => {
    const consumer = new Consumer(client, { autoOffsetReset: 'earliest' });
    try {
      const { values, offsets } = await readAll(consumer, topic);
      expect(values).toEqual(TRANSACTIONS.flatMap((t) => t.values));
      expect(values).toEqual(await java.consumeValues(target.bootstrap, topic, 'read_uncommitted'));
      // One marker after each transaction: offsets skip one between transactions.
      expect(offsets.slice(0, 4)).toEqual([0n, 1n, 2n, 4n]);
    } finally {
      await consumer.close();
    }
  });
});
