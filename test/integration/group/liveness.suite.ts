/**
 * Liveness and static membership against the real broker, the same suite for both protocols: a member killed
 * with SIGKILL is removed after its session timeout; a static member restarted within it causes no rebalance;
 * a member that stops polling leaves and is told so on its next poll; commits carry the generation / epoch.
 */
import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import { commitOffsets } from '../../../src/commit/offset-commit.js';
import { MaxPollIntervalExceededError } from '../../../src/consumer/group/index.js';
import { KIP848_TIMING } from '../../harness/broker-config.js';
import { ChildMember } from './child-member.js';
import { groupTargets, membershipOptions, newTopic, TIMING, uniqueGroup } from './setup.js';
import { TidemarkMember } from './tidemark-member.js';
import { waitForSplit } from './tracker.js';

const PARTITIONS = 6;
/** KIP-848 sessions and heartbeats are the broker's: group.consumer.session.timeout.ms and heartbeat interval. */
const KIP848_SESSION_MS = KIP848_TIMING.sessionTimeoutMs;
const KIP848_HEARTBEAT_MS = KIP848_TIMING.heartbeatIntervalMs;

/** Registered by group.test.ts, inside one concurrent suite. */
export function livenessSuite(): void {
  describe.each(groupTargets())('liveness ($label)', (target) => {
    const classic = target.protocol === 'classic';
    const assignor = target.assignors[0];
    const sessionMs = classic ? TIMING.sessionTimeoutMs : KIP848_SESSION_MS;
    const heartbeatMs = classic ? TIMING.heartbeatIntervalMs : KIP848_HEARTBEAT_MS;
    const settle = (members: Parameters<typeof waitForSplit>[0], timeoutMs = 60_000) =>
      waitForSplit(members, PARTITIONS, { sameGeneration: classic, timeoutMs, quietMs: classic ? 600 : 1_500 });

    it('removes a member killed with SIGKILL after the session timeout and reassigns its partitions', {
      timeout: 180_000,
    }, async ({ expect, onTestFinished }) => {
      const topic = await newTopic(target, 'sigkill', PARTITIONS);
      const group = uniqueGroup('sigkill');
      const survivor = new TidemarkMember('survivor', target.bootstrap, membershipOptions(target, group, assignor));
      const victim = ChildMember.spawn('victim', target.bootstrap, topic, membershipOptions(target, group, assignor));
      onTestFinished(async () => {
        await victim.kill();
        await survivor.close();
      });
      await Promise.all([survivor.start([topic]), victim.started()]);
      await settle([survivor, victim]);
      expect(victim.owned().length).toBe(PARTITIONS / 2);

      const killedAt = Date.now();
      await victim.kill();
      await settle([survivor], sessionMs + 60_000);
      const elapsed = Date.now() - killedAt;
      // The coordinator counts the session from the victim's last heartbeat, at most one interval before the kill.
      expect(elapsed).toBeGreaterThanOrEqual(sessionMs - heartbeatMs - 500);
      expect(elapsed).toBeLessThan(sessionMs + 30_000);
      expect(survivor.owned()).toHaveLength(PARTITIONS);
    });

    it('keeps a static member’s partitions without a rebalance when it restarts within the session timeout', {
      timeout: 180_000,
    }, async ({ expect, onTestFinished }) => {
      const topic = await newTopic(target, 'static', PARTITIONS);
      const group = uniqueGroup('static');
      const instance = `static-${randomBytes(4).toString('hex')}`;
      // A session long enough for a new process to start on a busy machine (static members usually have one).
      const staticOptions = membershipOptions(target, group, assignor, {
        groupInstanceId: instance,
        sessionTimeoutMs: 30_000,
      });
      // The static member joins first: in the classic protocol it leads, so its restart takes the
      // skipAssignment path (JoinGroup v9) too.
      const first = ChildMember.spawn('static-1', target.bootstrap, topic, staticOptions);
      const other = new TidemarkMember('dynamic', target.bootstrap, membershipOptions(target, group, assignor));
      let second: ChildMember | undefined;
      onTestFinished(async () => {
        await first.kill();
        await second?.leave(true);
        await other.close();
      });
      await first.started();
      await other.start([topic]);
      const before = await settle([first, other]);
      const eventsBefore = other.events.length;
      const generationBefore = other.generation();

      // A restart: the process closes (a static member does not leave) and a new one comes with the same id.
      await first.leave();
      second = ChildMember.spawn('static-2', target.bootstrap, topic, staticOptions);
      await second.started();
      const after = await settle([second, other]);
      expect(after.owners.get('static-2')).toEqual(before.owners.get('static-1'));
      // Give a rebalance, if one were coming, the time to reach the other member.
      await new Promise((r) => setTimeout(r, 2 * heartbeatMs));
      expect(other.events.length).toBe(eventsBefore);
      expect(other.generation()).toBe(generationBefore);
      expect(other.owned()).toEqual(before.owners.get('dynamic'));
    });

    it('leaves when the application does not poll within max poll interval, and says so on the next poll', {
      timeout: 120_000,
    }, async ({ expect, onTestFinished }) => {
      const topic = await newTopic(target, 'poll', PARTITIONS);
      const group = uniqueGroup('poll');
      const slowOptions = membershipOptions(target, group, assignor, { maxPollIntervalMs: 3_000 });
      const slow = new TidemarkMember('slow', target.bootstrap, slowOptions);
      const busy = new TidemarkMember('busy', target.bootstrap, membershipOptions(target, group, assignor));
      onTestFinished(async () => {
        await Promise.allSettled([slow.close(), busy.close()]);
      });
      await Promise.all([slow.start([topic], { poll: false }), busy.start([topic])]);
      // It polls while the group settles (KIP-848 takes a few heartbeats), then stops.
      const polling = setInterval(() => slow.membership.notePoll(), 200);
      let before: Awaited<ReturnType<typeof settle>>;
      try {
        before = await settle([slow, busy]);
      } finally {
        clearInterval(polling);
      }

      // `slow` does not poll for longer than 3 s: it leaves, and `busy` gets everything.
      await settle([busy], 30_000);
      expect(slow.membership.assignment()).toEqual([]);
      let thrown: unknown;
      try {
        slow.membership.notePoll();
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(MaxPollIntervalExceededError);
      const lost = (thrown as MaxPollIntervalExceededError).lostPartitions.map((p) => p.partition);
      expect(lost).toEqual(before.owners.get('slow'));
      expect(slow.events.at(-1)?.lost.map((p) => p.partition)).toEqual(lost);

      // That poll rejoined it; now it polls like the other.
      const poller = setInterval(() => slow.membership.notePoll(), 200);
      onTestFinished(() => clearInterval(poller));
      await settle([slow, busy]);
    });

    it('commits with the generation or member epoch of commitContext(), and the coordinator checks it', {
      timeout: 60_000,
    }, async ({ expect, onTestFinished }) => {
      const topic = await newTopic(target, 'commit', 1);
      const group = uniqueGroup('commit');
      const member = new TidemarkMember('committer', target.bootstrap, membershipOptions(target, group, assignor));
      onTestFinished(() => member.close());
      await member.start([topic]);
      await waitForSplit([member], 1, { sameGeneration: false, quietMs: 200 });
      const ctx = {
        cluster: member.client.cluster,
        coordinators: member.client.coordinators,
        requestTimeoutMs: 10_000,
      };
      const context = member.membership.commitContext();
      expect(member.membership.protocol).toBe(target.protocol);
      expect(context.generationId).toBeGreaterThan(0);
      await commitOffsets(ctx, group, [{ topic, partition: 0, offset: 0n }], { member: context });

      const stale = { ...context, generationId: context.generationId + 10 };
      await expect(
        commitOffsets(ctx, group, [{ topic, partition: 0, offset: 0n }], { member: stale }),
      ).rejects.toMatchObject({
        errorName: classic ? 'ILLEGAL_GENERATION' : 'STALE_MEMBER_EPOCH',
      });
    });
  });
}
