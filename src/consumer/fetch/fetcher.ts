import type { KafkaError } from '../../../protocol/kafka-error.js';
import { judgeTruncation } from '../../cluster/offset-for-leader-epoch.js';
import type { Connection } from '../../network/connection.js';
import type { ImplausibleResponseError } from '../../network/errors.js';
import type { EventSink } from '../events.js';
import type { MetricsRecorder } from '../metrics.js';
import type { PositionResolver } from '../position-resolver.js';
import type { PartitionState, Positions } from '../positions.js';
import { FetchBuffer } from './fetch-buffer.js';
import type { FetchSettings } from './fetch-request.js';
import { FetchSource, type RoutedPartition } from './fetch-source.js';
import type { FramePool } from './frame-pool.js';
import type { PartitionOutcomes, SentPartition } from './partition-response.js';
import { Router, type RoutingMetadata } from './router.js';

/** What the fetch loop needs of the cluster (a narrow view, so unit tests can stand in for it). */
export interface FetchCluster {
  readonly metadataCache: RoutingMetadata;
  noteError(err: unknown, topic?: string): void;
}

/** The connections fetches go over (FetchConnections: one dedicated connection per broker). */
export interface FetchConnectionSource {
  readonly isClosed: boolean;
  get(nodeId: number): Promise<Connection>;
  current(nodeId: number): Promise<Connection | undefined>;
  close(): Promise<void>;
  /** A response on `connection` has been applied (pooled response memory: frame-pool.ts). */
  responseHandled?(connection: Connection): void;
}

export interface FetcherOptions {
  cluster: FetchCluster;
  connections: FetchConnectionSource;
  positions: Positions;
  resolver: PositionResolver;
  settings: FetchSettings;
  /** The byte budget: fetched, in-flight and in-hand records together. */
  bufferBytes: number;
  /** Reused response memory (frame-pool.ts), shared with the fetch connections; unset means fresh memory. */
  frames?: FramePool;
  metrics: MetricsRecorder;
  emit: EventSink;
}

/** Backoff of a partition after a leader error, before it is fetched again (once metadata is refreshed). */
const PARTITION_RETRY_MS = 100;

/**
 * The fetch loop: routes fetchable partitions to their brokers' sources, starts a fetch on every idle source
 * while the byte budget has room, hands partitions without a valid position to the resolver, and turns every
 * partition-level answer into the right state change. It runs on events (a response, bytes released, a seek,
 * a metadata refresh), never on a timer of its own, except to come back after a backoff.
 */
export class Fetcher {
  readonly buffer: FetchBuffer;
  private readonly router: Router;
  private readonly sources = new Map<number, FetchSource>();
  private readonly closing = new AbortController();
  private readonly outcomes: PartitionOutcomes;
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;

  constructor(private readonly o: FetcherOptions) {
    // Room is news only to a source with no request out: with 1,000 partitions a response holds ~70 chunks, and
    // a pass over every partition per chunk released, while the one request is still out, was 3 % of the CPU.
    this.buffer = new FetchBuffer(o.bufferBytes, () => this.anySourceIdle() && this.wake(), o.frames);
    this.router = new Router(
      o.cluster.metadataCache,
      () => this.wake(),
      (topic, err) => {
        o.emit('warning', { message: `metadata for ${topic} could not be loaded`, error: err as Error, topic });
        this.wake();
      },
    );
    this.outcomes = {
      buffer: this.buffer,
      settings: o.settings,
      outOfRange: (sent) => this.outOfRange(sent),
      diverged: (sent, epoch) => this.diverged(sent, epoch),
      leaderMoved: (state, error) => this.leaderMoved(state, error),
      fatal: (state, error) => this.fail(state, error),
      implausible: (state, error) => this.implausible(state, error),
    };
  }

  get signal(): AbortSignal {
    return this.closing.signal;
  }

