import type { GroupTransport } from '../coordinator-link.js';
import { type SubscriptionResolver, sameTopics } from '../subscription-resolver.js';

/**
 * What can make a stable classic group need a new assignment without any member coming or going: a new topic
 * matching a member's pattern, or (noticed by the leader) a subscribed topic that gained partitions or appeared.
 * Checked every `intervalMs` (Java: metadata.max.age.ms).
 */
export class MetadataWatch {
  private lastCheck = Date.now();
  private subscribed: readonly string[] = [];
  private snapshot: ReadonlyMap<string, number> | undefined;

  constructor(
    private readonly transport: GroupTransport,
    private readonly intervalMs: number,
  ) {}

  /** After a rebalance: the topics the member joined with; for the leader, the counts its assignment used. */
  reset(subscribed: readonly string[], snapshot: ReadonlyMap<string, number> | undefined): void {
    this.subscribed = subscribed;
    this.snapshot = snapshot;
    this.lastCheck = Date.now();
  }

  msUntilDue(): number {
    return Math.max(0, this.lastCheck + this.intervalMs - Date.now());
  }

  /** Why the group needs a rebalance, or undefined. A failed lookup is tried again at the next check. */
  async check(resolver: SubscriptionResolver): Promise<string | undefined> {
    this.lastCheck = Date.now();
    const counted = this.snapshot === undefined ? [] : [...this.snapshot.keys()];
    if (!resolver.isPattern && counted.length === 0) return undefined;
    try {
      const md = await this.transport.metadata({ topics: resolver.isPattern ? null : counted });
      if (resolver.isPattern && !sameTopics(resolver.match(md), this.subscribed)) {
        return 'the topics matching the subscription changed';
      }
      for (const [topic, count] of this.snapshot ?? []) {
        const t = md.topics.get(topic);
        const now = t === undefined || t.error !== undefined ? 0 : t.partitions.length;
        if (now !== count) return `the partition count of ${topic} changed from ${count} to ${now}`;
      }
    } catch {
      // Metadata will be asked for again at the next check.
    }
    return undefined;
  }
}
