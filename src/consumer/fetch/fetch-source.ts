import { Fetch, type FetchResponse } from '../../../protocol/apis/fetch.js';
import { kafkaError } from '../../../protocol/kafka-error.js';
import { backoffDelay } from '../../cluster/backoff.js';
import { partitionKey } from '../../cluster/partition-errors.js';
import type { Connection } from '../../network/connection.js';
import { RequestAbortedError, UnsupportedVersionError } from '../../network/errors.js';
import { closeIfTimedOut } from '../../network/silent-connection.js';
import { type EventSink, isObserved } from '../events.js';
import type { MetricsRecorder } from '../metrics.js';
import type { PartitionState } from '../positions.js';
import { buildFetchRequest, type FetchSettings, LAST_VERSION_WITH_NAMES } from './fetch-request.js';
import { FetchSession, isSessionError, type SessionPartition } from './fetch-session.js';
import { applyPartitionResponse, type PartitionOutcomes, type SentPartition } from './partition-response.js';
import type { Route } from './router.js';

/** A partition on its way into a request, with the route it was given. */
export interface RoutedPartition {
  state: PartitionState;
  route: Route;
}

/** What a source needs from the fetcher that owns it. */
export interface SourceContext {
  settings: FetchSettings;
  outcomes: PartitionOutcomes;
  connectionTo(nodeId: number): Promise<Connection>;
  /** The response just awaited on `connection` has been applied (pooled response memory: frame-pool.ts). */
  responseHandled?: (connection: Connection) => void;
  /** The topic name a v13+ response means by an id. */
  nameOf(topicId: string): string | undefined;
  /** A request failed as a whole: metadata for these topics may be stale. */
  requestFailed(topics: ReadonlySet<string>, error: unknown): void;
  metrics: MetricsRecorder;
  emit: EventSink;
  signal: AbortSignal;
}

const SOURCE_BACKOFF = { initialMs: 100, maxMs: 1_000 };

/**
 * One broker's fetches: at most one request in flight, naming the assigned partitions that broker serves, in
 * that broker's fetch session. The fetcher starts a request whenever the source is idle and the byte budget
 * has room, so the next response is on its way while the application works through the last one.
 */
export class FetchSource {
  private readonly session: FetchSession;
  private busy = false;
  private failures = 0;
  private retryAt = 0;

  constructor(
    readonly nodeId: number,
    private readonly ctx: SourceContext,
  ) {
    this.session = new FetchSession(ctx.settings.sessions);
  }

  /** No request out (it may still be in backoff). */
  get idle(): boolean {
    return !this.busy;
  }

  /** Idle and out of any backoff. */
  ready(now: number): boolean {
    return !this.busy && now >= this.retryAt;
  }

  get backoffUntil(): number {
    return this.retryAt;
  }

  /**
   * Sends one fetch for `partitions` that may return up to `maxBytes`, and applies its answer. Never rejects:
   * failures become backoff, metadata refreshes and partition errors.
   */
  async fetch(partitions: RoutedPartition[], maxBytes: number): Promise<void> {
    this.busy = true;
    const sent = new Map<string, SentPartition>();
    for (const { state } of partitions) {
      state.inFlight = true;
      sent.set(state.key, {
        state,
        generation: state.generation,
        fetchOffset: state.fetchOffset,
        fetchEpoch: state.fetchEpoch,
      });
    }
    const { buffer } = this.ctx.outcomes;
    buffer.reserve(maxBytes);
    try {
      await this.exchange(partitions, sent, maxBytes);
      this.failures = 0;
    } catch (err) {
      this.session.onFailure();
      if (this.ctx.signal.aborted) return;
      this.failures++;
      this.ctx.metrics.fetchErrors++;
      this.retryAt = Date.now() + backoffDelay(this.failures, SOURCE_BACKOFF);
      this.ctx.requestFailed(new Set(partitions.map((p) => p.state.topic)), err);
      if (err instanceof UnsupportedVersionError) for (const s of sent.values()) this.ctx.outcomes.fatal(s.state, err);
    } finally {
      for (const { state } of partitions) state.inFlight = false;
      this.busy = false;
      buffer.unreserve(maxBytes);
    }
  }

