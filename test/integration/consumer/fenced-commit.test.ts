/**
 * A commit the coordinator refuses because the member was fenced (issue 19, defect 1): the typed error reaches
 * the membership's recovery with the generation the commit was sent under. Classic (4.x and 3.9):
 * UNKNOWN_MEMBER_ID (the member was removed) and ILLEGAL_GENERATION (the group rebalanced without it) make the
 * member give its partitions up as lost — no revoke, no commit of them — and rejoin. KIP-848 (4.x): the member
 * heartbeats at once and the coordinator's answer decides, as in Java's async consumer. In every case the refused
 * commit stores nothing and no record is lost: what follows the last stored offset is read again.
 *
 * The group is moved on behind the consumer's back by requests in its name from another client
 * (impersonate.ts); the classic member heartbeats every 10 s, so its commit, sent at once, is what learns of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KafkaError } from '../../../protocol/kafka-error.js';
import type { Client } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { CommitFailedError } from '../../../src/consumer/errors.js';
import type { CommitEvent, CommitFailedEvent, RebalanceEvent } from '../../../src/consumer/events.js';
import type { GroupProtocol } from '../../../src/consumer/group/membership.js';
import type { ConsumerGroupMetadata } from '../../../src/offsets/group-metadata.js';
import { until } from '../faults/fault-kit.js';
import {
  bumpConsumerMemberEpoch,
  rebalanceBehindClassicMember,
  removeClassicMember,
  removeConsumerMember,
} from './impersonate.js';
import { newClient, newTopic, produce, readRecords, type Target, targets, uniqueGroup, where } from './setup.js';

const PER_PARTITION = 20;
const TOTAL = 2 * PER_PARTITION;

interface Forgery {
  code: string;
  forge(meta: ConsumerGroupMetadata): Promise<unknown>;
  /** Whether the member keeps its member id through the recovery (ILLEGAL_GENERATION, KIP-848). */
  sameMemberId: boolean;
}

