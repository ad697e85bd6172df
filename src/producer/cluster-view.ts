import { ErrorCode } from '../../protocol/error-codes.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import type { Cluster } from '../cluster/cluster.js';
import type { TopicMetadata } from '../cluster/metadata.js';
import type { Connection } from '../network/connection.js';

/** What the producer needs of a connection; `Connection` is one, a test's fake broker another. */
export type ProduceConnection = Pick<Connection, 'request' | 'versionFor' | 'isClosed'>;

/** What the producer needs of the cluster: a narrow view, so the sender's logic can be tested without a broker. */
export interface ProducerCluster {
  /** The topic's metadata: cached while fresh, else fetched; throws the topic's typed error. */
  topicMetadata(topic: string): Promise<TopicMetadata>;
  connectionTo(nodeId: number): Promise<ProduceConnection>;
  anyConnection(): Promise<ProduceConnection>;
  /** Tells the metadata cache that what it says about `topic` (or every topic) led to an error. */
  noteError(err: unknown, topic?: string): void;
}

export function producerClusterOf(cluster: Cluster): ProducerCluster {
  return {
    topicMetadata: (topic) => cluster.metadataCache.topic(topic),
    connectionTo: (nodeId) => cluster.connectionTo(nodeId),
    anyConnection: () => cluster.anyConnection(),
    noteError: (err, topic) => cluster.noteError(err, topic),
  };
}

/** How often a topic in use is checked against the cluster's cache (which refetches only when stale or old). */
const RECHECK_MS = 5_000;
/** Pause after a failed refresh before the next, so a broker outage does not become a request storm. */
const FAILED_REFRESH_BACKOFF_MS = 250;

interface Entry {
  metadata: TopicMetadata;
  checkedAt: number;
}

/**
 * The producer's synchronous view of the topics it writes to: `send()` and the sender read partition counts and
 * leaders here without awaiting anything. Refreshes run in the background, one per topic at a time, and call
 * `onUpdate` so that batches held back for a leader can go.
 */
export class TopicView {
  private readonly topics = new Map<string, Entry>();
  private readonly refreshing = new Map<string, Promise<TopicMetadata>>();
  /** Topics whose last refresh failed, and when they may be tried again. */
  private readonly failedUntil = new Map<string, number>();
  /** Topics refetched for a missing leader, and when the next such refetch may start. */
  private readonly leaderRefetchAfter = new Map<string, number>();
  /** Topics with a refetch for a missing leader scheduled (it wakes the sender, which asks again). */
  private readonly leaderRefetchTimers = new Set<string>();

  constructor(
    private readonly cluster: ProducerCluster,
    private readonly onUpdate: () => void,
    /** Least time between two refetches of a topic for a missing leader (the producer's retryBackoffMs). */
    private readonly leaderRefetchBackoffMs = 100,
  ) {}

  /** The topic's metadata if known; starts a background recheck when the last one is old (`now`: the caller's clock). */
  get(topic: string, now = Date.now()): TopicMetadata | undefined {
    const entry = this.topics.get(topic);
    if (entry !== undefined && now - entry.checkedAt > RECHECK_MS) this.refreshInBackground(topic);
    return entry?.metadata;
  }

  /** The topic's metadata, fetched if not known. */
  load(topic: string): Promise<TopicMetadata> {
    const known = this.topics.get(topic);
    return known === undefined ? this.refresh(topic) : Promise.resolve(known.metadata);
  }

  /** Node id of the partition's leader; -1 while unknown. */
  leaderOf(topic: string, partition: number): number {
    return this.get(topic)?.partitions[partition]?.leader ?? -1;
  }

  topicId(topic: string): string | undefined {
    return this.topics.get(topic)?.metadata.topicId;
  }

  /** A request about `topic` failed in a way that may mean stale leadership: refetch it. */
  markStale(topic: string, err: unknown): void {
    this.cluster.noteError(err, topic);
    this.refreshInBackground(topic);
  }

  /** A broker connection failed: every topic's leaders are suspect. */
  markAllStale(err: unknown): void {
    this.cluster.noteError(err);
    for (const topic of this.topics.keys()) this.refreshInBackground(topic);
  }

  /**
   * A partition of `topic` holds batches and the metadata names no leader for it (an election, or a garbled
   * answer whose leader id came out negative). The cluster's cache would serve that answer again until its max
   * age, minutes, so it is told the topic is stale and the topic is fetched anew: Java's `requestUpdate()` for
   * unknown leaders. At most once per backoff per topic; a refetch due later wakes the sender when it is due.
   */
  leaderUnknown(topic: string): void {
    if (this.refreshing.has(topic) || this.leaderRefetchTimers.has(topic)) return;
    const waitMs = (this.leaderRefetchAfter.get(topic) ?? 0) - Date.now();
    if (waitMs > 0) {
      this.leaderRefetchTimers.add(topic);
      setTimeout(() => {
        this.leaderRefetchTimers.delete(topic);
        this.onUpdate();
      }, waitMs).unref();
      return;
    }
    this.leaderRefetchAfter.set(topic, Date.now() + this.leaderRefetchBackoffMs);
    this.cluster.noteError(kafkaError(ErrorCode.LEADER_NOT_AVAILABLE, { context: { api: 'Metadata', topic } }), topic);
    this.refreshInBackground(topic);
  }

  refreshInBackground(topic: string): void {
    // One under way already: get() asks on every send() while a recheck is out, and a `.catch` per ask was a
    // promise and a reaction per record for as long as the Metadata request took.
    if (this.refreshing.has(topic) || (this.failedUntil.get(topic) ?? 0) > Date.now()) return;
    // The next use retries; send() and the sender report the error when it matters.
    this.refresh(topic).catch(ignore);
  }

  private refresh(topic: string): Promise<TopicMetadata> {
    let pending = this.refreshing.get(topic);
    if (pending !== undefined) return pending;
    pending = this.cluster
      .topicMetadata(topic)
      .then(
        (metadata) => {
          this.topics.set(topic, { metadata, checkedAt: Date.now() });
          this.failedUntil.delete(topic);
          return metadata;
        },
        (err: unknown) => {
          this.failedUntil.set(topic, Date.now() + FAILED_REFRESH_BACKOFF_MS);
          // Wake the sender again once the pause is over, so held batches get another chance at a leader.
          setTimeout(this.onUpdate, FAILED_REFRESH_BACKOFF_MS);
          throw err;
        },
      )
      .finally(() => {
        this.refreshing.delete(topic);
        this.onUpdate();
      });
    this.refreshing.set(topic, pending);
    return pending;
  }
}

function ignore(): void {}