  /** Tells the broker to drop our session (best effort, on close). */
  async closeSession(connection: Connection | undefined): Promise<void> {
    const close = this.session.closeRequest();
    if (close === undefined || connection === undefined || connection.isClosed) return;
    await connection
      .request(
        Fetch,
        { replicaId: -1, maxWaitMs: 0, minBytes: 0, maxBytes: 0, ...close, topics: [], forgottenTopicsData: [] },
        { timeoutMs: 2_000 },
      )
      .catch(() => {});
  }

  private async exchange(partitions: RoutedPartition[], sent: Map<string, SentPartition>, maxBytes: number) {
    const { settings } = this.ctx;
    const connection = await this.ctx.connectionTo(this.nodeId);
    let version = connection.versionFor(Fetch);
    if (settings.maxVersion !== undefined) version = Math.min(version, settings.maxVersion);
    // Topic ids need every topic to have one; otherwise name topics (v12), as Java's consumer does.
    if (version > LAST_VERSION_WITH_NAMES && partitions.some((p) => p.route.topicId === undefined)) {
      version = LAST_VERSION_WITH_NAMES;
    }
    if (settings.readCommitted && version < 4) {
      const err = new UnsupportedVersionError(
        'Fetch',
        Fetch.key,
        { min: 4, max: 18 },
        undefined,
        version,
        connection.address,
      );
      err.message = `read_committed needs Fetch v4+, but broker ${connection.address} speaks at most v${version}`;
      throw err;
    }
    this.session.setEnabled(settings.sessions && version >= 7);
    const wanted: SessionPartition[] = partitions.map(({ state, route }) => ({
      key: state.key,
      topic: state.topic,
      topicId: route.topicId,
      partition: state.partition,
      fetchOffset: state.fetchOffset,
      lastFetchedEpoch: state.fetchEpoch,
      currentLeaderEpoch: version >= 9 ? route.leaderEpoch : -1,
      maxBytes: Math.min(settings.maxPartitionBytes, maxBytes),
    }));
    const step = this.session.build(wanted);
    const request = buildFetchRequest(version, step, settings, maxBytes);
    const started = performance.now();
    let response: FetchResponse;
    try {
      response = await connection.request(Fetch, request, {
        version,
        signal: this.ctx.signal,
        // The broker holds the request up to maxWaitMs before it even starts to answer.
        timeoutMs: settings.requestTimeoutMs + settings.maxWaitMs,
      });
    } catch (err) {
      if (err instanceof RequestAbortedError && this.ctx.signal.aborted) return;
      // The connection is this consumer's own: a silent broker behind it would stall every later fetch.
      closeIfTimedOut(connection, err);
      throw err;
    }
    try {
      this.apply(response, sent, version, step.send.length, performance.now() - started);
    } finally {
      // Its chunks hold what they need of the response's memory now (or it carried none): the response lets go.
      this.ctx.responseHandled?.(connection);
    }
  }

  /** Applies a response: its session step, then each partition's answer. */
  private apply(
    response: FetchResponse,
    sent: Map<string, SentPartition>,
    version: number,
    partitionsSent: number,
    latencyMs: number,
  ): void {
    this.ctx.metrics.fetchRequests++;
    this.ctx.metrics.fetchLatency.add(latencyMs);
    if (!this.session.onResponse(response.errorCode, response.sessionId)) {
      if (response.errorCode !== 0 && !isSessionError(response.errorCode)) {
        throw kafkaError(response.errorCode, { context: { api: 'Fetch', version, broker: this.nodeId } });
      }
      // The session was refused: nothing in this response counts; the next request is a full one.
      return;
    }
    let bytes = 0;
    let received = 0;
    for (const t of response.responses) {
      const topic = version > LAST_VERSION_WITH_NAMES ? this.ctx.nameOf(t.topicId) : t.topic;
      if (topic === undefined) continue;
      for (const p of t.partitions) {
        const s = sent.get(partitionKey(topic, p.partitionIndex));
        received++;
        // Dropped, sought or revoked while the fetch was out: its answer is void.
        if (s === undefined || s.state.generation !== s.generation) continue;
        bytes += applyPartitionResponse(s, p, version, this.nodeId, this.ctx.outcomes);
      }
    }
    this.ctx.metrics.bytesFetched += bytes;
    if (isObserved(this.ctx.emit, 'fetch')) {
      this.ctx.emit('fetch', {
        nodeId: this.nodeId,
        partitionsSent,
        partitionsReceived: received,
        bytes,
        latencyMs,
        version,
        sessionId: this.session.id,
      });
    }
  }
}
