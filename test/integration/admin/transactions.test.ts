import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceErrors } from '../../../src/admin/resource-errors.js';
import { toJson } from '../../../src/cli/format.js';
import type { Client } from '../../../src/client.js';
import { cli, tableRows } from '../cli/setup.js';
import { transactionalProducer } from '../transactions/txn-setup.js';
import { type JavaFailure, useJavaAdmin } from './java-admin.js';
import { newClient, newTopic, TARGETS } from './setup.js';

/**
 * describeProducers, describeTransactions and listTransactions (KIP-664) against the real brokers, with one
 * transaction held open by tidemark's transactional producer, each compared with what Kafka's own AdminClient
 * answers on the same cluster at the same moment.
 */

/** As the Java helper reports it: int64s as strings. */
function asJava(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
}

describe.each(TARGETS)('transactions administration ($label)', (target) => {
  const java = useJavaAdmin();
  let client: Client;
  beforeAll(() => {
    client = newClient(target.at());
  });
  afterAll(async () => {
    await client?.close();
  });

  it('describes an open transaction and its producers as the Java AdminClient does', async () => {
    const topic = await newTopic(client, 'txn-admin', 2);
    const producer = transactionalProducer(client);
    const id = producer.options.transactionalId!;
    const partitions = [
      { topic, partition: 0 },
      { topic, partition: 1 },
    ];
    try {
      await producer.initTransactions();
      producer.beginTransaction();
      await Promise.all([0, 1].map((partition) => producer.send({ topic, partition, value: 'v' })));
      const { producerId, epoch } = producer.producerIdAndEpoch!;

      const producers = await client.admin.describeProducers(partitions);
      expect(producers.map((p) => p.activeProducers.map((a) => [a.producerId, a.producerEpoch]))).toEqual([
        [[producerId, epoch]],
        [[producerId, epoch]],
      ]);
      // The open transaction starts at the partition's first (and only) record.
      for (const p of producers) expect(p.activeProducers[0].currentTxnStartOffset).toBe(0n);
      expect(asJava(producers)).toEqual(await java().call(target.at(), 'describeProducers', { partitions }));

      const [described] = await client.admin.describeTransactions([id]);
      expect(described).toMatchObject({ transactionalId: id, state: 'Ongoing', producerId, producerEpoch: epoch });
      expect(described.topicPartitions).toEqual(partitions);
      expect(described.transactionStartTimeMs).toBeGreaterThan(0n);
      expect(asJava([described])).toEqual(
        await java().call(target.at(), 'describeTransactions', { transactionalIds: [id] }),
      );

      const listed = await client.admin.listTransactions();
      const ours = listed.filter((t) => t.transactionalId === id);
      expect(ours).toEqual([{ transactionalId: id, producerId, state: 'Ongoing', coordinator: described.coordinator }]);
      const javaListed = await java().call<{ transactionalId: string }[]>(target.at(), 'listTransactions');
      expect(asJava(ours.map(({ coordinator: _, ...t }) => t))).toEqual(
        javaListed.filter((t) => t.transactionalId === id),
      );
      // The filters are the broker's: another state or producer id leaves the transaction out.
      expect((await client.admin.listTransactions({ states: ['Ongoing'] })).map((t) => t.transactionalId)).toContain(
        id,
      );
      const otherState = await client.admin.listTransactions({ states: ['CompleteAbort'] });
      expect(otherState.map((t) => t.transactionalId)).not.toContain(id);
      const otherProducer = await client.admin.listTransactions({ producerIds: [producerId + 1000n] });
      expect(otherProducer.map((t) => t.transactionalId)).not.toContain(id);

      await producer.commitTransaction();
      // The coordinator writes the commit markers after EndTxn answers; once they are in, no transaction is open.
      await expect
        .poll(
          async () =>
            (await client.admin.describeProducers(partitions)).map((p) => p.activeProducers[0].currentTxnStartOffset),
          {
            timeout: 30_000,
          },
        )
        .toEqual([-1n, -1n]);
    } finally {
      await producer.close();
    }
  }, 120_000);

  it('fails an unknown transactional id with TRANSACTIONAL_ID_NOT_FOUND naming it, as Java does', async () => {
    const id = `never-used-${Date.now()}`;
    const err = await client.admin.describeTransactions([id]).catch((e: unknown) => e);
    expect(err).toMatchObject({ errorName: 'TRANSACTIONAL_ID_NOT_FOUND', context: { transactionalId: id } });
    expect((err as Error).message).toContain(id);
    const javaAnswer = await java().call<JavaFailure>(target.at(), 'describeTransactions', { transactionalIds: [id] });
    expect(javaAnswer.failure.exception).toBe('TransactionalIdNotFoundException');
    // Two unknown ids: ResourceErrors keyed by each, each its own typed error.
    const both = await client.admin.describeTransactions([id, `${id}-2`]).catch((e: unknown) => e);
    expect(both).toBeInstanceOf(ResourceErrors);
    const errors = (both as ResourceErrors).errors;
    expect([...errors.keys()]).toEqual([`transactionalId:${id}`, `transactionalId:${id}-2`]);
    for (const e of errors.values()) expect(e).toMatchObject({ errorName: 'TRANSACTIONAL_ID_NOT_FOUND' });
  }, 60_000);

  it('fails a partition of an unknown topic with its own typed error', async () => {
    const topic = `no-such-topic-${Date.now()}`;
    const err = await client.admin.describeProducers([{ topic, partition: 0 }], { timeoutMs: 5_000 }).catch((e) => e);
    expect(err).toMatchObject({ errorName: 'UNKNOWN_TOPIC_OR_PARTITION', context: { topic } });
  }, 30_000);

  it('tidemark transactions list|describe and producers: tables, and --json equal to the API result', async () => {
    const topic = await newTopic(client, 'txn-cli', 1);
    const producer = transactionalProducer(client);
    const id = producer.options.transactionalId!;
    const at = { bootstrap: target.at() };
    const asJson = (value: unknown) => JSON.parse(toJson(value));
    try {
      await producer.initTransactions();
      producer.beginTransaction();
      await producer.send({ topic, partition: 0, value: 'v' });
      const producerId = String(producer.producerIdAndEpoch!.producerId);

      const described = await cli(['transactions', 'describe', id, '--json'], at);
      expect(described.code).toBe(0);
      expect(JSON.parse(described.stdout)).toEqual(asJson(await client.admin.describeTransactions([id])));
      const describedTable = await cli(['transactions', 'describe', id], at);
      expect(tableRows(describedTable.stdout, id)[0].slice(0, 3)).toEqual([id, 'Ongoing', producerId]);

      const listed = await cli(['transactions', 'list', '--producer-id', producerId, '--json'], at);
      expect(listed.code).toBe(0);
      const api = await client.admin.listTransactions({ producerIds: [BigInt(producerId)] });
      expect(JSON.parse(listed.stdout)).toEqual(asJson(api));
      expect(api.map((t) => t.transactionalId)).toEqual([id]);
      const listedTable = await cli(['transactions', 'list', '--producer-id', producerId], at);
      expect(tableRows(listedTable.stdout, id)[0].slice(0, 3)).toEqual([id, producerId, 'Ongoing']);

      const producers = await cli(['producers', topic, '--json'], at);
      expect(producers.code).toBe(0);
      expect(JSON.parse(producers.stdout)).toEqual(
        asJson(await client.admin.describeProducers([{ topic, partition: 0 }])),
      );
      const producersTable = await cli(['producers', topic], at);
      const row = tableRows(producersTable.stdout, '0')[0];
      expect([row[0], row[1], row.at(-1)]).toEqual(['0', producerId, '0']);

      const unknown = await cli(['transactions', 'describe', `never-used-${Date.now()}`], at);
      expect(unknown.code).toBe(3);
      expect(unknown.stderr).toMatch(/TRANSACTIONAL_ID_NOT_FOUND.*never-used-/);
    } finally {
      await producer.close();
    }
  }, 120_000);
});
