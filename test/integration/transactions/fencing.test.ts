import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { ProducerFencedError } from '../../../src/producer/transaction-errors.js';
import { uniqueTopicName } from '../../harness/context.js';
import { newClient, newTopic, readValues, targets, transactionalProducer } from './txn-setup.js';

/**
 * Zombie fencing (KIP-98, KIP-360): a second producer with the same transactional id (the restarted
 * application) initialises; the first one (the zombie, still running) is fenced: its open transaction is
 * aborted by the coordinator, every later write or commit fails with ProducerFencedError, and nothing it wrote
 * becomes visible to read_committed readers, while the new producer's transactions commit normally.
 */
describe.each(targets())('zombie fencing ($label)', (target) => {
  let client: Client;
  beforeAll(() => {
    client = newClient(target);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('the older producer is fenced, its open transaction aborted, and nothing it writes afterwards is visible', async () => {
    const topic = await newTopic(client, 'txn-zombie', 2);
    const transactionalId = uniqueTopicName('zombie');
    const zombie = transactionalProducer(client, { transactionalId });
    const successor = transactionalProducer(client, { transactionalId });
    try {
      await zombie.initTransactions();
      const zombieEpoch = zombie.producerIdAndEpoch!;
      zombie.beginTransaction();
      // Acknowledged by the broker: in the log, inside a transaction that is still open.
      await zombie.send({ topic, partition: 0, value: 'zombie-before' });

      await successor.initTransactions();
      const successorEpoch = successor.producerIdAndEpoch!;
      expect(successorEpoch.producerId).toBe(zombieEpoch.producerId);
      expect(successorEpoch.epoch).toBeGreaterThan(zombieEpoch.epoch);

      // A partition already in the zombie's transaction (Produce) and a new one (AddPartitionsToTxn under the
      // classic protocol; under Transactions v2 the broker's verification of the Produce with the coordinator).
      await expect(zombie.send({ topic, partition: 0, value: 'zombie-after' })).rejects.toBeInstanceOf(
        ProducerFencedError,
      );
      await expect(zombie.send({ topic, partition: 1, value: 'zombie-after-2' })).rejects.toBeInstanceOf(
        ProducerFencedError,
      );
      await expect(zombie.commitTransaction()).rejects.toBeInstanceOf(ProducerFencedError);
      await expect(zombie.abortTransaction()).rejects.toBeInstanceOf(ProducerFencedError);
      expect(zombie.transactionState).toBe('fatalError');

      await successor.transaction(async (tx) => {
        await tx.send({ topic, partition: 0, value: 'successor' });
        await tx.send({ topic, partition: 1, value: 'successor-2' });
      });
    } finally {
      await zombie.close();
      await successor.close();
    }
    // The successor's records sit after the zombie's in partition 0: readable only because the zombie's
    // transaction ended (an open one would hold the last stable offset below them), invisible because it aborted.
    expect((await readValues(client, topic, [0, 1])).sort()).toEqual(['successor', 'successor-2']);
    const written = await readValues(client, topic, [0, 1], 'read_uncommitted');
    expect(written.sort()).toEqual(['successor', 'successor-2', 'zombie-before']);
  });
});
