/**
 * A TCP fault proxy on loopback, in front of one broker or several. Every connection a client opens through
 * `proxy.socketFactory` goes to a proxy listener for the address it asked for (one listener per broker address,
 * opened on first use), so metadata naming other brokers needs no extra set-up. Faults switch at runtime:
 * latency per direction, dropping every connection, half-open connections, blackholed new connections, a
 * truncated or reset response, a rewritten (corrupted) response, and hooks keyed by API key that act on one
 * request's response.
 *
 * The proxy understands Kafka framing only as far as it must: requests carry their API key and correlation id
 * in the header, responses only the correlation id, so each connection remembers which API every correlation id
 * belongs to.
 */
import { createServer, connect as netConnect, type Server, type Socket } from 'node:net';
import type { SocketFactory } from '../../src/network/socket.js';
import { tcpSocketFactory } from '../../src/network/socket.js';

/** What to do with a response frame a hook or a one-shot fault picked. */
export type ResponseAction =
  /** Forward it unchanged. */
  | 'forward'
  /** Close both sides instead of forwarding it (the response is lost, the broker did the work). */
  | 'cut'
  /** Drop it and forward nothing more either way on that connection, closing nothing (it goes silent). */
  | 'stall'
  /** Forward its size prefix and part of it, then end the connection (a FIN mid-frame). */
  | 'truncate'
  /** Forward its size prefix and part of it, then reset the client's socket (an RST mid-frame). */
  | 'reset'
  /** Forward these bytes instead of the frame, under a size prefix that fits them. */
  | { replace: Buffer }
  /** Forward exactly these bytes instead of the frame and its size prefix (an impossible size, a foreign protocol). */
  | { replaceRaw: Buffer };

/** Builds the bytes a corrupted response is replaced with (see ResponseAction's `replace` forms). */
export type ResponseRewrite = (response: ResponseContext) => { replace: Buffer } | { replaceRaw: Buffer };

export interface ResponseContext {
  apiKey: number;
  apiVersion: number;
  correlationId: number;
  /** The upstream broker address this connection goes to (`host:port`). */
  broker: string;
  /** The whole response frame, without its size prefix. */
  frame: Buffer;
}

export type ResponseHook = (response: ResponseContext) => ResponseAction;

/** Counts of what the proxy saw and did, for tests to assert that a fault really happened. */
export interface FaultProxyStats {
  connections: number;
  dropped: number;
  halfOpened: number;
  blackholed: number;
  truncated: number;
  reset: number;
  cut: number;
  rewritten: number;
}

interface Pair {
  client: Socket;
  upstream: Socket;
  broker: string;
  /** Stops all forwarding, both ways, without closing anything. */
  stalled: boolean;
  /** When the last delayed chunk in each direction goes out: keeps delayed chunks in order. */
  nextToBroker: number;
  nextToClient: number;
}

/** How long after the partial frame the RST follows. */
const RESET_DELAY_MS = 20;

export class FaultProxy {
  /** Added delay of every chunk from client to broker, in ms. */
  latencyToBrokerMs = 0;
  /** Added delay of every chunk from broker to client, in ms. */
  latencyToClientMs = 0;
  /** New connections are accepted but nothing is forwarded either way (a broker that never answers). */
  blackhole = false;
  readonly stats: FaultProxyStats = {
    connections: 0,
    dropped: 0,
    halfOpened: 0,
    blackholed: 0,
    truncated: 0,
    reset: 0,
    cut: 0,
    rewritten: 0,
  };
  private readonly listeners = new Map<string, Promise<{ server: Server; port: number }>>();
  private readonly pairs = new Set<Pair>();
  private readonly hooks = new Map<number, ResponseHook>();
  private pendingFaults: {
    action: 'truncate' | 'reset' | 'stall' | ResponseRewrite;
    apiKey: number | undefined;
    keepBytes: number;
  }[] = [];
  private stopped = false;

  /**
   * A proxy whose listeners open on demand. `upstreams` are listened for now, so `addressFor` answers at once;
   * any other address the socket factory is asked for gets a listener on first use.
   */
  static async start(upstreams: string | readonly string[] = []): Promise<FaultProxy> {
    const proxy = new FaultProxy();
    for (const address of typeof upstreams === 'string' ? [upstreams] : upstreams) await proxy.listenerFor(address);
    return proxy;
  }

  /** Connect through the proxy: the connection goes to the listener for the address asked for. */
  readonly socketFactory: SocketFactory = async ({ host, port, timeoutMs, onread }) => {
    const listener = await this.listenerFor(`${host}:${port}`);
    return tcpSocketFactory({ host: '127.0.0.1', port: listener.port, timeoutMs, onread });
  };

