import type { AssignorMember, TopicInfo, TopicPartitions } from '../../../src/consumer/assignors/index.js';
import { encodeCooperativeUserData, encodeStickyUserData } from '../../../src/consumer/assignors/index.js';
import type { OracleMember, OracleTopic } from './oracle.js';

/**
 * Seeded random assignment cases: members (dynamic and static, with and
 * without racks, differing subscriptions, ids that collide in Java's
 * HashMap), topics with uneven partition counts and replica racks, and
 * previous assignments as the sticky assignors see them (in userData for
 * `sticky`, in ownedPartitions/generationId for `cooperative-sticky`),
 * including stale generations, double claims, departed and new members.
 */

export interface Case {
  topics: OracleTopic[];
  members: AssignorMember[];
}

/** mulberry32: small, fast, good enough to pick cases. */
export class Random {
  constructor(private state: number) {}

  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  subset<T>(items: readonly T[], p: number): T[] {
    return items.filter(() => this.chance(p));
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }

  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.int(0, 15)];
    return s;
  }
}

const RACKS = ['rack-a', 'rack-b', 'rack-c'];
// "Aa" and "BB" have the same Java hash, so these all share a HashMap bucket: insertion order decides.
const COLLIDING_IDS = ['AaAa', 'AaBB', 'BBAa', 'BBBB', 'AaAaAa', 'BBBBBB', 'AaBBAa'];

export function memberIds(rng: Random, n: number): string[] {
  const style = rng.int(0, 3);
  const ids = new Set<string>();
  while (ids.size < n) {
    if (style === 0) ids.add(`consumer-${rng.int(1, 40)}-${rng.hex(8)}-${rng.hex(4)}-${rng.hex(12)}`);
    else if (style === 1) ids.add(`c${rng.int(0, 99)}`);
    else if (style === 2 && ids.size < COLLIDING_IDS.length) ids.add(rng.pick(COLLIDING_IDS));
    else ids.add(`m-${rng.hex(rng.int(1, 6))}`);
  }
  return rng.shuffle([...ids]);
}

export function randomTopics(rng: Random, racks: boolean): OracleTopic[] {
  const count = rng.int(1, 5);
  const names = rng.chance(0.7)
    ? ['t0', 't1', 't2', 't3', 't4'].slice(0, count)
    : rng.shuffle(['orders', 'payments', 'orders-v2', 'Aa', 'BB', 'clicks.raw', 'z']).slice(0, count);
  const allOnAllRacks = rng.chance(0.15);
  // Sometimes every topic has the same count: range then co-partitions them.
  const shared = rng.chance(0.25) ? rng.int(1, 16) : undefined;
  return names.map((name) => {
    const partitions = shared ?? (rng.chance(0.1) ? 1 : rng.int(1, 32));
    if (!racks || rng.chance(0.1)) return { name, partitions, racks: null };
    const replicaRacks: Array<Array<string | null>> = [];
    for (let p = 0; p < partitions; p++) {
      if (allOnAllRacks) replicaRacks.push([...RACKS]);
      else {
        const replicas: Array<string | null> = [];
        const n = rng.int(1, 3);
        for (let i = 0; i < n; i++) replicas.push(rng.chance(0.05) ? null : rng.pick(RACKS));
        replicaRacks.push(replicas);
      }
    }
    return { name, partitions, racks: replicaRacks };
  });
}

export function randomSubscriptions(rng: Random, n: number, topics: string[], differing = false): string[][] {
  if (!differing && rng.chance(0.5)) {
    const common = rng.chance(0.7) ? topics : nonEmpty(rng, topics);
    return Array.from({ length: n }, () => rng.shuffle([...common]));
  }
  return Array.from({ length: n }, () => {
    if (rng.chance(0.03)) return []; // a pattern subscription matching nothing
    const subscribed = nonEmpty(rng, topics);
    if (rng.chance(0.05)) subscribed.push('not-in-metadata');
    return subscribed;
  });
}

function nonEmpty(rng: Random, topics: string[]): string[] {
  const s = rng.subset(topics, 0.6);
  return s.length > 0 ? s : [rng.pick(topics)];
}

/** Partitions owned in a previous round: a plausible spread, or (sometimes) contradictory claims. */
function previousOwnership(rng: Random, owners: string[], topics: OracleTopic[]): Map<string, Array<[string, number]>> {
  const owned = new Map<string, Array<[string, number]>>(owners.map((o) => [o, []]));
  if (owners.length === 0) return owned;
  const mode = rng.next();
  const chaos = mode < 0.2;
  const skewed = mode > 0.8; // one member held most of it: balancing has much to move
  let next = rng.int(0, owners.length - 1);
  for (const t of topics) {
    for (let p = 0; p < t.partitions; p++) {
      if (rng.chance(0.15)) continue; // nobody owned it
      const owner =
        chaos || (skewed && rng.chance(0.3)) ? rng.pick(owners) : skewed ? owners[0] : owners[next++ % owners.length];
      owned.get(owner)!.push([t.name, p]);
      if (chaos && rng.chance(0.2)) owned.get(rng.pick(owners))!.push([t.name, p]); // claimed twice
    }
  }
  if (rng.chance(0.05)) owned.get(rng.pick(owners))!.push([topics[0].name, topics[0].partitions + 3]); // a partition id past the end
  if (rng.chance(0.1)) owned.get(rng.pick(owners))!.push(['deleted-topic', 0]);
  return owned;
}

