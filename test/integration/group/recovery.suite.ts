/**
 * Typed errors the application must act on, and the protocol-specific corners of static membership, against the
 * real broker: two members with one group instance id, a static member crashing and coming back, a pattern
 * subscription meeting a new topic, and KIP-848 asked of a broker that does not run it.
 */
import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import {
  FencedInstanceIdError,
  GroupJoinRefusedError,
  GroupProtocolUnsupportedError,
  MemberNotStableError,
} from '../../../src/consumer/group/index.js';
import { legacyBootstrap } from '../../harness/context.js';
import { ChildMember } from './child-member.js';
import { groupTargets, membershipOptions, newTopic, uniqueGroup } from './setup.js';
import { TidemarkMember } from './tidemark-member.js';
import { waitForSplit } from './tracker.js';

/** Registered by group.test.ts, inside one concurrent suite. */
export function recoverySuite(): void {
  describe.each(groupTargets())('recovery ($label)', (target) => {
    const classic = target.protocol === 'classic';
    const assignor = target.assignors[0];

    it(classic
      ? 'fences the older of two members with one group instance id (FencedInstanceIdError, fatal)'
      : 'refuses the newer of two members with one group instance id (UNRELEASED_INSTANCE_ID, fatal)', {
      timeout: 90_000,
    }, async ({ expect, onTestFinished }) => {
      const topic = await newTopic(target, 'fenced', 2);
      const group = uniqueGroup('fenced');
      const options = membershipOptions(target, group, assignor, {
        groupInstanceId: `twin-${randomBytes(4).toString('hex')}`,
      });
      const older = new TidemarkMember('older', target.bootstrap, options);
      const newer = new TidemarkMember('newer', target.bootstrap, options);
      onTestFinished(async () => {
        await Promise.allSettled([older.close({ evenIfStatic: true }), newer.close({ evenIfStatic: true })]);
      });
      await older.start([topic]);
      await waitForSplit([older], 2, { sameGeneration: false, quietMs: 200 });

      if (classic) {
        // The newer one takes the instance id over; the older one learns it from its next heartbeat.
        await newer.start([topic]);
        await waitForSplit([newer], 2, { sameGeneration: false, quietMs: 200 });
        await expect.poll(() => older.membership.state, { timeout: 20_000 }).toBe('failed');
        expect(() => older.membership.notePoll()).toThrow(FencedInstanceIdError);
        expect(() => older.membership.commitContext()).toThrow(FencedInstanceIdError);
        expect(older.errors.some((e) => e instanceof FencedInstanceIdError)).toBe(true);
      } else {
        const refused = await newer.start([topic]).then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(refused).toBeInstanceOf(GroupJoinRefusedError);
        expect((refused as GroupJoinRefusedError).errorName).toBe('UNRELEASED_INSTANCE_ID');
        expect(older.membership.state).toBe('stable');
        expect(older.owned()).toEqual([0, 1]);
      }
    });

    it('picks up a new topic that matches a pattern subscription', { timeout: 90_000 }, async ({
      expect,
      onTestFinished,
    }) => {
      const prefix = `pattern-${randomBytes(4).toString('hex')}`;
      const first = await newTopic(target, `${prefix}-a`, 2);
      const group = uniqueGroup('pattern');
      const options = membershipOptions(target, group, assignor, { metadataRefreshIntervalMs: 1_000 });
      const member = new TidemarkMember('pattern', target.bootstrap, options);
      onTestFinished(() => member.close());
      await member.membership.start({ pattern: new RegExp(`${prefix}-.*`) });
      await expect.poll(() => member.membership.assignment().length, { timeout: 20_000 }).toBe(2);
      const second = await newTopic(target, `${prefix}-b`, 3);
      await expect
        .poll(() => member.membership.assignment().filter((p) => p.topic === second).length, { timeout: 40_000 })
        .toBe(3);
      expect(member.membership.assignment().filter((p) => p.topic === first)).toHaveLength(2);
    });

    it.runIf(classic)(
      'keeps a crashed static member’s partitions when it comes back within the session timeout (classic)',
      { timeout: 90_000 },
      async ({ expect, onTestFinished }) => {
        // KIP-848 refuses this on purpose: until the old member's session ends, its instance id is not released
        // (UNRELEASED_INSTANCE_ID, the test above); only a static member that left with epoch -2 can come back.
        const topic = await newTopic(target, 'crash', 4);
        const group = uniqueGroup('crash');
        // A session long enough for a new process to start on a busy machine (static members usually have one).
        const options = membershipOptions(target, group, assignor, {
          groupInstanceId: `crash-${randomBytes(4).toString('hex')}`,
          sessionTimeoutMs: 30_000,
        });
        const other = new TidemarkMember('other', target.bootstrap, membershipOptions(target, group, assignor));
        const crashing = ChildMember.spawn('crashing', target.bootstrap, topic, options);
        let back: ChildMember | undefined;
        onTestFinished(async () => {
          await crashing.kill();
          await back?.leave(true);
          await other.close();
        });
        await Promise.all([other.start([topic]), crashing.started()]);
        const before = await waitForSplit([other, crashing], 4, { sameGeneration: true });
        const events = other.events.length;
        await crashing.kill();
        back = ChildMember.spawn('back', target.bootstrap, topic, options);
        await back.started();
        const after = await waitForSplit([other, back], 4, { sameGeneration: true });
        expect(after.owners.get('back')).toEqual(before.owners.get('crashing'));
        expect(after.generations.get('back')).toBe(before.generations.get('crashing'));
        expect(other.events.length).toBe(events);
      },
    );
  });

  describe('the consumer group protocol on a broker that does not run it', () => {
    it.skipIf(legacyBootstrap() === null)(
      'fails start() with GroupProtocolUnsupportedError (Kafka 3.9 without group.coordinator.rebalance.protocols)',
      async ({ expect, onTestFinished }) => {
        const target = {
          label: '3.9',
          bootstrap: legacyBootstrap()!,
          protocol: 'consumer' as const,
          assignors: ['range', 'uniform'] as const,
        };
        const topic = await newTopic(target, 'no848', 1);
        const member = new TidemarkMember(
          'no848',
          target.bootstrap,
          membershipOptions(target, uniqueGroup('no848'), 'uniform'),
        );
        onTestFinished(() => member.close());
        await expect(member.start([topic])).rejects.toBeInstanceOf(GroupProtocolUnsupportedError);
        expect(member.membership.state).toBe('failed');
        expect(() => member.membership.commitContext()).toThrow(GroupProtocolUnsupportedError);
        expect(MemberNotStableError).toBeDefined();
      },
    );
  });
}