  /** The proxy's `host:port` for a broker address (a listener is opened if there is none yet). */
  async addressFor(broker: string): Promise<string> {
    return `127.0.0.1:${(await this.listenerFor(broker)).port}`;
  }

  /** Live proxied connections. */
  get openConnections(): number {
    return this.pairs.size;
  }

  /** Destroys every live connection now (both sides see the close). */
  dropAll(): number {
    const n = this.pairs.size;
    for (const pair of [...this.pairs]) this.kill(pair);
    this.stats.dropped += n;
    return n;
  }

  /** Every live connection stops forwarding both ways and closes nothing: the peer seems to have vanished. */
  halfOpenAll(): number {
    let n = 0;
    for (const pair of this.pairs) {
      if (!pair.stalled) n++;
      pair.stalled = true;
    }
    this.stats.halfOpened += n;
    return n;
  }

  /**
   * The next response (of `apiKey`, or any) is forwarded only in part — its size prefix and `keepBytes` of the
   * frame (default half) — and then the connection ends with a FIN.
   */
  truncateNextResponse(options: { apiKey?: number; keepBytes?: number } = {}): void {
    this.pendingFaults.push({ action: 'truncate', apiKey: options.apiKey, keepBytes: options.keepBytes ?? -1 });
  }

  /** Like truncateNextResponse, but the client's socket is reset (RST) instead of ended. */
  resetNextResponse(options: { apiKey?: number; keepBytes?: number } = {}): void {
    this.pendingFaults.push({ action: 'reset', apiKey: options.apiKey, keepBytes: options.keepBytes ?? -1 });
  }

  /** The next response (of `apiKey`, or any) is dropped and its connection goes silent both ways. */
  stallNextResponse(options: { apiKey?: number } = {}): void {
    this.pendingFaults.push({ action: 'stall', apiKey: options.apiKey, keepBytes: -1 });
  }

  /**
   * The next response (of `apiKey`, or any) is replaced by what `rewrite` makes of it — a specific corruption,
   * once; responses after it pass clean.
   */
  rewriteNextResponse(rewrite: ResponseRewrite, options: { apiKey?: number } = {}): void {
    this.pendingFaults.push({ action: rewrite, apiKey: options.apiKey, keepBytes: -1 });
  }

  /** Decides the fate of each response to a request of `apiKey`; `undefined` removes the hook. */
  onResponse(apiKey: number, hook: ResponseHook | undefined): void {
    if (hook === undefined) this.hooks.delete(apiKey);
    else this.hooks.set(apiKey, hook);
  }

