import { Connection, type ConnectionOptions } from '../network/connection.js';
import { type BrokerAddress, ConnectionError, formatAddress } from '../network/errors.js';
import { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF, sleep } from './backoff.js';

export type PoolConnectionOptions = Omit<ConnectionOptions, 'host' | 'port' | 'nodeId'>;

/** Everything the pool knows about one broker address. */
interface Slot {
  readonly address: BrokerAddress;
  /** The live connection; cleared as soon as it closes so the next use replaces it. */
  connection: Connection | undefined;
  /** Shared by every caller that asks while a connection is being opened. */
  connecting: Promise<Connection> | undefined;
  /** The connection being opened, so close() can abandon it. */
  opening: Connection | undefined;
  /** Consecutive failed attempts; drives the backoff. */
  failures: number;
  /** Epoch ms before which no new attempt is made. */
  retryAt: number;
}

/**
 * At most one connection per broker address, opened on first use. A failed attempt delays the next one by an
 * exponential backoff with jitter; a connection that closes is replaced the next time it is asked for.
 * Keyed by address rather than node id so that a bootstrap address that is also a broker's advertised address
 * shares that broker's connection.
 */
export class BrokerPool {
  private readonly slots = new Map<string, Slot>();
  private readonly closing = new AbortController();
  private readonly backoff: BackoffOptions;

  constructor(
    private readonly connectionOptions: PoolConnectionOptions,
    backoff?: BackoffOptions,
  ) {
    this.backoff = backoff ?? DEFAULT_BACKOFF;
  }

  get isClosed(): boolean {
    return this.closing.signal.aborted;
  }

  /** The open connection to a broker, connecting (after any backoff) if there is none. */
  get(address: BrokerAddress): Promise<Connection> {
    if (this.isClosed) return Promise.reject(closedError());
    const key = formatAddress(address.host, address.port);
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = {
        address: { ...address },
        connection: undefined,
        connecting: undefined,
        opening: undefined,
        failures: 0,
        retryAt: 0,
      };
      this.slots.set(key, slot);
    }
    if (address.nodeId !== undefined) slot.address.nodeId = address.nodeId;
    if (slot.connection !== undefined && !slot.connection.isClosed) return Promise.resolve(slot.connection);
    slot.connection = undefined;
    if (slot.connecting !== undefined) return slot.connecting;
    const s = slot;
    const connecting = this.open(s).finally(() => {
      s.connecting = undefined;
    });
    s.connecting = connecting;
    return connecting;
  }

  /**
   * A new connection to a broker that the pool neither shares nor tracks; the caller closes it. For requests
   * that park on the broker (JoinGroup and SyncGroup wait for the whole group): a broker answers one
   * connection's requests in order, so on the shared connection they would stall every fetch behind them.
   */
  async openDedicated(address: BrokerAddress): Promise<Connection> {
    if (this.isClosed) throw closedError();
    const connection = new Connection({ ...this.connectionOptions, ...address });
    return connection.connect();
  }

  /** Connections that are open right now. */
  readyConnections(): Connection[] {
    const ready: Connection[] = [];
    for (const slot of this.slots.values()) if (slot.connection?.isReady) ready.push(slot.connection);
    return ready;
  }

  /** Milliseconds until a broker may be tried again; 0 when it may be tried now. */
  backoffRemaining(address: BrokerAddress): number {
    const slot = this.slots.get(formatAddress(address.host, address.port));
    return slot === undefined ? 0 : Math.max(0, slot.retryAt - Date.now());
  }

  /** Closes every connection; pending requests and waiting callers reject with ConnectionError. */
  async close(): Promise<void> {
    this.closing.abort(closedError());
    const closing: Promise<void>[] = [];
    for (const slot of this.slots.values()) {
      if (slot.connection !== undefined) closing.push(slot.connection.close());
      if (slot.opening !== undefined) closing.push(slot.opening.close());
    }
    await Promise.all(closing);
  }

  private async open(slot: Slot): Promise<Connection> {
    const wait = slot.retryAt - Date.now();
    if (wait > 0) await sleep(wait, this.closing.signal);
    if (this.isClosed) throw closedError();
    const connection = new Connection({ ...this.connectionOptions, ...slot.address });
    slot.opening = connection;
    try {
      await connection.connect();
    } catch (err) {
      slot.failures++;
      slot.retryAt = Date.now() + backoffDelay(slot.failures, this.backoff);
      throw err;
    } finally {
      slot.opening = undefined;
    }
    if (this.isClosed) {
      await connection.close();
      throw closedError();
    }
    slot.failures = 0;
    slot.retryAt = 0;
    slot.connection = connection;
    connection.once('close', () => {
      if (slot.connection === connection) slot.connection = undefined;
    });
    return connection;
  }
}

function closedError(): ConnectionError {
  return new ConnectionError('the client is closed', undefined, { retriable: false });
}
