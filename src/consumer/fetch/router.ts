import type { ClusterMetadata, TopicMetadata } from '../../cluster/metadata.js';
import type { PartitionState } from '../positions.js';

/** What routing needs of the cluster: topic metadata (cached, coalesced refreshes) and the broker list. */
export interface RoutingMetadata {
  readonly metadata: ClusterMetadata | undefined;
  topic(name: string): Promise<TopicMetadata>;
  invalidate(topic?: string): void;
}

/** Java's retry.backoff.ms (and .max.ms): the least time between two lookups of one topic, doubling on failure. */
const REFRESH_INTERVAL_MS = 100;
const MAX_REFRESH_INTERVAL_MS = 5_000;

export interface Route {
  nodeId: number;
  /** The leader's epoch, sent as currentLeaderEpoch so a stale leader or follower fences the request. */
  leaderEpoch: number;
  topicId: string | undefined;
}

/**
 * Which broker each partition is fetched from: its leader, or the follower the leader named (KIP-392) while
 * that advice holds. Routing reads a local copy of topic metadata synchronously, since it runs before every
 * fetch; a topic is looked up again (through the cluster's coalescing cache) when first seen or after a fetch
 * said its leadership moved.
 */
export class Router {
  private readonly topics = new Map<string, TopicMetadata>();
  private readonly stale = new Set<string>();
  private readonly refreshing = new Set<string>();
  private readonly lastAttempt = new Map<string, number>();
  /** Lookups of a topic that failed in a row (a deleted topic): each waits twice as long as the last. */
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly metadata: RoutingMetadata,
    private readonly onRefreshed: () => void,
    private readonly onRefreshFailed: (topic: string, err: unknown) => void,
  ) {}

  /** The route for a partition, or undefined while its topic's metadata is being looked up. */
  route(state: PartitionState, now: number): Route | undefined {
    const topic = this.topics.get(state.topic);
    // A stale topic waits for its refresh: its cached leader is the one that just failed.
    if (topic === undefined || this.stale.has(state.topic)) {
      this.refresh(state.topic);
      return undefined;
    }
    const p =
      topic.partitions[state.partition]?.partition === state.partition
        ? topic.partitions[state.partition]
        : topic.partitions.find((x) => x.partition === state.partition);
    if (p === undefined || p.leader < 0) {
      this.refresh(state.topic, true);
      return undefined;
    }
    let nodeId = p.leader;
    if (state.preferredReplica >= 0) {
      if (now < state.preferredReplicaUntil && this.metadata.metadata?.brokers.has(state.preferredReplica)) {
        nodeId = state.preferredReplica;
      } else state.preferredReplica = -1;
    }
    return { nodeId, leaderEpoch: p.leaderEpoch, topicId: topic.topicId };
  }

  /** The topic name a Fetch v13+ response means by a topic id. */
  nameOf(topicId: string): string | undefined {
    for (const t of this.topics.values()) if (t.topicId === topicId) return t.name;
    return undefined;
  }

  /** A fetch said leadership moved (or the topic vanished): look the topic up again before its next fetch. */
  invalidate(topic: string): void {
    this.stale.add(topic);
    this.metadata.invalidate(topic);
  }

  /** Forgets topics no longer assigned. */
  retain(topics: ReadonlySet<string>): void {
    for (const name of this.topics.keys()) if (!topics.has(name)) this.topics.delete(name);
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** Looks a topic up, at most once per REFRESH_INTERVAL_MS, so a leaderless partition cannot spin the loop. */
  private refresh(name: string, force = false): void {
    if (this.refreshing.has(name) || this.timers.has(name)) return;
    const interval = Math.min(MAX_REFRESH_INTERVAL_MS, REFRESH_INTERVAL_MS * 2 ** (this.failures.get(name) ?? 0));
    const wait = (this.lastAttempt.get(name) ?? 0) + interval - Date.now();
    if (wait > 0) {
      this.timers.set(
        name,
        setTimeout(() => {
          this.timers.delete(name);
          this.refresh(name, force);
        }, wait),
      );
      return;
    }
    this.lastAttempt.set(name, Date.now());
    if (force) this.metadata.invalidate(name);
    this.refreshing.add(name);
    this.metadata.topic(name).then(
      (t) => {
        this.refreshing.delete(name);
        this.failures.delete(name);
        this.stale.delete(name);
        this.topics.set(name, t);
        this.onRefreshed();
      },
      (err: unknown) => {
        this.refreshing.delete(name);
        this.failures.set(name, (this.failures.get(name) ?? 0) + 1);
        this.onRefreshFailed(name, err);
      },
    );
  }
}
