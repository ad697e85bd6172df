/**
 * Eight members of one group, joining, leaving gracefully and being SIGKILLed at random (seeded) moments
 * for about a minute while a producer keeps adding records; at the end every record must have been
 * processed, none lost, and every duplicate explained by a member that was killed or expired.
 *
 * Members 0-4 run in this process (InProcessMember): joins and graceful leaves need nothing more, and they
 * cost no process start. Members 5-7 run in child processes (ChildConsumer): only a process of its own can
 * be SIGKILLed for real (no commit, no LeaveGroup, sockets dropped by the kernel), which is the fault that
 * makes duplicates and that the coordinator must notice by the session timeout.
 * TIDEMARK_SOAK=1 runs five minutes per case and adds KIP-848; TIDEMARK_SEED=n replays another schedule,
 * TIDEMARK_CHAOS_SECONDS=n sets how long the faults go on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import type { GroupMembershipOptions, GroupProtocol } from '../../../src/consumer/group/membership.js';
import { seededRandom } from '../../conformance/random.js';
import { newClient, newTopic, produce, type Target, targets, uniqueGroup } from '../consumer/setup.js';
import { ChildConsumer, faultSeed, removeChildScript, SOAK, waitUntil } from './child-consumer.js';
import { InProcessMember } from './in-process-member.js';
import { checkGroup, coversAll, missing, readSink, type SinkEntry } from './ledger.js';

const PARTITIONS = 12;
const INITIAL_PER_PARTITION = 2_000;
/** Added to every partition every two seconds while the chaos lasts. */
const ADDED_PER_ROUND = 100;
const CHAOS_MS = Number(process.env.TIDEMARK_CHAOS_SECONDS ?? (SOAK ? 300 : 45)) * 1_000;
const SLOTS = 8;
const IN_PROCESS_SLOTS = 5;
/** About 500 records/s per member: the backlog lasts through half the chaos, so kills land mid-read. */
const MS_PER_RECORD = 2;

/**
 * Classic on both brokers. KIP-848 only in the soak run: its session timeout is the broker's
 * (group.consumer.session.timeout.ms, 20 s on the test brokers), so each killed member holds its partitions
 * 20 s, more than the CI budget of this file allows.
 */
function cases(): { label: string; target: Target; protocol: GroupProtocol }[] {
  return targets().flatMap((target) => [
    { label: `${target.label}, classic`, target, protocol: 'classic' as const },
    ...(SOAK && target.major >= 4
      ? [{ label: `${target.label}, KIP-848`, target, protocol: 'consumer' as const }]
      : []),
  ]);
}

