import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescribeTransactions } from '../../../protocol/apis/describe-transactions.js';
import { ListTransactions } from '../../../protocol/apis/list-transactions.js';
import { ErrorCode } from '../../../protocol/error-codes.js';
import type { Client } from '../../../src/client.js';
import { Deadline } from '../../../src/cluster/deadline.js';
import { newClient, newTopic, targets, transactionalProducer } from './txn-setup.js';

/**
 * DescribeTransactions and ListTransactions (KIP-664) against the real brokers, watching one producer's
 * transaction: the coordinator lists it as Ongoing with the partitions it added, and CompleteCommit after.
 */
describe.each(targets())('DescribeTransactions and ListTransactions ($label)', (target) => {
  let client: Client;
  beforeAll(() => {
    client = newClient(target);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("show a transaction's state, partitions and epoch at its coordinator", async () => {
    const topic = await newTopic(client, 'txn-describe', 2);
    const producer = transactionalProducer(client);
    const id = producer.options.transactionalId!;
    const describeIt = () =>
      client.coordinators.call('transaction', id, new Deadline('DescribeTransactions', 15_000), async (c) => {
        const r = await c.request(DescribeTransactions, { transactionalIds: [id] });
        expect(r.transactionStates).toHaveLength(1);
        return r.transactionStates[0];
      });
    const listed = async (state: string) => {
      const c = await client.cluster.anyConnection();
      const r = await c.request(ListTransactions, { stateFilters: [state], producerIdFilters: [] });
      expect(r.errorCode).toBe(0);
      return r.transactionStates.filter((t) => t.transactionalId === id).map((t) => t.transactionState);
    };
    try {
      await producer.initTransactions();
      producer.beginTransaction();
      await Promise.all([0, 1].map((partition) => producer.send({ topic, partition, value: 'v' })));
      const open = await describeIt();
      expect(open).toMatchObject({
        errorCode: 0,
        transactionalId: id,
        transactionState: 'Ongoing',
        transactionTimeoutMs: 60_000,
        producerId: producer.producerIdAndEpoch!.producerId,
        producerEpoch: producer.producerIdAndEpoch!.epoch,
      });
      expect(open.topics).toEqual([{ topic, partitions: expect.arrayContaining([0, 1]) }]);
      expect(await listed('Ongoing')).toEqual(['Ongoing']);
      await producer.commitTransaction();
      const done = await describeIt();
      expect(['PrepareCommit', 'CompleteCommit']).toContain(done.transactionState);
    } finally {
      await producer.close();
    }
    const unknown = await client.coordinators.call('transaction', 'never-used', new Deadline('d', 15_000), (c) =>
      c.request(DescribeTransactions, { transactionalIds: ['never-used'] }),
    );
    expect(unknown.transactionStates[0].errorCode).toBe(ErrorCode.TRANSACTIONAL_ID_NOT_FOUND);
  });
});
