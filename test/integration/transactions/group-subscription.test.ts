import { describe, expect, it } from 'vitest';
import { Client } from '../../../src/client.js';
import { BrokerOffsetStore } from '../../../src/consumer/broker-offset-store.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { ConsumerGroupMetadata } from '../../../src/offsets/group-metadata.js';
import { TransactionAbortableError } from '../../../src/producer/transaction-errors.js';
import { TransactionalOffsetStore } from '../../../src/producer/transactional-offset-store.js';
import { uniqueTopicName } from '../../harness/context.js';
import { produce } from '../consumer/setup.js';
import { type GroupTarget, groupTargets, newTopic } from '../group/setup.js';
import { readValues, transactionalProducer, uniqueGroup } from './txn-setup.js';

/**
 * TransactionalOffsetStore under a group subscription (classic on 4.4 and 3.9, KIP-848 on 4.4): two
 * consume-transform-produce members, the second joining halfway, so partitions move between them in a
 * rebalance; each member commits its input offsets through its own transaction, carrying its generation (or
 * member epoch). The output read with read_committed holds every input record exactly once, the group's
 * committed offsets equal the input's end, and a TxnOffsetCommit under the generation the first member held
 * before the rebalance is refused (abortable, typed) with nothing of its transaction visible.
 */
const PARTITIONS = 4;
const PER_PARTITION = 150;

interface Member {
  client: Client;
  consumer: Consumer;
  stop: AbortController;
  /** The processing loop; rejects with what ended it other than the stop. */
  loop: Promise<void>;
}

/**
 * Processing time per record: slow until the rebalance has been seen (KIP-848 moves partitions over a few
 * heartbeats, 5 s apart by default, and the input must outlast that), then fast.
 */
interface Pace {
  msPerRecord: number;
}

async function startMember(
  target: GroupTarget,
  groupId: string,
  topics: { input: string; output: string },
  pace: Pace,
): Promise<Member> {
  const { input, output } = topics;
  const client = new Client({ bootstrap: target.bootstrap, requestTimeoutMs: 15_000 });
  const producer = transactionalProducer(client, { transactionalId: uniqueTopicName('ctp-member'), lingerMs: 2 });
  await producer.initTransactions();
  const store = new TransactionalOffsetStore(
    producer,
    new BrokerOffsetStore({ cluster: client.cluster, coordinators: client.coordinators, requestTimeoutMs: 15_000 }),
  );
  const consumer = new Consumer(client, {
    groupId,
    autoOffsetReset: 'earliest',
    isolationLevel: 'read_committed',
    offsetStore: store,
    autoCommitIntervalMs: 60_000,
    // Small fetches: many short transactions, so the rebalance lands between some of them.
    maxPartitionFetchBytes: 1024,
    group:
      target.protocol === 'classic'
        ? { protocol: 'classic', sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 15_000 }
        : { protocol: 'consumer' },
  });
  await consumer.subscribe({ topics: [input] });
  const stop = new AbortController();
  const loop = (async () => {
    try {
      for await (const batch of consumer.batches({ signal: stop.signal })) {
        for (const r of batch.records) {
          // Not awaited one by one: the commit delivers them all or aborts the transaction.
          producer.send({ topic: output, partition: r.partition, value: `${r.partition}:${r.offset}` }).catch(() => {});
        }
        await new Promise((resolve) => setTimeout(resolve, pace.msPerRecord * batch.records.length));
        batch.ack();
        await consumer.commit();
      }
    } catch (err) {
      if (!stop.signal.aborted) throw err;
    } finally {
      await consumer.close();
      await producer.close();
      await client.close();
    }
  })();
  return { client, consumer, stop, loop };
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(groupTargets())('TransactionalOffsetStore with a group subscription ($label)', (target) => {
  it('a member joins halfway: output exactly once, offsets at the input end, a stale generation refused', async () => {
    const admin = new Client({ bootstrap: target.bootstrap, requestTimeoutMs: 15_000 });
    const members: Member[] = [];
    try {
      const input = await newTopic(target, 'ctp-group-in', PARTITIONS);
      const output = await newTopic(target, 'ctp-group-out', PARTITIONS);
      const partitions = [...Array(PARTITIONS).keys()];
      const tps = partitions.map((partition) => ({ topic: input, partition }));
      await produce(admin, input, partitions, PER_PARTITION, { batchSize: 10 });
      const groupId = uniqueGroup('ctp-group');
      const committedTotal = async () =>
        (await admin.offsets.committed(groupId, tps, { requireStable: true })).reduce(
          (sum, c) => sum + Number(c.offset ?? 0n),
          0,
        );

      const pace: Pace = { msPerRecord: 40 };
      const first = await startMember(target, groupId, { input, output }, pace);
      members.push(first);
      await until('the first member to commit a quarter of the input', async () => {
        return (await committedTotal()) >= (PARTITIONS * PER_PARTITION) / 4;
      });
      const before: ConsumerGroupMetadata = first.consumer.groupMetadata();
      expect(before.memberId).not.toBe('');
      expect(before.generationId).toBeGreaterThan(0);

      const second = await startMember(target, groupId, { input, output }, pace);
      members.push(second);
      await until('the rebalance to give both members partitions and the first a new generation', () => {
        const moved = first.consumer.groupMetadata().generationId !== before.generationId;
        return moved && first.consumer.assignment().length > 0 && second.consumer.assignment().length > 0;
      });
      expect(await committedTotal()).toBeLessThan(PARTITIONS * PER_PARTITION);
      pace.msPerRecord = 1;

      // The first member's identity from before the rebalance no longer commits a partition that moved to the
      // second: refused, nothing visible. (KIP-848 brokers may accept an older member epoch for a partition the
      // member still owns, as assigned then; classic groups refuse any other generation.)
      const moved = second.consumer.assignment()[0]!.partition;
      const stale = transactionalProducer(admin);
      try {
        await stale.initTransactions();
        stale.beginTransaction();
        await stale.send({ topic: output, partition: 0, value: 'stale' });
        const err = await stale
          .sendOffsetsToTransaction([{ topic: input, partition: moved, offset: 1_000n }], before)
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(err).toBeInstanceOf(TransactionAbortableError);
        expect((err as Error).message).toMatch(/ILLEGAL_GENERATION|UNKNOWN_MEMBER_ID|STALE_MEMBER_EPOCH|FENCED_MEMBER/);
        expect((err as Error).message).toMatch(/TxnOffsetCommit/);
        await stale.abortTransaction();
      } finally {
        await stale.close();
      }

      await until('the group to commit the whole input', async () => {
        return (await committedTotal()) === PARTITIONS * PER_PARTITION;
      });
      for (const m of members) m.stop.abort();
      await Promise.all(members.map((m) => m.loop));

      const committed = await admin.offsets.committed(groupId, tps, { requireStable: true });
      expect(committed.map((c) => c.offset)).toEqual(partitions.map(() => BigInt(PER_PARTITION)));
      const values = await readValues(admin, output, partitions);
      const expected = partitions.flatMap((p) => [...Array(PER_PARTITION).keys()].map((o) => `${p}:${o}`));
      expect(values.length).toBe(expected.length);
      expect(new Set(values).size).toBe(values.length);
      expect([...values].sort()).toEqual(expected.sort());
    } finally {
      for (const m of members) m.stop.abort();
      await Promise.allSettled(members.map((m) => m.loop));
      await admin.close();
    }
  }, 180_000);
});
