import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { Cluster } from '../../../src/cluster/cluster.js';
import { Producer } from '../../../src/producer/producer.js';
import { uniqueTopicName } from '../../harness/context.js';
import { FaultProxy } from '../../harness/fault-proxy.js';
import { newClient, newTopic, readValues, targets, uniqueGroup } from './txn-setup.js';

/**
 * Transactions v2 (KIP-890 part 2) where the broker finalizes `transaction.version` 2 (Kafka 4.4 does by
 * default), the classic protocol where it does not (3.9). Every request goes through the fault proxy, which
 * only forwards and counts here, so the test sees which APIs and versions the producer used: under v2 a record
 * joins its transaction with Produce v12+ alone (no AddPartitionsToTxn), offsets with TxnOffsetCommit v5 alone
 * (no AddOffsetsToTxn), and EndTxn v5 answers with the next epoch, so the epoch grows by one per transaction
 * (as the coordinator's DescribeTransactions confirms); committed records and offsets become visible with
 * their transaction, aborted ones never.
 */
const API = { Produce: 0, AddPartitionsToTxn: 24, AddOffsetsToTxn: 25, EndTxn: 26, TxnOffsetCommit: 28 } as const;

describe.each(targets())('transaction protocol ($label)', (target) => {
  let client: Client;
  let proxy: FaultProxy;
  let cluster: Cluster;
  /** Versions of every request of each watched API, in the order their responses came back. */
  const seen = new Map<number, number[]>();
  beforeAll(async () => {
    client = newClient(target);
    proxy = await FaultProxy.start(target.bootstrap);
    for (const apiKey of Object.values(API)) {
      proxy.onResponse(apiKey, (response) => {
        seen.set(apiKey, [...(seen.get(apiKey) ?? []), response.apiVersion]);
        return 'forward';
      });
    }
    cluster = new Cluster({
      bootstrap: [target.bootstrap],
      socketFactory: proxy.socketFactory,
      requestTimeoutMs: 15_000,
    });
  });
  afterAll(async () => {
    await cluster?.close();
    await proxy?.stop();
    await client?.close();
  });

  it('records and offsets join the transaction as the protocol says; the epoch is bumped per v2 transaction', async () => {
    const v2 = target.major >= 4;
    const topic = await newTopic(client, 'txn-protocol', 2);
    const groupId = uniqueGroup('txn-protocol');
    const group = { groupId, memberId: '', generationId: -1, groupInstanceId: null };
    const transactionalId = uniqueTopicName('txn-protocol');
    const producer = new Producer(cluster, { transactionalId, lingerMs: 0, maxBlockMs: 30_000 });
    const epochs: number[] = [];
    const described: number[] = [];
    try {
      await producer.initTransactions();
      seen.clear();
      epochs.push(producer.producerIdAndEpoch!.epoch);
      const plan = [
        { values: ['a0', 'a1'], offset: 2n },
        { values: ['b0', 'b1'], offset: 4n, abort: true },
        { values: ['c0', 'c1'], offset: 6n },
      ];
      for (const t of plan) {
        producer.beginTransaction();
        await Promise.all(t.values.map((value, i) => producer.send({ topic, partition: i, value })));
        await producer.sendOffsetsToTransaction([{ topic, partition: 0, offset: t.offset }], group);
        if (t.abort) await producer.abortTransaction();
        else await producer.commitTransaction();
        epochs.push(producer.producerIdAndEpoch!.epoch);
        const [txn] = await client.admin.describeTransactions([transactionalId]);
        described.push(txn!.producerEpoch);
      }
    } finally {
      await producer.close();
    }
    const count = (api: number) => seen.get(api)?.length ?? 0;
    // One broker leads both partitions: at least one Produce per transaction.
    expect(count(API.Produce)).toBeGreaterThanOrEqual(3);
    expect(count(API.EndTxn)).toBe(3);
    expect(count(API.TxnOffsetCommit)).toBe(3);
    if (v2) {
      expect(count(API.AddPartitionsToTxn)).toBe(0);
      expect(count(API.AddOffsetsToTxn)).toBe(0);
      expect(Math.min(...seen.get(API.Produce)!)).toBeGreaterThanOrEqual(12);
      expect(seen.get(API.EndTxn)).toEqual([5, 5, 5]);
      expect(seen.get(API.TxnOffsetCommit)).toEqual([5, 5, 5]);
      // One bump per transaction, committed or aborted, and the coordinator holds the producer's epoch.
      expect(epochs).toEqual([0, 1, 2, 3].map((n) => epochs[0]! + n));
      expect(described).toEqual(epochs.slice(1));
    } else {
      // Both partitions in one AddPartitionsToTxn per transaction; the group's offsets with AddOffsetsToTxn.
      expect(count(API.AddPartitionsToTxn)).toBeGreaterThanOrEqual(3);
      expect(count(API.AddOffsetsToTxn)).toBe(3);
      expect(Math.max(...seen.get(API.Produce)!)).toBeLessThanOrEqual(11);
      expect(Math.max(...seen.get(API.EndTxn)!)).toBeLessThanOrEqual(4);
      expect(Math.max(...seen.get(API.TxnOffsetCommit)!)).toBeLessThanOrEqual(4);
      expect(new Set(epochs).size).toBe(1);
      expect(described).toEqual(epochs.slice(1));
    }
    expect((await readValues(client, topic, [0, 1])).sort()).toEqual(['a0', 'a1', 'c0', 'c1']);
    expect((await readValues(client, topic, [0, 1], 'read_uncommitted')).sort()).toEqual([
      'a0',
      'a1',
      'b0',
      'b1',
      'c0',
      'c1',
    ]);
    const [committed] = await client.offsets.committed(groupId, [{ topic, partition: 0 }], { requireStable: true });
    expect(committed?.offset).toBe(6n);
  });
});
