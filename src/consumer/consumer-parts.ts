import { setMaxListeners } from 'node:events';
import type { Cluster } from '../cluster/cluster.js';
import type { Coordinators } from '../coordinator/coordinators.js';
import type { OffsetStore } from '../offsets/offset-store.js';
import { BrokerOffsetStore } from './broker-offset-store.js';
import { CommitEngine } from './commit-engine.js';
import { Delivery } from './delivery.js';
import { type ConsumerEventName, type EventSink, eventSink, loggingSink } from './events.js';
import { FetchConnections } from './fetch/fetch-connections.js';
import { Fetcher } from './fetch/fetcher.js';
import { FramePool } from './fetch/frame-pool.js';
import type { GroupMembership, GroupMembershipOptions } from './group/membership.js';
import type { GroupListenerContext } from './group-listener.js';
import { MetricsRecorder } from './metrics.js';
import { type ConsumerOptions, type ResolvedConsumerOptions, resolveConsumerOptions } from './options.js';
import { PositionControl } from './position-control.js';
import { PositionResolver } from './position-resolver.js';
import { Positions } from './positions.js';

/** What a consumer runs on: a Client, or anything holding the client's cluster and coordinator cache. */
export interface ConsumerHost {
  readonly cluster: Cluster;
  readonly coordinators: Coordinators;
  /**
   * The client's bound of each request: every consumer call that sets none of its own inherits it (see
   * ConsumerOptions.requestTimeoutMs). Default 30 000.
   */
  readonly requestTimeoutMs?: number;
  /** The client id its requests carry; names the consumer in tracing. Default `tidemark`. */
  readonly clientId?: string;
}

/** What the Consumer lends its parts: its event emitter, its membership (once subscribed), its closed state. */
export interface ConsumerHooks {
  emit(name: ConsumerEventName, payload: unknown): void;
  /** Whether the Consumer has listeners for `name` (events nobody observes are not built). */
  listens(name: ConsumerEventName): boolean;
  membership(): GroupMembership | undefined;
  isClosed(): boolean;
  /** Closing or unsubscribing: the group is being left on the application's own call. */
  isLeaving(): boolean;
}

export interface ConsumerParts {
  options: ResolvedConsumerOptions;
  positions: Positions;
  metrics: MetricsRecorder;
  emit: EventSink;
  store: OffsetStore | undefined;
  /** The store was made here (the broker store), so the consumer closes it; an application's store is its own. */
  ownsStore: boolean;
  resolver: PositionResolver;
  fetcher: Fetcher;
  /** Where large Fetch responses are read (frame-pool.ts), for the metrics. */
  frames: FramePool;
  delivery: Delivery;
  commits: CommitEngine;
  control: PositionControl;
  groupOptions: Omit<GroupMembershipOptions, 'groupId'>;
  listenerContext(): Omit<GroupListenerContext, 'groupId' | 'user'>;
}

/**
 * Builds a consumer's parts and wires them to each other: one place that shows what depends on what, so the
 * Consumer itself is only its public API.
 */
export function buildParts(
  host: ConsumerHost,
  userOptions: ConsumerOptions,
  defaultRequestTimeoutMs: number,
  hooks: ConsumerHooks,
): ConsumerParts {
  const options = resolveConsumerOptions(userOptions, defaultRequestTimeoutMs);
  const { cluster, coordinators } = host;
  const requestTimeoutMs = options.fetch.requestTimeoutMs;
  const positions = new Positions();
  const metrics = new MetricsRecorder();
  const emit = loggingSink(eventSink(hooks.emit, hooks.listens), options.logger);
  const closing = new AbortController();
  // Every lookup of every partition listens to it while running; that is many listeners, not a leak.
  setMaxListeners(0, closing.signal);
  const ownsStore = userOptions.offsetStore === undefined && options.groupId !== undefined;
  const store =
    userOptions.offsetStore ??
    (options.groupId === undefined ? undefined : new BrokerOffsetStore({ cluster, coordinators, requestTimeoutMs }));

  let fetcher: Fetcher | undefined;
  const resolver = new PositionResolver({
    offsets: { cluster, requestTimeoutMs },
    store,
    groupId: options.groupId,
    autoOffsetReset: options.autoOffsetReset,
    outOfRange: options.outOfRange,
    isolationLevel: options.isolationLevel,
    emit,
    metrics,
    onChange: () => {
      fetcher?.wake();
      fetcher?.buffer.notify();
    },
    signal: closing.signal,
  });
  // Large responses are read into reused memory, never more idle than the buffer budget (frame-pool.ts); with
  // default options what the application gets is copied out of it (chunk-reader.ts), else it is views into it.
  const frames = new FramePool(options.maxBufferedBytes);
  fetcher = new Fetcher({
    cluster,
    connections: new FetchConnections(cluster, frames),
    frames,
    positions,
    resolver,
    settings: options.fetch,
    bufferBytes: options.maxBufferedBytes,
    metrics,
    emit,
  });
  const f = fetcher;
  f.signal.addEventListener('abort', () => closing.abort(), { once: true });

  const delivery = new Delivery({
    fetcher: f,
    positions,
    decode: {
      checkCrc: options.fetch.checkCrc,
      readCommitted: options.fetch.readCommitted,
      copyOut: !options.reuseFetchBuffers,
    },
    metrics,
    beforePoll: () => hooks.membership()?.notePoll(),
    isClosed: hooks.isClosed,
    source: { clientId: host.clientId ?? 'tidemark', groupId: options.groupId },
    explicitAck: options.ackMode === 'explicit',
  });
  const commits = new CommitEngine({
    store,
    groupId: options.groupId,
    positions,
    generation: () => hooks.membership()?.commitContext(),
    onRefused: (error, sentUnder) => hooks.membership()?.commitRefused(error, sentUnder),
    metadata: options.commitMetadata,
    retries: options.commitRetries,
    emit,
    metrics,
    signal: closing.signal,
  });
  const groupOptions = {
    ...userOptions.group,
    rackId: userOptions.group?.rackId ?? userOptions.clientRack ?? null,
    requestTimeoutMs: userOptions.group?.requestTimeoutMs ?? requestTimeoutMs,
  };
  return {
    options,
    positions,
    metrics,
    emit,
    store,
    ownsStore,
    resolver,
    fetcher: f,
    frames,
    delivery,
    commits,
    control: new PositionControl(positions, f),
    groupOptions,
    listenerContext: () => ({
      membership: hooks.membership,
      positions,
      fetcher: f,
      delivery,
      commits,
      store,
      autoCommit: options.autoCommit,
      revokeTimeoutMs: options.revokeTimeoutMs,
      leaving: hooks.isLeaving,
      emit,
      metrics,
    }),
  };
}