export function grouped(tps: ReadonlyArray<readonly [string, number]>): TopicPartitions[] {
  const m = new Map<string, number[]>();
  for (const [t, p] of tps) m.set(t, [...(m.get(t) ?? []), p]);
  return [...m].map(([topic, partitions]) => ({ topic, partitions }));
}

/**
 * A random case for one assignor; `general` makes subscriptions differ (the
 * sticky assignors' general algorithm) in groups of at least three.
 */
export function randomCase(rng: Random, assignor: string, general = false): Case {
  const racksOn = rng.chance(0.4);
  const topics = randomTopics(rng, racksOn);
  const n = rng.chance(0.15) ? rng.int(8, 12) : rng.int(general ? 3 : 1, 8);
  const ids = memberIds(rng, n + 2);
  const current = ids.slice(0, n);
  // Previous owners: most current members, some departed ones, not the newest joiners.
  const owners = [...current.filter(() => rng.chance(0.8)), ...ids.slice(n).filter(() => rng.chance(0.5))];
  const owned = previousOwnership(rng, owners, topics);
  const subscriptions = randomSubscriptions(
    rng,
    n,
    topics.map((t) => t.name),
    general,
  );
  const generation = rng.int(1, 20);
  const usedInstanceIds = new Set<string>();

  const members = current.map((memberId, i): AssignorMember => {
    let groupInstanceId: string | null = null;
    if (rng.chance(0.3)) {
      do groupInstanceId = `instance-${rng.int(0, 30)}`;
      while (usedInstanceIds.has(groupInstanceId));
      usedInstanceIds.add(groupInstanceId);
    }
    const rackId = racksOn && rng.chance(0.85) ? (rng.chance(0.05) ? 'rack-z' : rng.pick(RACKS)) : null;
    let mine = owned.get(memberId) ?? [];
    // A cooperative member revokes the partitions of topics it unsubscribed from before rejoining;
    // now and then one has not (an older client, a race), to exercise that path too.
    if (assignor === 'cooperative-sticky' && rng.chance(0.85))
      mine = mine.filter(([t]) => subscriptions[i].includes(t));
    const gen = rng.chance(0.7) ? generation : rng.chance(0.5) ? generation - 1 : -1;
    return { memberId, groupInstanceId, rackId, topics: subscriptions[i], ...previous(rng, assignor, mine, gen) };
  });
  return { topics, members };
}

/** How the member reports its previous assignment, in the ways its assignor (or an older client) would. */
function previous(
  rng: Random,
  assignor: string,
  mine: Array<[string, number]>,
  gen: number,
): Pick<AssignorMember, 'ownedPartitions' | 'generationId' | 'userData'> {
  const partitions = mine.map(([topic, partition]) => ({ topic, partition }));
  if (assignor === 'sticky') {
    const v1 = encodeStickyUserData({ partitions, generation: gen });
    const r = rng.next();
    const userData =
      r < 0.65
        ? v1
        : r < 0.75
          ? v1.subarray(0, v1.length - 4) // V0: no generation
          : r < 0.85
            ? null
            : r < 0.92
              ? Buffer.from(rng.hex(6), 'hex') // unreadable
              : Buffer.alloc(0);
    return {
      ownedPartitions: rng.chance(0.2) ? grouped(mine) : [],
      generationId: rng.chance(0.5) ? gen : -1,
      userData,
    };
  }
  if (assignor === 'cooperative-sticky' && rng.chance(0.3)) {
    // a subscription without generationId (v0/v1): the generation comes from userData
    const r = rng.next();
    const userData = r < 0.6 ? encodeCooperativeUserData(gen) : r < 0.8 ? null : Buffer.from([1, 2]);
    return { ownedPartitions: grouped(mine), generationId: -1, userData };
  }
  return {
    ownedPartitions: grouped(mine),
    generationId: gen,
    userData: assignor === 'cooperative-sticky' ? encodeCooperativeUserData(gen) : null,
  };
}

export function toOracleMembers(members: readonly AssignorMember[]): OracleMember[] {
  return members.map((m) => ({
    memberId: m.memberId,
    groupInstanceId: m.groupInstanceId ?? null,
    rackId: m.rackId ?? null,
    topics: [...m.topics],
    owned: (m.ownedPartitions ?? []).flatMap((t) => t.partitions.map((p): [string, number] => [t.topic, p])),
    generationId: m.generationId ?? -1,
    userData: m.userData == null ? null : Buffer.from(m.userData).toString('base64'),
  }));
}

export function toTopicInfo(topics: readonly OracleTopic[]): Map<string, TopicInfo> {
  return new Map(
    topics.map((t) => [
      t.name,
      t.racks === null ? { partitions: t.partitions } : { partitions: t.partitions, partitionRacks: t.racks },
    ]),
  );
}
