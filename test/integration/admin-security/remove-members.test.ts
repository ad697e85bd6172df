/**
 * Removing members from classic groups on the shared 4.4 and 3.9 brokers (Java's
 * `removeMembersFromConsumerGroup`): a static member by group instance id and a dynamic one by member id, or
 * every current member; the removed members leave the group at once (their ids are gone from DescribeGroups
 * before any session timeout), and members the coordinator does not know are typed errors naming them. On
 * 4.4, `'all'` also empties a live KIP-848 consumer group, its members listed by ConsumerGroupDescribe.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { KafkaError } from '../../../protocol/kafka-error.js';
import { ResourceErrors } from '../../../src/admin/resource-errors.js';
import { Client } from '../../../src/client.js';
import { groupTargets, membershipOptions, newTopic, uniqueGroup } from '../group/setup.js';
import { TidemarkMember } from '../group/tidemark-member.js';
import { eventually, failure } from './settle.js';

const targets = groupTargets().filter((t) => t.protocol === 'classic');

for (const target of targets) {
  describe(`removing members, ${target.label}`, () => {
    const started: (TidemarkMember | Client)[] = [];
    afterEach(async () => {
      await Promise.all(started.splice(0).map((m) => m.close()));
    });

    async function twoMembers(group: string) {
      const topic = await newTopic(target, 'remove-members', 2);
      // A session far longer than the test: only the removal can take the members out this quickly.
      const options = (extra = {}) =>
        membershipOptions(target, group, 'range', { ...extra, sessionTimeoutMs: 45_000, rebalanceTimeoutMs: 20_000 });
      const staticMember = new TidemarkMember(
        'static',
        target.bootstrap,
        options({ groupInstanceId: `inst-${group}` }),
      );
      const dynamicMember = new TidemarkMember('dynamic', target.bootstrap, options());
      started.push(staticMember, dynamicMember);
      await Promise.all([staticMember.start([topic]), dynamicMember.start([topic])]);
      const admin = new Client({ bootstrap: target.bootstrap });
      started.push(admin);
      let members: { memberId: string; groupInstanceId: string | null }[] = [];
      await eventually(async () => {
        const [g] = await admin.groups.describeGroups([group]);
        expect(g.state).toBe('Stable');
        members = g.members ?? [];
        expect(members).toHaveLength(2);
      });
      return { admin, members };
    }

    it('by instance id and member id; the removed ids leave the group at once', async () => {
      const group = uniqueGroup('remove');
      const { admin, members } = await twoMembers(group);
      const staticId = members.find((m) => m.groupInstanceId !== null)!;
      const dynamicId = members.find((m) => m.groupInstanceId === null)!;
      const removed = await admin.groups.removeMembers(
        group,
        [{ groupInstanceId: staticId.groupInstanceId! }, { memberId: dynamicId.memberId }],
        { reason: 'removed by the test' },
      );
      expect(removed.map((m) => m.groupInstanceId ?? m.memberId).sort()).toEqual(
        [staticId.groupInstanceId!, dynamicId.memberId].sort(),
      );
      // The members rejoin (they are still running) under new member ids; the old ones are gone.
      await eventually(async () => {
        const [g] = await admin.groups.describeGroups([group]);
        const ids = (g.members ?? []).map((m) => m.memberId);
        expect(ids).not.toContain(staticId.memberId);
        expect(ids).not.toContain(dynamicId.memberId);
      });

      const unknown = await failure(admin.groups.removeMembers(group, [{ memberId: 'no-such-member' }]));
      expect(unknown).toBeInstanceOf(KafkaError);
      expect((unknown as KafkaError).errorName).toBe('UNKNOWN_MEMBER_ID');
      expect((unknown as KafkaError).context.member).toBe('member no-such-member');
      const several = await failure(
        admin.groups.removeMembers(group, [{ memberId: 'nobody-1' }, { groupInstanceId: 'no-such-instance' }]),
      );
      expect(several).toBeInstanceOf(ResourceErrors);
      expect([...(several as ResourceErrors).errors.keys()].sort()).toEqual([
        'instance no-such-instance',
        'member nobody-1',
      ]);
    });

    it("'all' removes every current member; a group that does not exist is GROUP_ID_NOT_FOUND", async () => {
      const group = uniqueGroup('remove-all');
      const { admin, members } = await twoMembers(group);
      const removed = await admin.groups.removeMembers(group, 'all');
      expect(removed.map((m) => m.memberId).sort()).toEqual(members.map((m) => m.memberId).sort());
      const missing = await failure(admin.groups.removeMembers(uniqueGroup('nobody'), 'all'));
      expect((missing as KafkaError).errorName).toBe('GROUP_ID_NOT_FOUND');
    });
  });
}

// KIP-848 groups run on Kafka 4.x only (3.9 has them as an early-access preview, off in the test broker).
for (const target of groupTargets().filter((t) => t.protocol === 'consumer')) {
  describe(`removing members, ${target.label}`, () => {
    const started: (TidemarkMember | Client)[] = [];
    afterEach(async () => {
      await Promise.all(started.splice(0).map((m) => m.close()));
    });

    it("'all' lists the members with ConsumerGroupDescribe and removes them; their ids leave the group", async () => {
      const group = uniqueGroup('remove-848');
      const topic = await newTopic(target, 'remove-members-848', 2);
      const members = ['one', 'two'].map((name) => {
        const member = new TidemarkMember(name, target.bootstrap, membershipOptions(target, group, 'uniform'));
        started.push(member);
        return member;
      });
      await Promise.all(members.map((m) => m.start([topic])));
      const admin = new Client({ bootstrap: target.bootstrap });
      started.push(admin);
      let before: string[] = [];
      await eventually(async () => {
        const [g] = await admin.groups.describeGroups([group]);
        expect(g.type).toBe('consumer');
        expect(g.state).toBe('Stable');
        before = (g.members ?? []).map((m) => m.memberId).sort();
        expect(before).toHaveLength(2);
      });
      const removed = await admin.groups.removeMembers(group, 'all', { reason: 'removed by the test' });
      expect(removed.map((m) => m.memberId).sort()).toEqual(before);
      expect(removed.every((m) => m.groupInstanceId === null)).toBe(true);
      // The members are still running and may rejoin, but only under new member ids (KIP-848 fences the old).
      await eventually(async () => {
        const [g] = await admin.groups.describeGroups([group]);
        const ids = (g.members ?? []).map((m) => m.memberId);
        for (const old of before) expect(ids).not.toContain(old);
      });
    });
  });
}