  /** Turns every fault off for new traffic: no latency, no blackhole, no hooks or pending one-shot faults. */
  heal(): void {
    this.latencyToBrokerMs = 0;
    this.latencyToClientMs = 0;
    this.blackhole = false;
    this.hooks.clear();
    this.pendingFaults = [];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const pair of [...this.pairs]) this.kill(pair);
    const listeners = await Promise.all([...this.listeners.values()].map((l) => l.catch(() => undefined)));
    await Promise.all(
      listeners.map((l) =>
        l === undefined ? undefined : new Promise<void>((resolve) => l.server.close(() => resolve())),
      ),
    );
  }

  private listenerFor(broker: string): Promise<{ server: Server; port: number }> {
    if (this.stopped) return Promise.reject(new Error('the fault proxy is stopped'));
    let listener = this.listeners.get(broker);
    if (listener === undefined) {
      const server = createServer((client) => this.accept(client, broker));
      listener = new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => {
          const address = server.address();
          resolve({ server, port: typeof address === 'object' && address !== null ? address.port : 0 });
        });
      });
      this.listeners.set(broker, listener);
    }
    return listener;
  }

  private accept(client: Socket, broker: string): void {
    this.stats.connections++;
    client.setNoDelay(true);
    const i = broker.lastIndexOf(':');
    let upstream: Socket;
    try {
      upstream = netConnect({ host: broker.slice(0, i), port: Number(broker.slice(i + 1)), noDelay: true });
    } catch {
      // An address no socket can reach (a corrupted metadata answer named it): the client sees a closed connection.
      client.destroy();
      return;
    }
    const pair: Pair = { client, upstream, broker, stalled: this.blackhole, nextToBroker: 0, nextToClient: 0 };
    if (this.blackhole) this.stats.blackholed++;
    this.pairs.add(pair);
    const kill = () => this.kill(pair);
    client.on('close', kill).on('error', kill);
    upstream.on('close', kill).on('error', kill);
    const requests = new Map<number, { apiKey: number; apiVersion: number }>();
    // Requests: size, api key, api version, correlation id, ...
    client.on(
      'data',
      frames((frame, raw) => {
        if (pair.stalled) return;
        if (frame.length >= 8) {
          requests.set(frame.readInt32BE(4), { apiKey: frame.readInt16BE(0), apiVersion: frame.readInt16BE(2) });
        }
        this.forward(pair, 'toBroker', raw);
      }),
    );
    // Responses: size, correlation id, ...
    upstream.on(
      'data',
      frames((frame, raw) => {
        if (pair.stalled) return;
        const correlationId = frame.length >= 4 ? frame.readInt32BE(0) : -1;
        const request = requests.get(correlationId);
        requests.delete(correlationId);
        const apiKey = request?.apiKey ?? -1;
        const action = this.actionFor({
          apiKey,
          apiVersion: request?.apiVersion ?? -1,
          correlationId,
          broker,
          frame,
        });
        if (action.action === 'forward') {
          this.forward(pair, 'toClient', raw);
          return;
        }
        if (typeof action.action === 'object') {
          this.stats.rewritten++;
          this.forward(pair, 'toClient', rewrittenBytes(action.action));
          return;
        }
        if (action.action === 'cut') {
          this.stats.cut++;
          kill();
          return;
        }
        if (action.action === 'stall') {
          this.stats.halfOpened++;
          pair.stalled = true;
          return;
        }
        const keep = action.keepBytes < 0 ? Math.floor(frame.length / 2) : Math.min(action.keepBytes, frame.length - 1);
        const part = raw.subarray(0, 4 + keep);
        if (action.action === 'truncate') this.stats.truncated++;
        else this.stats.reset++;
        // No more forwarding on this pair; the partial frame goes out (after any latency), then the end.
        pair.stalled = true;
        this.forward(pair, 'toClient', part, () => {
          // Out of the set first, so the upstream's close does not destroy the client side (a FIN) before the RST.
          this.pairs.delete(pair);
          upstream.destroy();
          if (action.action === 'truncate') client.end();
          // An RST right behind the data can reach the client before it has read the data, and some reads
          // then see a plain EOF: let the partial frame be read first.
          else setTimeout(() => client.resetAndDestroy(), RESET_DELAY_MS);
        });
      }),
    );
  }

  private actionFor(response: ResponseContext): { action: ResponseAction; keepBytes: number } {
    const i = this.pendingFaults.findIndex((f) => f.apiKey === undefined || f.apiKey === response.apiKey);
    if (i >= 0) {
      const [fault] = this.pendingFaults.splice(i, 1);
      const action = typeof fault.action === 'function' ? fault.action(response) : fault.action;
      return { action, keepBytes: fault.keepBytes };
    }
    const hook = this.hooks.get(response.apiKey);
    return { action: hook === undefined ? 'forward' : hook(response), keepBytes: -1 };
  }

  /** Writes `bytes` after the direction's latency, in order; `then` runs after the write. */
  private forward(pair: Pair, direction: 'toBroker' | 'toClient', bytes: Buffer, then?: () => void): void {
    const target = direction === 'toBroker' ? pair.upstream : pair.client;
    const latency = direction === 'toBroker' ? this.latencyToBrokerMs : this.latencyToClientMs;
    const send = () => {
      if (target.destroyed) return;
      if (then === undefined) target.write(bytes);
      else target.write(bytes, () => then());
    };
    const key = direction === 'toBroker' ? 'nextToBroker' : 'nextToClient';
    const now = Date.now();
    if (latency <= 0 && pair[key] <= now) {
      send();
      return;
    }
    const at = Math.max(now + latency, pair[key]);
    pair[key] = at;
    setTimeout(send, at - now);
  }

  private kill(pair: Pair): void {
    if (!this.pairs.delete(pair)) return;
    pair.client.destroy();
    pair.upstream.destroy();
  }
}

/** The bytes that go to the client for a `replace` or `replaceRaw` action. */
function rewrittenBytes(action: { replace: Buffer } | { replaceRaw: Buffer }): Buffer {
  if ('replaceRaw' in action) return action.replaceRaw;
  const prefix = Buffer.allocUnsafe(4);
  prefix.writeInt32BE(action.replace.length, 0);
  return Buffer.concat([prefix, action.replace]);
}

/** Splits a byte stream into size-prefixed frames; `raw` is the frame with its size prefix. */
function frames(onFrame: (frame: Buffer, raw: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const size = pending.readInt32BE(0);
      if (pending.length < 4 + size) break;
      onFrame(pending.subarray(4, 4 + size), pending.subarray(0, 4 + size));
      pending = pending.subarray(4 + size);
    }
  };
}
