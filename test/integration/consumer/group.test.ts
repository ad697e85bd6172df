import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { sleep } from '../../../src/cluster/backoff.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import type { RebalanceEvent } from '../../../src/consumer/events.js';
import { newClient, newTopic, produce, readRecords, targets, uniqueGroup } from './setup.js';

describe.each(targets())('group subscription ($label)', (target) => {
  let client: Client;
  let topic: string;

  beforeAll(async () => {
    client = newClient(target);
    topic = await newTopic(client, 'group-sub', 3);
    await produce(client, topic, [0, 1, 2], 20);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  it('by topic list: reads every partition, commits on close, and a successor continues from there', async () => {
    const groupId = uniqueGroup('sub-list');
    const consumer = new Consumer(client, { groupId, autoOffsetReset: 'earliest' });
    const rebalances: RebalanceEvent[] = [];
    consumer.on('rebalance', (e) => rebalances.push(e));
    await consumer.subscribe({ topics: [topic] }, { signal: AbortSignal.timeout(30_000) });
    expect(consumer.assignment().length).toBe(3);
    const records = await readRecords(consumer, 45);
    expect(records.length).toBe(45);
    await consumer.close();
    expect(rebalances.map((r) => r.kind)).toEqual(['assigned', 'revoked']);

    const committed = await client.offsets.committed(groupId, null);
    expect(committed.reduce((n, c) => n + Number(c.offset ?? 0n), 0)).toBe(45);

    const successor = new Consumer(client, { groupId, autoOffsetReset: 'earliest' });
    await successor.subscribe({ topics: [topic] });
    try {
      const rest = await readRecords(successor, 15);
      const seen = new Set([...records, ...rest].map((r) => `${r.partition}:${r.offset}`));
      expect(seen.size).toBe(60);
    } finally {
      await successor.close();
    }
  }, 60_000);

  it('unsubscribe: the revoke commits what was processed under the generation, and the group can be joined again', async () => {
    const groupId = uniqueGroup('unsub');
    const consumer = new Consumer(client, { groupId, autoOffsetReset: 'earliest', autoCommitIntervalMs: 60_000 });
    const failures: unknown[] = [];
    consumer.on('commit-failed', (e) => failures.push(e));
    try {
      await consumer.subscribe({ topics: [topic] });
      await readRecords(consumer, 30);
      await consumer.unsubscribe({ signal: AbortSignal.timeout(30_000) });
      expect(consumer.assignment()).toEqual([]);
      expect(failures).toEqual([]);
      const committed = await client.offsets.committed(groupId, null);
      expect(committed.reduce((n, c) => n + Number(c.offset ?? 0n), 0)).toBe(30);
      await consumer.subscribe({ topics: [topic] });
      expect((await readRecords(consumer, 30)).length).toBe(30);
    } finally {
      await consumer.close();
    }
  }, 60_000);

  it('a rebalance that leaves the partitions as they were is reported as unchanged; every event names the member', async () => {
    const groupId = uniqueGroup('unchanged');
    const elsewhere = await newTopic(client, 'group-sub-other', 1);
    const group = { assignors: ['cooperative-sticky' as const] };
    const first = new Consumer(client, { groupId, autoOffsetReset: 'earliest', group });
    const second = new Consumer(client, { groupId, autoOffsetReset: 'earliest', group });
    const events: RebalanceEvent[] = [];
    first.on('rebalance', (e) => events.push(e));
    try {
      await first.subscribe({ topics: [topic] }, { signal: AbortSignal.timeout(30_000) });
      const before = first.groupMetadata();
      // The second member reads another topic: the group rebalances, and the first keeps what it had.
      await second.subscribe({ topics: [elsewhere] }, { signal: AbortSignal.timeout(30_000) });
      const deadline = Date.now() + 30_000;
      while (!events.some((e) => e.kind === 'unchanged') && Date.now() < deadline) await sleep(50);
      const unchanged = events.find((e) => e.kind === 'unchanged');
      expect(unchanged).toMatchObject({ groupId, memberId: before.memberId });
      expect(unchanged!.partitions.length).toBe(3);
      expect(unchanged!.generation).toBeGreaterThan(before.generationId);
      expect(first.groupMetadata()).toMatchObject({ groupId, memberId: before.memberId, groupInstanceId: null });
      expect(events.map((e) => e.memberId)).toEqual(events.map(() => before.memberId));
      expect(events.filter((e) => e.kind === 'revoked' || e.kind === 'lost')).toEqual([]);
    } finally {
      await second.close();
      await first.close();
    }
  }, 60_000);

  it('by pattern: subscribes to the topics whose names match', async () => {
    const consumer = new Consumer(client, { groupId: uniqueGroup('sub-pattern'), autoOffsetReset: 'earliest' });
    const escaped = topic.replace(/[-]/g, '\\-');
    await consumer.subscribe(
      { pattern: new RegExp(`${escaped}|no-such-topic-.*`) },
      { signal: AbortSignal.timeout(30_000) },
    );
    try {
      expect(new Set(consumer.assignment().map((p) => p.topic))).toEqual(new Set([topic]));
      expect((await readRecords(consumer, 60)).length).toBe(60);
    } finally {
      await consumer.close();
    }
  }, 60_000);

  it('the application listener runs after the consumer has taken or given up the partitions', async () => {
    const consumer = new Consumer(client, { groupId: uniqueGroup('sub-listener'), autoOffsetReset: 'earliest' });
    const calls: string[] = [];
    await consumer.subscribe(
      { topics: [topic] },
      {
        listener: {
          onAssigned: (tps) => {
            calls.push(`assigned ${tps.length} (owned ${consumer.assignment().length})`);
          },
          onRevoked: async (tps) => {
            calls.push(`revoked ${tps.length}`);
            // Still owned: a commit made here is accepted.
            await consumer.commit();
          },
        },
      },
    );
    await readRecords(consumer, 5);
    await consumer.close();
    expect(calls).toEqual(['assigned 3 (owned 3)', 'revoked 3']);
  }, 60_000);
});
