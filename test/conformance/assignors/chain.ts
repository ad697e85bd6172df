import {
  type AssignorMember,
  type BuiltInAssignorName,
  createAssignor,
  type PartitionAssignor,
  type TopicPartitions,
} from '../../../src/consumer/assignors/index.js';
import { type Flat, toGrouped } from './check.js';
import { type Case, memberIds, type Random, randomSubscriptions, randomTopics } from './generate.js';
import type { OracleTopic } from './oracle.js';

/**
 * A consumer group over successive rebalances: each member keeps its own
 * client-side assignor (whose userData carries its last assignment and
 * generation, as a Java consumer's does), reports what it owns, and takes
 * the leader's answer as its new ownership. Between rebalances members join,
 * leave, change subscriptions, or partitions are added.
 */

interface SimMember {
  memberId: string;
  groupInstanceId: string | null;
  rackId: string | null;
  topics: string[];
  client: PartitionAssignor;
  owned: TopicPartitions[];
  /** Generation of the last assignment; -1 before the first. */
  generation: number;
}

export class GroupSimulation {
  readonly topics: OracleTopic[];
  private members: SimMember[] = [];
  private generation = 0;
  private readonly spareIds: string[];
  private readonly racks: boolean;
  /** Every member subscribes to every topic (the sticky assignors' constrained path). */
  readonly uniform: boolean;

  constructor(
    private readonly rng: Random,
    private readonly assignor: BuiltInAssignorName,
  ) {
    this.racks = rng.chance(0.35);
    this.uniform = rng.chance(0.5);
    this.topics = randomTopics(rng, this.racks);
    this.spareIds = memberIds(rng, 24);
    this.join(rng.int(1, 6));
  }

  get size(): number {
    return this.members.length;
  }

  /** The subscriptions for the next rebalance, in JoinGroup order. */
  subscriptions(): Case {
    const members = this.members.map((m): AssignorMember => {
      const base = { memberId: m.memberId, groupInstanceId: m.groupInstanceId, rackId: m.rackId, topics: m.topics };
      const userData = m.client.subscriptionUserData?.(new Set(m.topics)) ?? null;
      // Eager members revoke everything before rejoining; cooperative ones keep and report it.
      const ownedPartitions = this.assignor === 'sticky' ? [] : m.owned;
      return { ...base, ownedPartitions, generationId: m.generation, userData };
    });
    return { topics: this.topics.map((t) => ({ ...t })), members };
  }

  /** Every member takes its share as its ownership; the group moves to a new generation. */
  apply(result: Flat): void {
    this.generation++;
    for (const m of this.members) {
      m.owned = toGrouped(result[m.memberId] ?? []);
      m.client.onAssignment?.({ partitions: m.owned }, { generationId: this.generation, memberId: m.memberId });
      m.generation = this.generation;
    }
  }

  /** One random change to the group or its topics; returns what it did. */
  change(): string {
    const r = this.rng.next();
    if (r < 0.3 || this.members.length === 0) return `join ${this.join(this.rng.int(1, 2))}`;
    if (r < 0.5 && this.members.length > 1) {
      const gone = this.members.splice(this.rng.int(0, this.members.length - 1), 1)[0];
      return `leave ${gone.memberId}`;
    }
    if (r < 0.65 && !this.uniform) {
      const m = this.rng.pick(this.members);
      m.topics = randomSubscriptions(
        this.rng,
        1,
        this.topics.map((t) => t.name),
      )[0];
      return `resubscribe ${m.memberId}`;
    }
    if (r < 0.75) {
      const t = this.rng.pick(this.topics);
      const added = this.rng.int(1, 4);
      for (let i = 0; i < added; i++) t.racks?.push([this.rng.pick(['rack-a', 'rack-b', 'rack-c'])]);
      t.partitions += added;
      return `grow ${t.name}`;
    }
    if (r < 0.85) {
      // a static member restarts: same instance id, new member id, nothing owned
      const m = this.rng.pick(this.members);
      const id = this.spareIds.pop();
      if (id === undefined || m.groupInstanceId === null) return 'nothing';
      Object.assign(m, { memberId: id, owned: [], generation: -1, client: createAssignor(this.assignor) });
      return `restart ${m.groupInstanceId}`;
    }
    this.rng.shuffle(this.members); // the coordinator lists members in another order
    return 'reorder';
  }

  /** Whether any member has a rack (rack-aware assignment may then move partitions for locality). */
  get hasRacks(): boolean {
    return this.members.some((m) => m.rackId !== null);
  }

  private join(n: number): string {
    const names = this.topics.map((t) => t.name);
    const subscriptions = randomSubscriptions(this.rng, n, names);
    const joined: string[] = [];
    for (let i = 0; i < n; i++) {
      const memberId = this.spareIds.pop();
      if (memberId === undefined) break;
      this.members.push({
        memberId,
        groupInstanceId: this.rng.chance(0.3) ? `instance-${memberId}` : null,
        rackId: this.racks && this.rng.chance(0.8) ? this.rng.pick(['rack-a', 'rack-b', 'rack-c']) : null,
        topics: this.uniform ? names : subscriptions[i],
        client: createAssignor(this.assignor),
        owned: [],
        generation: -1,
      });
      joined.push(memberId);
    }
    return joined.join(',');
  }
}
