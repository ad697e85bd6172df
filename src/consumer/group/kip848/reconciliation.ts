import type { TopicPartition } from '../../../cluster/partition-errors.js';
import { sortPartitions } from '../topic-partitions.js';

/** The partitions of one topic, by topic id, as ConsumerGroupHeartbeat carries them. */
export interface IdPartitions {
  topicId: string;
  partitions: number[];
}

/** A KIP-848 member's partitions, by topic id (what heartbeats report) with each id's name (what the app sees). */
export class OwnedByTopicId {
  private readonly topics = new Map<string, { name: string; partitions: Set<number> }>();

  add(topicId: string, name: string, partition: number): void {
    let t = this.topics.get(topicId);
    if (t === undefined) {
      t = { name, partitions: new Set() };
      this.topics.set(topicId, t);
    }
    t.partitions.add(partition);
  }

  remove(list: readonly TopicPartition[]): void {
    const drop = new Set(list.map((tp) => `${tp.topic}\u0000${tp.partition}`));
    for (const [id, t] of this.topics) {
      for (const p of t.partitions) if (drop.has(`${t.name}\u0000${p}`)) t.partitions.delete(p);
      if (t.partitions.size === 0) this.topics.delete(id);
    }
  }

  nameOf(topicId: string): string | undefined {
    return this.topics.get(topicId)?.name;
  }

  clear(): void {
    this.topics.clear();
  }

  /** For the heartbeat: topic ids in order, partitions ascending. */
  toRequest(): IdPartitions[] {
    return [...this.topics]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([topicId, t]) => ({ topicId, partitions: [...t.partitions].sort((a, b) => a - b) }));
  }

  byName(): TopicPartition[] {
    const out: TopicPartition[] = [];
    for (const t of this.topics.values()) for (const partition of t.partitions) out.push({ topic: t.name, partition });
    return sortPartitions(out);
  }
}

export interface ReconciliationPlan {
  /** Owned and not in the target: revoked first (onRevoked, awaited), then acknowledged. */
  revoked: TopicPartition[];
  /** In the target and not owned: assigned after the revocation (onAssigned, awaited). */
  added: Array<TopicPartition & { topicId: string }>;
  /** Target topic ids metadata does not name yet; reconciled once it does. */
  unresolved: string[];
}

/**
 * What a member must do to reach the coordinator's target assignment (Java's ConsumerMembershipManager
 * reconciliation): revoke what it owns outside the target, then take what is new. A partition of an unresolved
 * topic id is neither revoked nor added until its name is known.
 */
export function planReconciliation(
  owned: OwnedByTopicId,
  target: readonly IdPartitions[],
  names: ReadonlyMap<string, string>,
): ReconciliationPlan {
  const unresolved: string[] = [];
  const wanted = new Map<string, { topicId: string; topic: string; partition: number }>();
  for (const t of target) {
    const topic = names.get(t.topicId) ?? owned.nameOf(t.topicId);
    if (topic === undefined) {
      unresolved.push(t.topicId);
      continue;
    }
    for (const partition of t.partitions)
      wanted.set(`${topic}\u0000${partition}`, { topicId: t.topicId, topic, partition });
  }
  const have = owned.byName();
  const haveKeys = new Set(have.map((tp) => `${tp.topic}\u0000${tp.partition}`));
  // An unresolved id is not one the member owns (owned ids have names), so everything else may be compared.
  const revoked = have.filter((tp) => !wanted.has(`${tp.topic}\u0000${tp.partition}`));
  const added = [...wanted.entries()].filter(([key]) => !haveKeys.has(key)).map(([, v]) => v);
  added.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
  return { revoked: sortPartitions(revoked), added, unresolved };
}
