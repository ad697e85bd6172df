import { groupByTopic } from '../../cluster/group-by.js';
import { AssignorError, type AssignorMember, type GroupAssignment, type TopicInfo } from './assignor.js';
import { javaHashOrder, javaStringHash, topicPartitionHash } from './java-hash.js';

/**
 * What the built-in assignors share: the leader's view of the input, shaped
 * as Kafka's `AbstractPartitionAssignor` shapes it before any assignor runs.
 */

/** A topic-partition, interned per assignment run so that `===` is equality (as `equals` is in Java). */
export class TP {
  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly hash: number,
  ) {}

  toString(): string {
    return `${this.topic}-${this.partition}`;
  }
}

export class TPCache {
  private readonly byTopic = new Map<string, Map<number, TP>>();

  get(topic: string, partition: number): TP {
    let m = this.byTopic.get(topic);
    if (m === undefined) {
      m = new Map();
      this.byTopic.set(topic, m);
    }
    let tp = m.get(partition);
    if (tp === undefined) {
      tp = new TP(topic, partition, topicPartitionHash(topic, partition));
      m.set(partition, tp);
    }
    return tp;
  }
}

/** A member's subscription as Java's `Subscription` holds it after ConsumerProtocol decoding. */
export interface Subscription {
  memberId: string;
  groupInstanceId: string | undefined;
  /** Absent for no rack and for the empty string, as ConsumerProtocol decodes it. */
  rackId: string | undefined;
  topics: readonly string[];
  userData: Uint8Array | null;
  ownedPartitions: TP[];
  /** Absent when the member sent a negative generation. */
  generationId: number | undefined;
}

/** A subscribed topic that metadata knows, with at least one partition. */
export interface TopicPartitionsInfo {
  count: number;
  /** Per partition, the distinct racks of its replicas (empty when unknown). */
  racks: ReadonlyArray<ReadonlySet<string>>;
}

export interface AssignmentInput {
  tps: TPCache;
  /** In the order Java iterates the leader's `HashMap<memberId, Subscription>`. */
  subscriptions: Subscription[];
  byId: Map<string, Subscription>;
  /** Only topics some member subscribes to, with metadata and partitions (Java's `partitionsPerTopic`). */
  partitionsPerTopic: Map<string, TopicPartitionsInfo>;
}

/**
 * Java's leader puts the JoinGroup members into a HashMap in response order;
 * every assignor then walks that map. A repeated member id keeps its first
 * place and its last subscription, as `HashMap.put` does.
 */
export function prepareInput(
  members: readonly AssignorMember[],
  topics: ReadonlyMap<string, TopicInfo>,
): AssignmentInput {
  const tps = new TPCache();
  const latest = new Map<string, AssignorMember>();
  for (const m of members) latest.set(m.memberId, m);
  const order = javaHashOrder(
    members.map((m) => m.memberId),
    javaStringHash,
  );
  const subscriptions = order.map((id) => toSubscription(latest.get(id)!, tps));
  const byId = new Map(subscriptions.map((s) => [s.memberId, s]));

  const partitionsPerTopic = new Map<string, TopicPartitionsInfo>();
  for (const s of subscriptions) {
    for (const topic of s.topics) {
      if (partitionsPerTopic.has(topic)) continue;
      const info = topics.get(topic);
      if (info === undefined || !(info.partitions > 0)) continue; // Java skips topics without metadata
      const racks: Set<string>[] = [];
      for (let p = 0; p < info.partitions; p++) {
        const replicaRacks = info.partitionRacks?.[p] ?? [];
        racks.push(new Set(replicaRacks.filter((r): r is string => typeof r === 'string')));
      }
      partitionsPerTopic.set(topic, { count: info.partitions, racks });
    }
  }
  return { tps, subscriptions, byId, partitionsPerTopic };
}

function toSubscription(m: AssignorMember, tps: TPCache): Subscription {
  const owned: TP[] = [];
  for (const tp of m.ownedPartitions ?? []) for (const p of tp.partitions) owned.push(tps.get(tp.topic, p));
  const generation = m.generationId ?? -1;
  return {
    memberId: m.memberId,
    groupInstanceId: m.groupInstanceId ?? undefined,
    rackId: m.rackId === null || m.rackId === undefined || m.rackId === '' ? undefined : m.rackId,
    topics: m.topics,
    userData: m.userData ?? null,
    ownedPartitions: owned,
    generationId: generation < 0 ? undefined : generation,
  };
}

/** Java's `String.compareTo`: by UTF-16 code units, which is also how JavaScript compares strings. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `AbstractPartitionAssignor.MemberInfo.compareTo`: static members first, by
 * group instance id (so their order survives restarts), then dynamic members
 * by member id.
 */
export function compareMembers(
  a: { memberId: string; groupInstanceId: string | undefined },
  b: { memberId: string; groupInstanceId: string | undefined },
): number {
  if (a.groupInstanceId !== undefined && b.groupInstanceId !== undefined) {
    return compareStrings(a.groupInstanceId, b.groupInstanceId);
  }
  if (a.groupInstanceId !== undefined) return -1;
  if (b.groupInstanceId !== undefined) return 1;
  return compareStrings(a.memberId, b.memberId);
}

/**
 * `AbstractPartitionAssignor.useRackAwareAssignment` (KIP-881): only when
 * some consumer rack is also a replica rack, and not when every partition has
 * replicas on exactly all racks (rack awareness could then change nothing).
 */
export function useRackAwareAssignment(
  consumerRacks: ReadonlySet<string>,
  partitionRacks: ReadonlySet<string>,
  racksPerPartition: Iterable<ReadonlySet<string>>,
): boolean {
  if (consumerRacks.size === 0) return false;
  let disjoint = true;
  for (const r of consumerRacks) if (partitionRacks.has(r)) disjoint = false;
  if (disjoint) return false;
  for (const racks of racksPerPartition) if (!sameSet(racks, partitionRacks)) return true;
  return false;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** A map lookup that must hit: where Java would dereference null (a NullPointerException), fail alike. */
export function mustGet<K, V>(map: ReadonlyMap<K, V>, key: K | undefined): V {
  const v = key === undefined ? undefined : map.get(key);
  if (v === undefined) throw new AssignorError('sticky', `inconsistent input: no entry for ${String(key)}`);
  return v;
}

/** `List.remove(Object)`: drops the first occurrence only. */
export function removeFirst<T>(list: T[], item: T): boolean {
  const i = list.indexOf(item);
  if (i < 0) return false;
  list.splice(i, 1);
  return true;
}

/** `List.removeAll(Collection)` in place, so that other holders of the same list see it (Java code relies on that). */
export function removeAllInPlace<T>(list: T[], drop: ReadonlySet<T>): void {
  let w = 0;
  for (const x of list) if (!drop.has(x)) list[w++] = x;
  list.length = w;
}

/** Raw per-member partition lists to the public shape: grouped by topic, topics by name, partitions ascending. */
export function toGroupAssignment(
  members: Iterable<string>,
  raw: ReadonlyMap<string, readonly { topic: string; partition: number }[]>,
): GroupAssignment {
  const out: GroupAssignment = new Map();
  for (const id of members) out.set(id, { partitions: groupByTopic(raw.get(id) ?? []) });
  return out;
}
