import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { JavaOracle } from '../consumer/java-oracle.js';
import { newClient, newTopic, readValues, targets, transactionalProducer } from './txn-setup.js';

/**
 * Transactions across clients, both directions, against Kafka's own Java clients: what tidemark's
 * transactional producer commits, Kafka's Java consumer with isolation.level=read_committed reads, and what it
 * aborts it never reads (while read_uncommitted shows the aborted records were really written); and what Kafka's
 * Java transactional producer commits, tidemark's read_committed consumer reads, and nothing it aborted.
 */
const TRANSACTIONS = [
  { values: ['a0', 'a1', 'a2'] },
  { values: ['b0', 'b1', 'b2', 'b3'], abort: true },
  { values: ['c0'] },
  { values: ['d0', 'd1'], abort: true },
  { values: ['e0', 'e1', 'e2'] },
];
const COMMITTED = ['a0', 'a1', 'a2', 'c0', 'e0', 'e1', 'e2'];
const ALL = TRANSACTIONS.flatMap((t) => t.values);

let java: JavaOracle;
beforeAll(async () => {
  java = await JavaOracle.start();
}, 180_000);
afterAll(async () => {
  await java?.close();
});

describe.each(targets())('transactions between tidemark and Kafka Java clients ($label)', (target) => {
  let client: Client;
  beforeAll(() => {
    client = newClient(target);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("Java's read_committed consumer sees tidemark's committed transactions and never its aborted ones", async () => {
    const topic = await newTopic(client, 'txn-to-java', 1);
    const producer = transactionalProducer(client);
    const epochs: number[] = [];
    try {
      await producer.initTransactions();
      epochs.push(producer.producerIdAndEpoch!.epoch);
      for (const t of TRANSACTIONS) {
        producer.beginTransaction();
        // Not awaited one by one: the records of a transaction go in batches, as an application sends them.
        const sent = t.values.map((value) => producer.send({ topic, partition: 0, value }));
        if (t.abort) {
          await Promise.all(sent);
          await producer.abortTransaction();
        } else {
          await producer.commitTransaction();
          await Promise.all(sent);
        }
        epochs.push(producer.producerIdAndEpoch!.epoch);
      }
    } finally {
      await producer.close();
    }
    // Kafka 4.4 finalizes Transactions v2: every transaction ends with an epoch bump (3.9: the classic protocol).
    const bumps =
      target.major >= 4 ? TRANSACTIONS.map((_, i) => epochs[0]! + i + 1) : TRANSACTIONS.map(() => epochs[0]);
    expect(epochs.slice(1)).toEqual(bumps);
    expect(await java.consumeValues(target.bootstrap, topic, 'read_committed')).toEqual(COMMITTED);
    // The aborted records were written (and so hidden by the markers, not by never being sent).
    expect(await java.consumeValues(target.bootstrap, topic, 'read_uncommitted')).toEqual(ALL);
    expect(await readValues(client, topic, [0], 'read_committed')).toEqual(COMMITTED);
  });

  it("tidemark's read_committed consumer sees Java's committed transactions and never its aborted ones", async () => {
    const topic = await newTopic(client, 'txn-from-java', 1);
    await java.produceTransactions(target.bootstrap, topic, `java-${topic}`, TRANSACTIONS);
    expect(await readValues(client, topic, [0], 'read_committed')).toEqual(COMMITTED);
    expect(await readValues(client, topic, [0], 'read_uncommitted')).toEqual(ALL);
  });
});