describe.each(targets())('a commit refused because the member was fenced ($label)', (target: Target) => {
  let client: Client;
  let other: Client;
  let topic: string;
  let otherTopic: string;

  beforeAll(async () => {
    client = newClient(target);
    other = newClient(target);
    topic = await newTopic(client, 'fenced-commit', 2);
    otherTopic = await newTopic(client, 'fenced-commit-more', 1);
    await produce(client, topic, [0, 1], PER_PARTITION);
  }, 120_000);
  afterAll(async () => {
    await other?.close();
    await client?.close();
  });

  async function committedTotal(groupId: string): Promise<number> {
    const committed = await client.offsets.committed(groupId, null);
    return committed.filter((c) => c.topic === topic).reduce((n, c) => n + Number(c.offset ?? 0n), 0);
  }

  async function fencedCommit(protocol: GroupProtocol, forgery: Forgery): Promise<void> {
    const groupId = uniqueGroup(`fenced-${forgery.code.toLowerCase()}`);
    const consumer = new Consumer(client, {
      groupId,
      autoOffsetReset: 'earliest',
      autoCommitIntervalMs: 600_000,
      group:
        protocol === 'classic' ? { protocol, sessionTimeoutMs: 30_000, heartbeatIntervalMs: 10_000 } : { protocol },
    });
    const rebalances: RebalanceEvent[] = [];
    const failures: CommitFailedEvent[] = [];
    const commits: CommitEvent[] = [];
    consumer.on('rebalance', (e) => rebalances.push(e));
    consumer.on('commit-failed', (e) => failures.push(e));
    consumer.on('commit', (e) => commits.push(e));
    try {
      await consumer.subscribe({ topics: [topic] }, { signal: AbortSignal.timeout(30_000) });
      const seen = new Set(where(await readRecords(consumer, 10)));
      await consumer.commit();
      expect(await committedTotal(groupId)).toBe(10);
      for (const r of where(await readRecords(consumer, 10))) seen.add(r);
      const fencedAs = consumer.groupMetadata();
      const stepsBefore = rebalances.length;

      await forgery.forge(fencedAs);
      const error = await consumer.commit().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CommitFailedError);
      expect(((error as Error).cause as KafkaError).errorName).toBe(forgery.code);

      // The member rejoins: its partitions are lost (no revoke, no commit of them), then assigned again.
      await until(() => rebalances.slice(stepsBefore).some((e) => e.kind === 'assigned'), 45_000, 'rejoined');
      expect(rebalances.slice(stepsBefore).map((e) => e.kind)).toEqual(['lost', 'assigned']);
      expect(failures.filter((f) => f.reason === 'revoke')).toEqual([]);
      expect(commits.filter((c) => c.reason === 'revoke')).toEqual([]);
      // The refused commit stored nothing.
      expect(await committedTotal(groupId)).toBe(10);
      const rejoinedAs = consumer.groupMetadata();
      expect(rejoinedAs.generationId).toBeGreaterThan(0);
      if (forgery.sameMemberId) expect(rejoinedAs.memberId).toBe(fencedAs.memberId);
      else expect(rejoinedAs.memberId).not.toBe(fencedAs.memberId);

      // No record lost: everything after the stored offsets comes again, so every record is seen.
      for (const r of where(await readRecords(consumer, TOTAL - 10))) seen.add(r);
      expect(seen.size).toBe(TOTAL);
      await consumer.close();
      expect(await committedTotal(groupId)).toBe(TOTAL);
    } finally {
      await consumer.close().catch(() => {});
    }
  }

  it.each(target.major >= 4 ? (['classic', 'consumer'] as const) : (['classic'] as const))(
    '%s: a handler that outlives the max poll interval, then commits: nothing stored, partitions lost, none lost on rejoin',
    async (protocol) => {
      const groupId = uniqueGroup(`poll-timeout-${protocol}`);
      const consumer = new Consumer(client, {
        groupId,
        autoOffsetReset: 'earliest',
        autoCommitIntervalMs: 600_000,
        group: { protocol, maxPollIntervalMs: 3_000 },
      });
      const rebalances: RebalanceEvent[] = [];
      const commits: CommitEvent[] = [];
      consumer.on('rebalance', (e) => rebalances.push(e));
      consumer.on('commit', (e) => commits.push(e));
      try {
        await consumer.subscribe({ topics: [topic] }, { signal: AbortSignal.timeout(30_000) });
        const seen = new Set(where(await readRecords(consumer, 10)));
        await consumer.commit();
        for (const r of where(await readRecords(consumer, 10))) seen.add(r);
        // The handler takes longer than the max poll interval: the member leaves and its partitions are lost.
        await until(() => rebalances.some((e) => e.kind === 'lost'), 20_000, 'lost after the poll timeout');
        // It owns nothing now, so its commit has nothing to store (the partitions may be another member's).
        const commitsBefore = commits.length;
        await consumer.commit();
        expect(commits.length).toBe(commitsBefore);
        expect(await committedTotal(groupId)).toBe(10);
        expect(rebalances.map((e) => e.kind)).toEqual(['assigned', 'lost']);
        // Back in the loop: told once why, then it rejoins and reads everything after the stored offsets.
        await expect(readRecords(consumer, 1)).rejects.toThrow(/poll/i);
        for (const r of where(await readRecords(consumer, TOTAL - 10))) seen.add(r);
        expect(seen.size).toBe(TOTAL);
      } finally {
        await consumer.close().catch(() => {});
      }
    },
    90_000,
  );

  it('classic, UNKNOWN_MEMBER_ID (removed from the group): the partitions are lost, not revoked, and it rejoins', async () => {
    await fencedCommit('classic', {
      code: 'UNKNOWN_MEMBER_ID',
      forge: (meta) => removeClassicMember(other, meta),
      sameMemberId: false,
    });
  }, 90_000);

  it('classic, ILLEGAL_GENERATION (a rebalance it has not seen): the partitions are lost, not revoked, and it rejoins', async () => {
    await fencedCommit('classic', {
      code: 'ILLEGAL_GENERATION',
      forge: (meta) => rebalanceBehindClassicMember(other, meta, topic, [0, 1]),
      sameMemberId: true,
    });
  }, 90_000);

  it.runIf(target.major >= 4)(
    'KIP-848, UNKNOWN_MEMBER_ID (left in its name): the heartbeat learns it was fenced; lost, and it rejoins',
    async () => {
      await fencedCommit('consumer', {
        code: 'UNKNOWN_MEMBER_ID',
        forge: (meta) => removeConsumerMember(other, meta),
        sameMemberId: true,
      });
    },
    90_000,
  );

  it.runIf(target.major >= 4)(
    'KIP-848, STALE_MEMBER_EPOCH (an epoch it has not seen): the commit fails and the heartbeat it sends at once decides',
    async () => {
      const groupId = uniqueGroup('fenced-stale-epoch');
      const consumer = new Consumer(client, {
        groupId,
        autoOffsetReset: 'earliest',
        autoCommitIntervalMs: 600_000,
        group: { protocol: 'consumer' },
      });
      const rebalances: RebalanceEvent[] = [];
      consumer.on('rebalance', (e) => rebalances.push(e));
      try {
        await consumer.subscribe({ topics: [topic] }, { signal: AbortSignal.timeout(30_000) });
        await readRecords(consumer, 10);
        await consumer.commit();
        await readRecords(consumer, 10);
        const before = consumer.groupMetadata();
        const stepsBefore = rebalances.length;
        // In its name: it now subscribes to the other topic only and holds nothing, so the coordinator moves
        // it to a newer epoch in which `topic` is no longer its own.
        const bumped = await bumpConsumerMemberEpoch(other, before, [otherTopic], []);
        expect(bumped).toBeGreaterThan(before.generationId);

        const error = await consumer.commit().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(CommitFailedError);
        expect(((error as Error).cause as KafkaError).errorName).toBe('STALE_MEMBER_EPOCH');
        // The refusal made it heartbeat at once: it learns the epoch and gives up what the coordinator moved.
        await until(() => rebalances.slice(stepsBefore).some((e) => e.kind === 'assigned'), 30_000, 'reconciled');
        const after = consumer.groupMetadata();
        expect(after.memberId).toBe(before.memberId);
        expect(after.generationId).toBeGreaterThan(before.generationId);
        // The coordinator either takes the member's heartbeat at its previous epoch (KIP-848 tolerates one missed
        // answer) and the member revokes what moved, or fences it and the member loses everything and rejoins;
        // which one depends on what its heartbeat reports, and both are what Java's member does.
        const steps = rebalances
          .slice(stepsBefore)
          .map((e) => `${e.kind} ${e.partitions.map((p) => (p.topic === topic ? p.partition : 'other')).join(',')}`);
        expect([
          ['revoked 0,1', 'assigned other'],
          ['lost 0,1', 'assigned 0,1'],
        ]).toContainEqual(steps);
        // Nothing past what was processed was stored.
        expect(await committedTotal(groupId)).toBeLessThanOrEqual(20);
        expect(await committedTotal(groupId)).toBeGreaterThanOrEqual(10);
      } finally {
        await consumer.close().catch(() => {});
      }
    },
    90_000,
  );
});
