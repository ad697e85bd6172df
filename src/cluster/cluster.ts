import { ProtocolError, TidemarkError } from '../../codecs/errors.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { isKafkaError, kafkaError } from '../../protocol/kafka-error.js';
import type { Connection } from '../network/connection.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../network/connection-options.js';
import { type BrokerAddress, ConnectionError, formatAddress, RequestTimeoutError } from '../network/errors.js';
import { closeIfTimedOut } from '../network/silent-connection.js';
import { parseBrokerAddress } from './address.js';
import { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF, sleep } from './backoff.js';
import { BrokerPool, type PoolConnectionOptions } from './broker-pool.js';
import { BrokerNotFoundError } from './errors.js';
import {
  type ClusterMetadata,
  fetchMetadata,
  isStaleMetadataCode,
  type MetadataQuery,
  type PartitionMetadata,
} from './metadata.js';
import { MetadataCache } from './metadata-cache.js';

export interface ClusterOptions extends PoolConnectionOptions {
  /** `host:port` strings (or parsed addresses); tried in order until one answers. */
  bootstrap: readonly (string | BrokerAddress)[];
  metadataMaxAgeMs?: number;
  /** Delays between reconnect and retry attempts. */
  backoff?: BackoffOptions;
  /** How long to keep retrying the bootstrap addresses and metadata requests before giving up. */
  retryTimeoutMs?: number;
}

const DEFAULT_RETRY_TIMEOUT_MS = 30_000;

/**
 * The cluster as the client sees it: a pool with one connection per broker, and a metadata cache that knows
 * which broker leads which partition. Every layer above asks here for the connection it needs.
 */
export class Cluster {
  readonly pool: BrokerPool;
  readonly metadataCache: MetadataCache;
  private readonly bootstrap: BrokerAddress[];
  private readonly backoff: BackoffOptions;
  private readonly retryTimeoutMs: number;
  /** Each connection's own bound on a request (ClusterOptions.requestTimeoutMs). */
  private readonly requestTimeoutMs: number;
  private closed = false;
  /** Cuts short any retry wait when the cluster is closed. */
  private readonly closing = new AbortController();

  constructor(options: ClusterOptions) {
    if (options.bootstrap.length === 0) throw new TidemarkError('at least one bootstrap address is needed');
    this.bootstrap = options.bootstrap.map((a) => (typeof a === 'string' ? parseBrokerAddress(a) : { ...a }));
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.retryTimeoutMs = options.retryTimeoutMs ?? options.requestTimeoutMs ?? DEFAULT_RETRY_TIMEOUT_MS;
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const { bootstrap: _b, metadataMaxAgeMs, backoff: _bo, retryTimeoutMs: _r, ...connectionOptions } = options;
    this.pool = new BrokerPool(connectionOptions, this.backoff);
    this.metadataCache = new MetadataCache((topics) => this.fetchFromAnyBroker(topics), metadataMaxAgeMs);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Cluster metadata. Topic names only (or nothing, for every topic) go through the cache and refresh it; a
   * forced version, topic ids or an abort signal send the request directly and leave the cache alone.
   */
  metadata(query: MetadataQuery = {}): Promise<ClusterMetadata> {
    if (query.version === undefined && query.topicIds === undefined && query.signal === undefined) {
      return this.metadataCache.refresh(query.topics ?? null);
    }
    return this.anyConnection().then((connection) => fetchMetadata(connection, query));
  }

  /** The partition's current metadata; refreshed once if it has no leader or is unknown. */
  async partitionMetadata(topic: string, partition: number): Promise<PartitionMetadata> {
    for (let attempt = 0; ; attempt++) {
      const t = await this.metadataCache.topic(topic);
      const p = t.partitions.find((x) => x.partition === partition);
      if (p !== undefined && p.leader >= 0 && p.error === undefined) return p;
      if (attempt > 0) {
        if (p === undefined) {
          throw kafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, { context: { api: 'Metadata', topic, partition } });
        }
        throw p.error ?? kafkaError(ErrorCode.LEADER_NOT_AVAILABLE, { context: { api: 'Metadata', topic, partition } });
      }
      this.metadataCache.invalidate(topic);
    }
  }

  /** The connection to the partition's leader. */
  async leaderFor(topic: string, partition: number): Promise<Connection> {
    const p = await this.partitionMetadata(topic, partition);
    return this.connectionTo(p.leader);
  }

  /** The connection to a broker by node id; refreshes metadata once if the id is not known. */
  async connectionTo(nodeId: number): Promise<Connection> {
    this.throwIfClosed();
    let broker = this.metadataCache.broker(nodeId);
    if (broker === undefined) {
      await this.metadataCache.refresh([]);
      broker = this.metadataCache.broker(nodeId);
      if (broker === undefined) throw new BrokerNotFoundError(nodeId);
    }
    return this.pool.get({ host: broker.host, port: broker.port, nodeId });
  }

  /** The broker metadata names as controller (in KRaft, any broker, which forwards to the quorum). */
  async controllerConnection(): Promise<Connection> {
    const md = this.metadataCache.metadata ?? (await this.metadataCache.refresh([]));
    return md.controllerId >= 0 ? this.connectionTo(md.controllerId) : this.anyConnection();
  }

