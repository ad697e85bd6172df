/**
 * Scale: 1 to 8 tidemark members join a group on a 16-partition topic one by one, then leave one by one down to
 * one. After every rebalance each partition has exactly one owner, the split is even, and with the incremental
 * assignor (classic cooperative-sticky, KIP-848 uniform) only the partitions that must move do: on a join only
 * partitions going to the newcomer, on a leave only the leaver's.
 */
import { describe, it } from 'vitest';
import { groupTargets, membershipOptions, newTopic, uniqueGroup } from './setup.js';
import { TidemarkMember } from './tidemark-member.js';
import { moved, OwnershipLedger, type Split, waitForSplit } from './tracker.js';

const PARTITIONS = 16;
const MAX_MEMBERS = 8;

/** Registered by group.test.ts, inside one concurrent suite. */
export function scaleSuite(): void {
  describe.each(groupTargets())('a growing and shrinking group ($label)', (target) => {
    const classic = target.protocol === 'classic';
    const assignor = target.assignors[1];

    it(`keeps one owner per partition from 1 to ${MAX_MEMBERS} members and back, and ${assignor} moves only what must move`, {
      timeout: 420_000,
    }, async ({ expect, onTestFinished }) => {
      const topic = await newTopic(target, 'scale', PARTITIONS);
      const group = uniqueGroup('scale');
      const ledger = new OwnershipLedger();
      const members: TidemarkMember[] = [];
      onTestFinished(async () => {
        await Promise.allSettled(members.map((m) => m.close()));
      });
      const settle = () =>
        waitForSplit(members, PARTITIONS, {
          sameGeneration: classic,
          timeoutMs: 60_000,
          quietMs: classic ? 600 : 1_500,
        });

      let before: Split | undefined;
      for (let n = 1; n <= MAX_MEMBERS; n++) {
        const name = `m${n}`;
        const member = new TidemarkMember(name, target.bootstrap, membershipOptions(target, group, assignor), ledger);
        members.push(member);
        await member.start([topic]);
        const after = await settle();
        if (before !== undefined) {
          const moves = moved(before, after);
          // Only to the newcomer, and only as many as it now owns.
          expect(moves.filter((m) => m.to !== name)).toEqual([]);
          expect(moves.length).toBe(after.owners.get(name)!.length);
        }
        before = after;
      }

      // Leave in an order that is neither join order nor its reverse.
      for (const name of ['m3', 'm8', 'm1', 'm6', 'm2', 'm7', 'm4']) {
        const leaver = members.splice(
          members.findIndex((m) => m.name === name),
          1,
        )[0];
        await leaver.close();
        const after = await settle();
        const moves = moved(before!, after);
        expect(moves.filter((m) => m.from !== name)).toEqual([]);
        expect(moves.length).toBe(before!.owners.get(name)!.length);
        before = after;
      }
      expect(members.map((m) => m.name)).toEqual(['m5']);
      expect(members[0].owned()).toHaveLength(PARTITIONS);
      expect(ledger.violations).toEqual([]);
    });
  });
}