type Member = { slot: number; run: number } & (
  | { kind: 'in-process'; member: InProcessMember }
  | { kind: 'child'; child: ChildConsumer }
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise that must settle within `ms`, else fails naming `what`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// The child bundle is shared by the cases: removed once all are done, not when the first finishes.
afterAll(() => removeChildScript());

// Both brokers at once: each case has its own topic, group, sink file and seeded schedule, asserts only what was
// read and committed (never how fast), and spends most of its time waiting on its members and its broker.
describe.concurrent.each(cases())('eight members join, leave and are killed ($label)', ({ target, protocol }) => {
  const work = mkdtempSync(path.join(tmpdir(), 'tidemark-chaos-'));
  let passed = false;
  afterAll(() => {
    if (passed) rmSync(work, { recursive: true, force: true });
    else console.log(`chaos evidence kept in ${work}`);
  });

  it('reads every record, duplicating only what killed or expired members had in flight', async () => {
    const client: Client = newClient(target);
    const seed = faultSeed() + (protocol === 'consumer' ? 20 : target.major);
    const random = seededRandom(seed);
    const topic = await newTopic(client, `chaos-${protocol}`, PARTITIONS);
    const groupId = uniqueGroup(`chaos-${protocol}`);
    const all = [...Array(PARTITIONS).keys()];
    await produce(client, topic, all, INITIAL_PER_PARTITION, { batchSize: 50 });
    let produced = INITIAL_PER_PARTITION;
    const ends = () => new Array<number>(PARTITIONS).fill(produced);

    const sink = path.join(work, `sink-${protocol}-${target.major}.log`);
    const ledger: SinkEntry[] = [];
    const group: Omit<GroupMembershipOptions, 'groupId'> =
      protocol === 'classic'
        ? { protocol, sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 20_000 }
        : { protocol };
    const active = new Map<number, Member>();
    const finished: Member[] = [];
    const leaving: Promise<void>[] = [];
    const killed = new Set<number>();
    const problems: string[] = [];
    let runs = 0;
    let leaves = 0;

    const join = async (slot: number): Promise<void> => {
      const run = runs++;
      const autoCommitIntervalMs = [100, 1_000, 3_000][Math.floor(random() * 3)];
      const common = {
        run,
        bootstrap: target.bootstrap,
        topic,
        groupId,
        group,
        autoCommitIntervalMs,
        msPerRecord: MS_PER_RECORD,
      };
      if (slot < IN_PROCESS_SLOTS) {
        active.set(slot, { slot, run, kind: 'in-process', member: new InProcessMember(common, ledger) });
      } else {
        active.set(slot, { slot, run, kind: 'child', child: await ChildConsumer.spawn({ ...common, sink }) });
      }
    };
    const leave = (m: Member): void => {
      active.delete(m.slot);
      finished.push(m);
      leaves++;
      const done = m.kind === 'in-process' ? m.member.leave() : m.child.close(45_000);
      const left = within(done, 60_000, `member ${m.run} leaving`);
      left.catch(() => {}); // awaited with the others below; must not count as unhandled before that
      leaving.push(left);
    };
    const kill = async (m: Member & { kind: 'child' }): Promise<void> => {
      active.delete(m.slot);
      finished.push(m);
      killed.add(m.run);
      await m.child.kill();
    };

    // Committed offsets only move forward (nobody seeks): checked every second, from outside the group.
    const committed = new Array<number>(PARTITIONS).fill(0);
    let watching = true;
    let watchErrors = 0;
    const commitWatch = (async () => {
      while (watching) {
        const now = await client.offsets
          .committed(
            groupId,
            all.map((partition) => ({ topic, partition })),
          )
          .catch(() => {
            watchErrors++; // the coordinator may be busy with a rebalance: look again next second
            return [];
          });
        for (const c of now) {
          const offset = c.offset === null ? 0 : Number(c.offset);
          if (offset < committed[c.partition])
            problems.push(`commit of ${c.partition} went back: ${committed[c.partition]} → ${offset}`);
          committed[c.partition] = Math.max(committed[c.partition], offset);
        }
        await sleep(1_000);
      }
    })();

    const started = Date.now();
    let producing = true;
    try {
      for (const slot of [0, 1, 5, 6]) await join(slot);
      // The producer keeps adding while the members come and go.
      const producer = (async () => {
        while (producing) {
          await sleep(2_000);
          await produce(client, topic, all, ADDED_PER_ROUND, { start: produced, batchSize: 50 });
          produced += ADDED_PER_ROUND;
        }
      })();
      producer.catch(() => {}); // awaited after the chaos; a failure must not count as unhandled before that
      while (Date.now() - started < CHAOS_MS) {
        await sleep(700 + random() * 2_000);
        for (const m of active.values()) {
          if (m.kind === 'child' && !m.child.alive)
            problems.push(`member ${m.run} died on its own: ${m.child.describe()}`);
        }
        const idle = [...Array(SLOTS).keys()].filter((s) => !active.has(s));
        const members = [...active.values()];
        const children = members.filter((m): m is Member & { kind: 'child' } => m.kind === 'child');
        const roll = random();
        let action =
          idle.length === 0 ? (roll < 0.5 ? 'leave' : 'kill') : roll < 0.4 ? 'join' : roll < 0.65 ? 'leave' : 'kill';
        if (members.length <= 2) action = 'join';
        if (action === 'kill' && children.length === 0) action = 'join';
        // Joins favour the child slots, so there is usually a member that can be killed.
        const idleChildren = idle.filter((s) => s >= IN_PROCESS_SLOTS);
        const pool = idleChildren.length > 0 && random() < 0.6 ? idleChildren : idle;
        if (action === 'join') await join(pool[Math.floor(random() * pool.length)]);
        else if (action === 'leave') leave(members[Math.floor(random() * members.length)]);
        else await kill(children[Math.floor(random() * children.length)]);
      }
      producing = false;
      await within(producer, 60_000, 'producer');
      const chaosMs = Date.now() - started;

      // Two members left at least, then everything must be read: a rebalance that never settles fails here.
      for (const slot of [0, 1, 2, 3, 4]) if (active.size < 2 && !active.has(slot)) await join(slot);
      const entries = () => [...ledger, ...readSink(sink)];
      await waitUntil(
        () => coversAll(entries(), ends()),
        150_000,
        () =>
          `not every record read (${missing(entries(), ends())}); active runs ${[...active.values()].map((m) => m.run)}`,
        500,
      );
      for (const m of [...active.values()]) leave(m);
      await Promise.all(leaving);
      watching = false;
      await within(commitWatch, 30_000, 'commit watch');

      const faulted = new Set(killed);
      let expired = 0;
      for (const m of finished) {
        const fault =
          m.kind === 'in-process'
            ? m.member.faulted
            : m.child.events.some((e) => e.event === 'commit-failed' || (e.event === 'rebalance' && e.kind === 'lost'));
        if (fault && !killed.has(m.run)) expired++;
        if (fault) faulted.add(m.run);
        if (m.kind === 'in-process')
          problems.push(
            ...m.member.problems.filter(
              (p) => !p.startsWith('lost') && !p.startsWith('commit failed') && !p.startsWith('iterator threw'),
            ),
          );
      }
      const check = checkGroup(entries(), ends(), faulted);
      const final = await client.offsets.committed(
        groupId,
        all.map((partition) => ({ topic, partition })),
      );
      console.log(
        JSON.stringify({
          fault: 'group chaos: joins, graceful leaves, SIGKILLs, producer running',
          broker: target.label,
          protocol,
          seed,
          chaosMs,
          totalMs: Date.now() - started,
          runs,
          leaves,
          kills: killed.size,
          expired,
          records: produced * PARTITIONS,
          checked: check.processed,
          lost: check.lost,
          duplicated: check.duplicated,
          inFlightOfFaulted: check.inFlightOfFaulted,
          commitWatchErrors: watchErrors,
        }),
      );
      expect(problems).toEqual([]);
      expect(check.violations).toEqual([]);
      expect(check.lost).toBe(0);
      expect(check.duplicated).toBeLessThanOrEqual(check.inFlightOfFaulted);
      expect(final.map((c) => Number(c.offset))).toEqual(ends());
      expect(killed.size).toBeGreaterThan(0);
      passed = true;
    } finally {
      watching = false;
      producing = false;
      for (const m of active.values()) {
        if (m.kind === 'child') await m.child.kill().catch(() => {});
        else await within(m.member.leave(), 30_000, 'cleanup').catch(() => {});
      }
      await client.close();
    }
  }, 600_000);
});
