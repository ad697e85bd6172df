import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { GroupProtocol } from '../../../src/consumer/group/membership.js';
import { newClient, newTopic, produce, type Target, targets, uniqueGroup } from './setup.js';

const PARTITIONS = 8;
const TOTAL = 1_000_000;
const PER_PARTITION = TOTAL / PARTITIONS;
const MEMBERS = 3;

/** Each target with each group protocol it speaks: classic everywhere, KIP-848 on 4.x. */
function cases(): { label: string; target: Target; protocol: GroupProtocol }[] {
  return targets().flatMap((target) => {
    const list: { label: string; target: Target; protocol: GroupProtocol }[] = [
      { label: `${target.label}, classic`, target, protocol: 'classic' },
    ];
    if (target.major >= 4)
      list.push({ label: `${target.label}, consumer (KIP-848)`, target, protocol: 'consumer' as const });
    return list;
  });
}

/**
 * Three members join while the records are already there, so partitions move between them (and are committed
 * on revoke) while they read. Every record must be read by exactly one member, and each member must see each
 * partition's records in offset order.
 */
describe.each(cases())('a group of three reads 1,000,000 records exactly once ($label)', ({ target, protocol }) => {
  let client: Client;
  let topic: string;

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, `group-eo-${protocol}`, PARTITIONS);
    await produce(client, topic, [...Array(PARTITIONS).keys()], PER_PARTITION, { batchSize: 1_000 });
  }, 300_000);
  afterAll(async () => {
    await client?.close();
  });

  it('every record once, in order within each partition', async () => {
    const groupId = uniqueGroup(`eo-${protocol}`);
    /** How many times each (partition, offset) was delivered, as one counter array per partition. */
    const seen = [...Array(PARTITIONS)].map(() => new Uint8Array(PER_PARTITION));
    let total = 0;
    let joined = 0;
    let done!: () => void;
    const allRead = new Promise<void>((resolve) => {
      done = resolve;
    });
    const members = [...Array(MEMBERS)].map(() => {
      const own = new Client({ bootstrap: target.bootstrap, requestTimeoutMs: 15_000 });
      // Small fetches, a handler that takes a moment per batch and frequent heartbeats: the group rebalances
      // several times while records are still being read.
      const consumer = new Consumer(own, {
        groupId,
        autoOffsetReset: 'earliest',
        maxPartitionFetchBytes: 64 * 1024,
        group: protocol === 'classic' ? { protocol, heartbeatIntervalMs: 300 } : { protocol },
      });
      return { own, consumer, last: new Map<number, bigint>() };
    });
    // Partitions handed from one member to another while records were still being read.
    let movedWhileReading = 0;
    for (const m of members) {
      m.consumer.on('rebalance', (e) => {
        if (e.kind === 'revoked' && total < TOTAL) movedWhileReading += e.partitions.length;
      });
    }
    const loops = members.map(async (m, i) => {
      // Staggered joins: each new member makes the group rebalance while the others are reading.
      await new Promise((resolve) => setTimeout(resolve, i * 400));
      await m.consumer.subscribe({ topics: [topic] });
      // Done only once everyone has joined, so no member is closed in the middle of its join.
      if (++joined === MEMBERS && total >= TOTAL) done();
      for await (const batch of m.consumer) {
        const counts = seen[batch.partition];
        for (const r of batch.records) {
          const previous = m.last.get(r.partition);
          if (previous !== undefined && r.offset <= previous) {
            throw new Error(`member ${i}: partition ${r.partition} went from ${previous} to ${r.offset}`);
          }
          m.last.set(r.partition, r.offset);
          counts[Number(r.offset)]++;
        }
        total += batch.records.length;
        // Slowly until a partition has moved (KIP-848 members hear of changes at heartbeats, 5 s apart by default).
        if (movedWhileReading === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        // Processed: the test closes the consumers before this loop body could return.
        batch.ack();
        if (total >= TOTAL && joined === MEMBERS) done();
      }
    });
    const failed = Promise.race(loops.map((l) => l.then(() => new Promise<never>(() => {}))));
    await Promise.race([
      allRead,
      failed,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`read ${total}`)), 240_000)),
    ]);
    // Everything is read: nobody holds unprocessed records, so closing commits the end of every partition.
    await Promise.all(members.map((m) => m.consumer.close()));
    await Promise.all(loops);
    await Promise.all(members.map((m) => m.own.close()));

    expect(total).toBe(TOTAL);
    expect(movedWhileReading).toBeGreaterThan(0);
    for (let p = 0; p < PARTITIONS; p++) {
      const duplicates = seen[p].findIndex((c) => c !== 1);
      expect({ partition: p, firstNotOnce: duplicates }).toEqual({ partition: p, firstNotOnce: -1 });
    }
    const committed = await client.offsets.committed(groupId, null);
    expect(committed.map((c) => c.offset)).toEqual(new Array(PARTITIONS).fill(BigInt(PER_PARTITION)));
  }, 300_000);
});
