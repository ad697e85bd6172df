/**
 * One group, two tidemark members and one Kafka Java consumer: first with a non-incremental assignor (range),
 * then with an incremental one (classic: cooperative-sticky; KIP-848: the broker's uniform assignor). The
 * partitions must be split with no overlap and no gap, and again after a tidemark member leaves, another
 * joins, and the Java member leaves. Classic leadership moves around (the first member to join leads, the leader
 * leaves), so tidemark computes assignments for Java and Java for tidemark.
 */
import { describe, it } from 'vitest';
import { JavaMember } from './java-member.js';
import { groupTargets, membershipOptions, newTopic, TIMING, uniqueGroup } from './setup.js';
import { TidemarkMember } from './tidemark-member.js';
import { OwnershipLedger, type TrackedMember, waitForSplit } from './tracker.js';

const PARTITIONS = 6;

/** Registered by group.test.ts, inside one concurrent suite. */
export function mixedGroupSuite(): void {
  describe.each(groupTargets())('a group of tidemark and Java members ($label)', (target) => {
    const classic = target.protocol === 'classic';
    // KIP-848 epochs differ per member; classic generations must agree once a rebalance is complete.
    const settle = (members: TrackedMember[]) =>
      waitForSplit(members, PARTITIONS, { sameGeneration: classic, timeoutMs: 90_000, quietMs: classic ? 700 : 2_000 });

    it.for(target.assignors.map((assignor, i) => ({ assignor, javaFirst: i === 0 })))(
      'splits the partitions with no overlap and no gap, and again when any one leaves, with $assignor',
      { timeout: 240_000 },
      async ({ assignor, javaFirst }, { expect, onTestFinished }) => {
        const topic = await newTopic(target, `mixed-${assignor}`, PARTITIONS);
        const group = uniqueGroup(`mixed-${assignor}`);
        const ledger = new OwnershipLedger();
        // Per test, not afterEach: the tests of this file run concurrently.
        const running: Array<{ close(): Promise<void> }> = [];
        onTestFinished(async () => {
          await Promise.allSettled(running.map((m) => m.close()));
        });
        const tidemark = (name: string) => {
          const m = new TidemarkMember(name, target.bootstrap, membershipOptions(target, group, assignor), ledger);
          running.push(m);
          return m.start([topic]);
        };
        const java = await JavaMember.start('java', {
          bootstrap: target.bootstrap,
          group,
          topic,
          protocol: target.protocol,
          assignor,
          sessionTimeoutMs: TIMING.sessionTimeoutMs,
          heartbeatIntervalMs: TIMING.heartbeatIntervalMs,
        });
        running.push(java);

        let a: TidemarkMember;
        let b: TidemarkMember;
        if (javaFirst) {
          await java.joined();
          [a, b] = await Promise.all([tidemark('tm-a'), tidemark('tm-b')]);
        } else {
          a = await tidemark('tm-a');
          [b] = await Promise.all([tidemark('tm-b'), java.joined()]);
        }
        const three = await settle([a, b, java]);
        expect([...three.owners.values()].map((ps) => ps.length).sort()).toEqual([2, 2, 2]);

        await a.close();
        await settle([b, java]);

        const c = await tidemark('tm-c');
        await settle([b, c, java]);

        await java.close();
        const two = await settle([b, c]);
        expect([...two.owners.values()].flat().sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5]);

        expect(ledger.violations).toEqual([]);
        for (const m of [a, b, c]) expect(m.errors).toEqual([]);
      },
    );
  });
}