  /** Runs the loop soon (once per burst of calls). */
  wake(): void {
    if (this.scheduled || this.closing.signal.aborted) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.tick();
    });
  }

  private anySourceIdle(): boolean {
    for (const source of this.sources.values()) if (source.idle) return true;
    return false;
  }

  /** Drops what was fetched for `state` and not delivered (a seek, a pause, a revoke). */
  dropBuffered(state: PartitionState): void {
    this.buffer.drop((chunk) => chunk.state === state);
  }

  /** Stops fetching and delivering the partition for good (a revoke or unassign); its state stays until removed. */
  revoke(state: PartitionState): void {
    state.revoke();
    this.dropBuffered(state);
  }

  /** Stops the partition with an error the application will see. */
  fail(state: PartitionState, error: Error): void {
    this.dropBuffered(state);
    state.fail(error);
    this.buffer.notify();
  }

  /** Stops fetching: in-flight requests are abandoned and the brokers' sessions closed. */
  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort();
    clearTimeout(this.timer);
    this.router.close();
    this.buffer.notify();
    await Promise.all(
      [...this.sources.values()].map(async (source) => {
        await source.closeSession(await this.o.connections.current(source.nodeId));
      }),
    );
    await this.o.connections.close();
  }

  private tick(): void {
    if (this.closing.signal.aborted) return;
    if (this.o.connections.isClosed) {
      // The client was closed under the consumer: nothing can be fetched any more; iteration ends.
      void this.close();
      return;
    }
    const { positions, resolver, settings } = this.o;
    const now = Date.now();
    let soonest = Number.POSITIVE_INFINITY;
    const unresolved: PartitionState[] = [];
    const byNode = new Map<number, RoutedPartition[]>();
    const topics = new Set<string>();
    for (const state of positions.all()) {
      topics.add(state.topic);
      if (state.phase === 'initializing' || state.phase === 'resetting' || state.phase === 'validating') {
        if (resolver.isBusy(state)) continue;
        if (state.retryAt > now) soonest = Math.min(soonest, state.retryAt);
        else unresolved.push(state);
        continue;
      }
      if (!state.isFetchable) continue;
      if (state.retryAt > now) {
        soonest = Math.min(soonest, state.retryAt);
        continue;
      }
      const route = this.router.route(state, now);
      if (route === undefined) continue;
      if (route.leaderEpoch > state.leaderEpoch && state.leaderEpoch >= 0 && state.positionEpoch >= 0) {
        // A new leader: make sure the position survived the change before fetching on (KIP-320).
        state.leaderEpoch = route.leaderEpoch;
        this.dropBuffered(state);
        state.awaitValidation();
        unresolved.push(state);
        continue;
      }
      state.leaderEpoch = route.leaderEpoch;
      const list = byNode.get(route.nodeId);
      if (list === undefined) byNode.set(route.nodeId, [{ state, route }]);
      else list.push({ state, route });
    }
    this.router.retain(topics);
    if (unresolved.length > 0) resolver.run(unresolved);

    const ready = [...byNode].filter(([nodeId]) => {
      const source = this.source(nodeId);
      if (source.ready(now)) return true;
      if (source.backoffUntil > now) soonest = Math.min(soonest, source.backoffUntil);
      return false;
    });
    // A request asks for at most a quarter of the budget, and one starts only while a quarter is free
    // (FetchBuffer.requestBytes). With 1,000 partitions a response is not capped by maxPartitionFetchBytes ×
    // partitions: in runs of the bench's partitions-1000 workload, asking for the whole 32 MiB read 1.7-2.4 M
    // records/s at 0.49-0.59 CPU s per 1M, 8 MiB 2.7-3.1 M at 0.36-0.39 (bench/results/fetch-sizing.md). A broker
    // may return one batch past the limit (KIP-74).
    const { requestBytes } = this.buffer;
    const maxBytes = Math.min(settings.maxBytes, requestBytes);
    for (const [nodeId, partitions] of ready) {
      if (this.buffer.available < requestBytes) break;
      this.source(nodeId)
        .fetch(partitions, maxBytes)
        .finally(() => this.wake());
    }
    this.schedule(soonest);
  }

  private source(nodeId: number): FetchSource {
    let source = this.sources.get(nodeId);
    if (source === undefined) {
      source = new FetchSource(nodeId, {
        settings: this.o.settings,
        outcomes: this.outcomes,
        connectionTo: (id) => this.o.connections.get(id),
        responseHandled: this.o.connections.responseHandled?.bind(this.o.connections),
        nameOf: (id) => this.router.nameOf(id),
        requestFailed: (topics, err) => this.requestFailed(nodeId, topics, err),
        metrics: this.o.metrics,
        emit: this.o.emit,
        signal: this.closing.signal,
      });
      this.sources.set(nodeId, source);
    }
    return source;
  }

  /** Comes back at `at` (a backoff ending), unless already due sooner. */
  private schedule(at: number): void {
    if (!Number.isFinite(at) || at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timerAt = Number.POSITIVE_INFINITY;
        this.wake();
      },
      Math.max(1, at - Date.now()),
    );
  }

  private outOfRange(sent: SentPartition): void {
    const s = sent.state;
    // The fetched offset is gone from the log (retention, DeleteRecords) or past its end: let the policy decide.
    this.dropBuffered(s);
    s.awaitReset(undefined);
  }

  private diverged(sent: SentPartition, divergingEpoch: { epoch: number; endOffset: bigint }): void {
    const s = sent.state;
    this.dropBuffered(s);
    const check = judgeTruncation(
      { topic: s.topic, partition: s.partition, offset: s.position, leaderEpoch: s.positionEpoch },
      {
        topic: s.topic,
        partition: s.partition,
        leaderEpoch: divergingEpoch.epoch,
        endOffset: divergingEpoch.endOffset,
      },
    );
    // Divergence past the position touches only records fetched ahead and not delivered: fetch them again.
    if (check.truncated) this.o.resolver.truncated(s, check, 'fetch-diverging-epoch');
    else s.rewind();
    this.buffer.notify();
  }

  private leaderMoved(state: PartitionState, error: KafkaError): void {
    this.router.invalidate(state.topic);
    this.o.cluster.noteError(error, state.topic);
    state.retryAt = Date.now() + PARTITION_RETRY_MS;
  }

  /** An answer that cannot be true for this partition: it was dropped; say so, and fetch it again shortly. */
  private implausible(state: PartitionState, error: ImplausibleResponseError): void {
    this.o.metrics.fetchErrors++;
    state.retryAt = Date.now() + PARTITION_RETRY_MS;
    const { topic, partition } = state;
    this.o.emit('warning', {
      message: `fetch answer dropped, fetching again: ${error.message}`,
      error,
      topic,
      partition,
    });
  }

  private requestFailed(nodeId: number, topics: ReadonlySet<string>, err: unknown): void {
    for (const topic of topics) {
      this.router.invalidate(topic);
      this.o.cluster.noteError(err, topic);
    }
    const error = err instanceof Error ? err : new Error(String(err));
    this.o.emit('warning', { message: `fetch from broker ${nodeId} failed; retrying: ${error.message}`, error });
  }
}
