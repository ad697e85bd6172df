import type { ClusterMetadata, MetadataQuery } from '../../cluster/metadata.js';
import type { Subscription } from './membership.js';

/**
 * Turns a subscription into topic names. A pattern subscribes to every non-internal topic whose whole name
 * matches (Java's `Pattern.matcher(topic).matches()`), looked up in metadata of every topic; the resolved
 * list is what JoinGroup / ConsumerGroupHeartbeat carry, so it is re-resolved from time to time to notice new
 * topics.
 */
export class SubscriptionResolver {
  private readonly whole: RegExp | undefined;

  constructor(
    readonly subscription: Subscription,
    private readonly metadata: (query?: MetadataQuery) => Promise<ClusterMetadata>,
  ) {
    const p = subscription.pattern;
    // Anchored, and without g / y, whose lastIndex would make test() stateful.
    this.whole = p === undefined ? undefined : new RegExp(`^(?:${p.source})$`, p.flags.replace(/[gy]/g, ''));
  }

  get isPattern(): boolean {
    return this.whole !== undefined;
  }

  /** The subscribed topic names, sorted. */
  async topics(): Promise<string[]> {
    if (this.whole === undefined) return [...new Set(this.subscription.topics ?? [])].sort();
    const md = await this.metadata({ topics: null });
    return this.match(md);
  }

  /** The topics of `md` the pattern matches (for a topic list: the list). */
  match(md: ClusterMetadata): string[] {
    const re = this.whole;
    if (re === undefined) return [...new Set(this.subscription.topics ?? [])].sort();
    const names: string[] = [];
    for (const t of md.topics.values())
      if (!t.isInternal && t.error === undefined && re.test(t.name)) names.push(t.name);
    return names.sort();
  }
}

export function sameTopics(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}
