import { BrokerNotFoundError } from '../../cluster/errors.js';
import type { Connection } from '../../network/connection.js';
import type { BrokerAddress } from '../../network/errors.js';
import { ConsumerClosedError } from '../errors.js';
import type { ConnectionFrames, FramePool } from './frame-pool.js';

/** What fetch connections are opened with: the pool's dedicated connections, and broker addresses by node id. */
export interface DedicatedConnections {
  readonly metadataCache: {
    broker(nodeId: number): { host: string; port: number } | undefined;
    refresh(topics: readonly string[] | null): Promise<unknown>;
  };
  readonly pool: { openDedicated(address: BrokerAddress): Promise<Connection> };
  readonly isClosed: boolean;
}

/**
 * One connection per broker for this consumer's fetches alone. A broker answers one connection's requests in
 * order, so a fetch parked for fetchMaxWaitMs would hold up every commit, heartbeat and metadata request queued
 * behind it on a shared connection; Java's consumer keeps its coordinator traffic apart for the same reason.
 * A connection that closes is replaced on next use. With `frames` (every consumer's), each connection reads its
 * large responses into that pool's memory (frame-pool.ts).
 */
export class FetchConnections {
  private readonly open = new Map<number, Promise<Connection>>();
  private readonly connectionFrames = new WeakMap<Connection, ConnectionFrames>();
  private closed = false;

  constructor(
    private readonly cluster: DedicatedConnections,
    private readonly frames?: FramePool,
  ) {}

  /** Closed by close(), or because the client the consumer runs on was closed under it. */
  get isClosed(): boolean {
    return this.closed || this.cluster.isClosed;
  }

  get(nodeId: number): Promise<Connection> {
    if (this.isClosed) return Promise.reject(new ConsumerClosedError());
    const existing = this.open.get(nodeId);
    if (existing !== undefined) return existing;
    const opening = this.connect(nodeId);
    this.open.set(nodeId, opening);
    opening.then(
      (connection) => {
        if (this.frames !== undefined) {
          const frames = this.frames.connectionFrames();
          connection.useFrameAllocator(frames);
          this.connectionFrames.set(connection, frames);
        }
        connection.once('close', () => {
          if (this.open.get(nodeId) === opening) this.open.delete(nodeId);
        });
        if (this.closed) void connection.close();
      },
      () => {
        if (this.open.get(nodeId) === opening) this.open.delete(nodeId);
      },
    );
    return opening;
  }

  /** The open connection to a broker, if there is one (for a last request on close). */
  async current(nodeId: number): Promise<Connection | undefined> {
    const c = await this.open.get(nodeId)?.catch(() => undefined);
    return c?.isReady ? c : undefined;
  }

  /** A response on `connection` has been applied: its frames' memory may go back once its chunks let go. */
  responseHandled(connection: Connection): void {
    this.connectionFrames.get(connection)?.responseHandled();
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map((p) => p.then((c) => c.close()).catch(() => {})));
  }

  private async connect(nodeId: number): Promise<Connection> {
    let broker = this.cluster.metadataCache.broker(nodeId);
    if (broker === undefined) {
      await this.cluster.metadataCache.refresh([]);
      broker = this.cluster.metadataCache.broker(nodeId);
      if (broker === undefined) throw new BrokerNotFoundError(nodeId);
    }
    return this.cluster.pool.openDedicated({ host: broker.host, port: broker.port, nodeId });
  }
}
