import { describe, expect, it } from 'vitest';
import {
  type AssignorMember,
  BUILT_IN_ASSIGNORS,
  createAssignor,
  encodeStickyUserData,
  type TopicInfo,
} from '../../../../src/consumer/assignors/index.js';
import { owned } from './helpers.js';

/** Seeded random groups (no Kafka needed) checked against what every assignment must satisfy. */

function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Group {
  members: AssignorMember[];
  topics: Map<string, TopicInfo>;
}

function randomGroup(seed: number, identical: boolean, withOwnership: boolean): Group {
  const rnd = random(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const names = ['t0', 't1', 't2', 't3', 't4'].slice(0, int(1, 5));
  const racks = rnd() < 0.4;
  const topics = new Map<string, TopicInfo>(
    names.map((t) => {
      const partitions = int(1, 32);
      const partitionRacks = Array.from({ length: partitions }, () => [['a', 'b', 'c'][int(0, 2)]]);
      return [t, racks ? { partitions, partitionRacks } : { partitions }];
    }),
  );
  // Ownership that a previous, valid round could have produced: each partition to at most one member.
  const n = int(1, 9);
  const ownedBy = new Map<number, string[]>();
  for (const t of names) {
    for (let p = 0; p < topics.get(t)!.partitions; p++) {
      if (!withOwnership || rnd() < 0.2) continue;
      const i = int(0, n - 1);
      ownedBy.set(i, [...(ownedBy.get(i) ?? []), `${t}-${p}`]);
    }
  }
  const members = Array.from({ length: n }, (_, i): AssignorMember => {
    const subscribed = identical ? names : names.filter(() => rnd() < 0.6);
    const mine = (ownedBy.get(i) ?? []).filter((tp) => subscribed.includes(tp.slice(0, tp.lastIndexOf('-'))));
    return {
      memberId: `member-${int(0, 9999)}-${i}`,
      groupInstanceId: rnd() < 0.3 ? `instance-${i}` : null,
      rackId: racks && rnd() < 0.8 ? ['a', 'b', 'c'][int(0, 2)] : null,
      topics: subscribed.length > 0 ? subscribed : [names[0]],
      ownedPartitions: owned(...mine),
      generationId: withOwnership ? 7 : -1,
      // sticky (eager) members report what they had in userData instead
      userData: withOwnership
        ? encodeStickyUserData({
            partitions: mine.map((tp) => ({
              topic: tp.slice(0, tp.lastIndexOf('-')),
              partition: Number(tp.slice(tp.lastIndexOf('-') + 1)),
            })),
            generation: 7,
          })
        : null,
    };
  });
  return { members, topics };
}

function counts(group: Group, name: (typeof BUILT_IN_ASSIGNORS)[number]) {
  const result = createAssignor(name).assign(group.members, group.topics);
  const owner = new Map<string, string[]>();
  const perMember = new Map<string, number>();
  const perTopic = new Map<string, Map<string, number>>();
  for (const [member, { partitions }] of result) {
    const subscribed = group.members.find((m) => m.memberId === member)!.topics;
    for (const { topic, partitions: ps } of partitions) {
      expect(subscribed, `${name}: ${member} got ${topic}`).toContain(topic);
      for (const p of ps) owner.set(`${topic}-${p}`, [...(owner.get(`${topic}-${p}`) ?? []), member]);
      perMember.set(member, (perMember.get(member) ?? 0) + ps.length);
      const t = perTopic.get(topic) ?? new Map();
      t.set(member, ps.length);
      perTopic.set(topic, t);
    }
  }
  expect([...result.keys()].sort()).toEqual(group.members.map((m) => m.memberId).sort());
  return { owner, perMember, perTopic, result };
}

const spread = (values: Iterable<number>) => Math.max(...values) - Math.min(...values);

describe.each(BUILT_IN_ASSIGNORS)('%s invariants', (name) => {
  it('assigns every subscribed partition exactly once, only to subscribers', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const group = randomGroup(seed, seed % 2 === 0, false);
      const { owner } = counts(group, name);
      const subscribed = new Set(group.members.flatMap((m) => [...m.topics]));
      for (const t of subscribed) {
        for (let p = 0; p < group.topics.get(t)!.partitions; p++) {
          expect(owner.get(`${t}-${p}`), `${name} seed ${seed}: ${t}-${p}`).toHaveLength(1);
        }
      }
      expect(owner.size).toBe([...subscribed].reduce((s, t) => s + group.topics.get(t)!.partitions, 0));
    }
  });

  it('balances identical subscriptions within one partition', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const group = randomGroup(seed, true, name.includes('sticky') && seed % 2 === 0);
      const { perMember, perTopic } = counts(group, name);
      if (name === 'range') {
        // range balances each topic, not the total
        for (const [, byMember] of perTopic) {
          const all = group.members.map((m) => byMember.get(m.memberId) ?? 0);
          expect(spread(all)).toBeLessThanOrEqual(1);
        }
      } else if (name !== 'cooperative-sticky' || seed % 2 === 1) {
        // (cooperative withholds moving partitions for one rebalance, so only fresh groups are even)
        expect(
          spread(group.members.map((m) => perMember.get(m.memberId) ?? 0)),
          `${name} seed ${seed}`,
        ).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe('sticky assignors keep what they can', () => {
  it.each(['sticky', 'cooperative-sticky'] as const)(
    '%s: a member at or under its quota keeps all it owned',
    (name) => {
      for (let seed = 1; seed <= 100; seed++) {
        const group = randomGroup(seed, true, true);
        if (group.members.some((m) => m.rackId)) continue; // racks may move partitions for locality
        const { result } = counts(group, name);
        const total = [...group.topics.values()].reduce((s, t) => s + t.partitions, 0);
        const minQuota = Math.floor(total / group.members.length);
        for (const m of group.members) {
          const had = (m.ownedPartitions ?? []).flatMap((t) => t.partitions.map((p) => `${t.topic}-${p}`));
          if (had.length > minQuota) continue;
          const got = result.get(m.memberId)!.partitions.flatMap((t) => t.partitions.map((p) => `${t.topic}-${p}`));
          expect(got, `${name} seed ${seed} ${m.memberId}`).toEqual(expect.arrayContaining(had));
        }
      }
    },
  );
});
