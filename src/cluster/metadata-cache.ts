import type { BrokerInfo, ClusterMetadata, TopicMetadata } from './metadata.js';
import { topicOrThrow } from './metadata.js';

export const DEFAULT_METADATA_MAX_AGE_MS = 5 * 60_000;

/** Topic names to ask for; `null` means every topic. */
type TopicSet = Set<string> | null;

interface Refresh {
  topics: TopicSet;
  promise: Promise<ClusterMetadata>;
  start: () => void;
}

/**
 * The client's picture of the cluster: brokers, controller, and the topics it has looked up.
 *
 * Refreshes are coalesced: one Metadata request is in flight at a time. A caller whose topics that request
 * covers shares its answer; the others are merged into a single follow-up request that starts when it ends.
 * Topics are refreshed on demand: when first used, when older than `maxAgeMs`, or after `invalidate` (which
 * callers use when a broker says leadership moved).
 */
export class MetadataCache {
  private view: ClusterMetadata | undefined;
  private readonly fetchedAt = new Map<string, number>();
  private readonly stale = new Set<string>();
  private current: Refresh | undefined;
  private next: Refresh | undefined;

  constructor(
    private readonly fetch: (topics: string[] | null) => Promise<ClusterMetadata>,
    private readonly maxAgeMs = DEFAULT_METADATA_MAX_AGE_MS,
  ) {}

  /** What is known now: the latest brokers and every topic looked up without error. */
  get metadata(): ClusterMetadata | undefined {
    return this.view;
  }

  broker(nodeId: number): BrokerInfo | undefined {
    return this.view?.brokers.get(nodeId);
  }

  /**
   * Fetches metadata for `topics` (every topic for `null`; only brokers for `[]`) and merges it into the cache.
   * Resolves with the response it got, which may cover more topics than asked for.
   */
  refresh(topics: readonly string[] | null = null): Promise<ClusterMetadata> {
    const wanted: TopicSet = topics === null ? null : new Set(topics);
    if (this.current !== undefined && covers(this.current.topics, wanted)) return this.current.promise;
    if (this.current === undefined) {
      this.current = this.newRefresh(wanted);
      this.current.start();
      return this.current.promise;
    }
    if (this.next === undefined) this.next = this.newRefresh(wanted);
    else if (this.next.topics !== null) {
      if (wanted === null) this.next.topics = null;
      else for (const t of wanted) this.next.topics.add(t);
    }
    return this.next.promise;
  }

  /** A topic's metadata, from the cache when fresh, else refreshed. Throws its typed error if it has one. */
  async topic(name: string): Promise<TopicMetadata> {
    const cached = this.view?.topics.get(name);
    const age = Date.now() - (this.fetchedAt.get(name) ?? 0);
    if (cached !== undefined && !this.stale.has(name) && age < this.maxAgeMs) return cached;
    return topicOrThrow(await this.refresh([name]), name);
  }

  /** Marks one topic, or every topic, as needing a refresh before its next use. */
  invalidate(topic?: string): void {
    if (topic !== undefined) this.stale.add(topic);
    else for (const name of this.fetchedAt.keys()) this.stale.add(name);
  }

  private newRefresh(topics: TopicSet): Refresh {
    let resolve!: (md: ClusterMetadata) => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<ClusterMetadata>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const refresh: Refresh = {
      topics,
      promise,
      start: () => {
        const asked = refresh.topics;
        this.fetch(asked === null ? null : [...asked]).then(
          (md) => {
            this.merge(md, asked);
            this.finish(refresh);
            resolve(md);
          },
          (err: unknown) => {
            this.finish(refresh);
            reject(err);
          },
        );
      },
    };
    return refresh;
  }

  /** Retires a refresh as it settles, so later callers never join one that has already answered. */
  private finish(refresh: Refresh): void {
    if (this.current !== refresh) return;
    this.current = this.next;
    this.next = undefined;
    this.current?.start();
  }

  private merge(md: ClusterMetadata, asked: TopicSet): void {
    const now = Date.now();
    const topics = asked === null ? new Map<string, TopicMetadata>() : new Map(this.view?.topics);
    if (asked === null) {
      this.fetchedAt.clear();
      this.stale.clear();
    }
    for (const name of asked ?? md.topics.keys()) {
      const topic = md.topics.get(name);
      this.stale.delete(name);
      if (topic === undefined || topic.error !== undefined) {
        topics.delete(name);
        this.fetchedAt.delete(name);
      } else {
        topics.set(name, topic);
        this.fetchedAt.set(name, now);
      }
    }
    this.view = { ...md, topics };
  }
}

function covers(inFlight: TopicSet, wanted: TopicSet): boolean {
  if (inFlight === null) return true;
  if (wanted === null) return false;
  for (const t of wanted) if (!inFlight.has(t)) return false;
  return true;
}