  /**
   * Some open connection: the least busy one already open, else a known broker, else a bootstrap address.
   * Used for requests any broker can answer (metadata, admin requests forwarded to the controller).
   */
  async anyConnection(): Promise<Connection> {
    this.throwIfClosed();
    const ready = this.pool.readyConnections();
    if (ready.length > 0) return ready.reduce((a, b) => (b.pendingRequests < a.pendingRequests ? b : a));
    const known = [...(this.metadataCache.metadata?.brokers.values() ?? [])].sort(
      (a, b) => this.pool.backoffRemaining(a) - this.pool.backoffRemaining(b),
    );
    for (const broker of known) {
      if (this.pool.backoffRemaining(broker) > 0) break;
      try {
        return await this.pool.get(broker);
      } catch (err) {
        if (this.closed) throw err;
      }
    }
    return this.bootstrapConnection();
  }

  /**
   * Tells the cache what a failed request learned: a leadership or connection error makes the topic's (or,
   * without a topic, every) cached leader suspect. So does a leader that names no known broker: the cache holds
   * a leader id its own broker list lacks (one flipped bit in a Metadata answer makes one), and kept until its
   * max age, that leader would hold every request for the partition for minutes.
   */
  noteError(err: unknown, topic?: string): void {
    const stale =
      (isKafkaError(err) && isStaleMetadataCode(err.code)) ||
      err instanceof ConnectionError ||
      err instanceof RequestTimeoutError ||
      err instanceof BrokerNotFoundError;
    if (stale) this.metadataCache.invalidate(topic);
  }

  /** Closes every connection; pending requests reject with ConnectionError, and so does any later call. */
  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort(new ConnectionError('the client is closed', undefined, { retriable: false }));
    await this.pool.close();
  }

  /** Tries each bootstrap address in turn, round after round, until one answers or the retry time is up. */
  private async bootstrapConnection(): Promise<Connection> {
    const deadline = Date.now() + this.retryTimeoutMs;
    const failures = new Map<string, unknown>();
    for (;;) {
      for (const address of this.bootstrap) {
        if (Date.now() + this.pool.backoffRemaining(address) > deadline) continue;
        try {
          return await this.pool.get(address);
        } catch (err) {
          if (this.closed) throw err;
          // Wrong credentials, a TLS name mismatch, a broker speaking garbage: another round cannot help.
          if (err instanceof TidemarkError && !err.retriable) throw err;
          failures.set(formatAddress(address.host, address.port), err);
        }
      }
      const soonest = Math.min(...this.bootstrap.map((a) => this.pool.backoffRemaining(a)));
      if (Date.now() + soonest > deadline) {
        // No address comes out of its backoff in time. Give up only at the deadline, never at once: a caller
        // that retries straight away would otherwise spin in the microtask queue and starve every timer.
        const left = deadline - Date.now();
        if (left > 0) await sleep(left, this.closing.signal);
        break;
      }
      // Every address failed in this round; wait for the first to come out of its backoff.
      if (soonest > 0) await sleep(soonest, this.closing.signal);
    }
    const detail = [...failures].map(([address, err]) => `${address}: ${(err as Error).message}`).join('; ');
    throw new ConnectionError(`no bootstrap broker answered within ${this.retryTimeoutMs} ms (${detail})`, undefined, {
      cause: new AggregateError([...failures.values()]),
    });
  }

  /**
   * One metadata request, retried on another connection after a transport failure, all within retryTimeoutMs:
   * a retry gets what is left of it as its request timeout (as Java's admin client bounds each try), and none
   * starts once the backoff would use it up. A retry late in the budget used to get a whole request timeout of
   * its own, so a refresh could take twice the budget, and a caller queued behind one refresh for the next
   * (metadata-cache.ts) waits for both: the likely cause of the corruption soak's metadata() calls of 5.1-5.9 s
   * against a 2 s budget (4 of 52 soaks).
   */
  private async fetchFromAnyBroker(topics: string[] | null): Promise<ClusterMetadata> {
    const deadline = Date.now() + this.retryTimeoutMs;
    for (let failures = 1; ; failures++) {
      let connection: Connection | undefined;
      let cut = false;
      try {
        connection = await this.anyConnection();
        // Only a retry is cut to the budget: the first request of a refresh gets a whole request timeout, so a
        // connection that never answers is found out (and closed) even when the budget is shorter than that.
        const left = deadline - Date.now();
        cut = failures > 1 && left < this.requestTimeoutMs;
        return await fetchMetadata(connection, { topics, timeoutMs: cut ? Math.max(left, 1) : undefined });
      } catch (err) {
        // Else anyConnection() would hand the same silent connection to every retry. A request cut short by the
        // budget proves nothing about the connection, which others may be using.
        if (!cut) closeIfTimedOut(connection, err);
        // A garbled answer is retried too: the next one need not be.
        const transient = err instanceof ConnectionError || err instanceof RequestTimeoutError;
        const garbled = err instanceof ProtocolError;
        const delay = backoffDelay(failures, this.backoff);
        if (this.closed || !(garbled || (transient && err.retriable)) || Date.now() + delay >= deadline) throw err;
        await sleep(delay, this.closing.signal);
      }
    }
  }

  private throwIfClosed(): void {
    if (this.closed) throw new ConnectionError('the client is closed', undefined, { retriable: false });
  }
}
