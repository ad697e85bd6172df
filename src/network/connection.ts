/**
 * One TCP connection to one broker, the sending half and its life cycle: connect and handshake, requests
 * written with their correlation ids and timeouts, exclusive tasks, close. The receiving half is
 * response-stream.ts; the handshake's rules are handshake.ts.
 */
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { Reader } from '../../codecs/reader.js';
import { ApiVersions } from '../../protocol/apis/api-versions.js';
import { responseCodec } from '../../protocol/codec.js';
import { responseHeaderVersion } from '../../protocol/headers.js';
import type { ApiDef, RequestInput, ResponseOf } from '../../protocol/schema.js';
import type { RequestContext } from '../observability/channels.js';
import {
  measuredDecode,
  noteWritten,
  observeRequest,
  type RequestObserver,
  requestObserved,
} from '../observability/requests.js';
import { type BrokerApiVersions, chooseVersion } from './api-versions.js';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type RequestFn,
  type RequestOptions,
} from './connection-options.js';
import { ConnectionError, formatAddress, RequestAbortedError, RequestTimeoutError } from './errors.js';
import { ExclusiveGate } from './exclusive-gate.js';
import type { FrameAllocator } from './frame-allocator.js';
import { askVersionsAgain, handshakeRetriable, negotiate } from './handshake.js';
import { InFlightRequests } from './in-flight.js';
import { ResponseStream } from './response-stream.js';
import { endGracefully, type SocketFactory, tcpSocketFactory } from './socket.js';
import { confirmVersionTable } from './version-recheck.js';
import { encodeRequest } from './wire.js';

// Where these lived before connection-options.ts; importers may keep using this module.
export * from './connection-options.js';

export interface ConnectionOptions {
  host: string;
  port: number;
  /** The broker's node id, when metadata has named it; used in error messages. */
  nodeId?: number;
  /** Sent in every request header; `null` sends none. */
  clientId?: string | null;
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** A response whose size prefix is larger fails the connection before anything is allocated. */
  maxResponseBytes?: number;
  socketFactory?: SocketFactory;
  /** Whether connect() runs ApiVersions; off only to test the bare transport. */
  negotiateVersions?: boolean;
  clientSoftwareName?: string;
  clientSoftwareVersion?: string;
  /** Runs after version negotiation, before connect() resolves: the place for SASL. */
  authenticate?: (connection: Connection) => Promise<void>;
  /** Told of every settled request (the client's metrics); see src/observability/requests.ts. */
  requestObserver?: RequestObserver;
}

interface SendOptions extends RequestOptions {
  decode?: (r: Reader) => unknown;
  /** Set once the request is observed (src/observability/requests.ts). */
  observed?: RequestContext;
}

type State = 'new' | 'connecting' | 'ready' | 'closed';

/**
 * One TCP connection to one broker: framing, correlation ids, pipelined requests matched to responses by
 * correlation id, per-request timeouts and aborts, and the API versions negotiated on connect.
 */
export class Connection extends EventEmitter<{ close: [reason: ConnectionError] }> {
  readonly host: string;
  readonly port: number;
  readonly nodeId: number | undefined;
  /** `host:port`, as error messages show it. */
  readonly address: string;
  private readonly options: ConnectionOptions;
  private readonly requestTimeoutMs: number;
  private readonly clientId: string | null;
  private readonly inFlight = new InFlightRequests();
  private readonly stream: ResponseStream;
  private socket: Socket | undefined;
  private state: State = 'new';
  private nextCorrelationId = 0;
  private versions: BrokerApiVersions | undefined;
  private closeReason: ConnectionError | undefined;
  private closed: Promise<void> | undefined;
  private readonly gate = new ExclusiveGate();

  constructor(options: ConnectionOptions) {
    super();
    this.options = options;
    this.host = options.host;
    this.port = options.port;
    this.nodeId = options.nodeId;
    this.address = formatAddress(options.host, options.port);
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.clientId = options.clientId === undefined ? DEFAULT_CLIENT_ID : options.clientId;
    this.stream = new ResponseStream(options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, this.inFlight, {
      broker: { host: options.host, port: options.port, nodeId: options.nodeId },
      isClosed: () => this.state === 'closed',
      fail: (reason) => this.fail(reason),
    });
  }

  /** Opens the socket and negotiates API versions. A Connection is used once: after close, make a new one. */
  async connect(): Promise<this> {
    if (this.state !== 'new') throw this.error(`connect() called on a connection that is ${this.state}`);
    this.state = 'connecting';
    const factory = this.options.socketFactory ?? tcpSocketFactory;
    let socket: Socket;
    try {
      socket = await factory({
        host: this.host,
        port: this.port,
        timeoutMs: this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        onread: this.stream.socketReads,
      });
    } catch (err) {
      this.state = 'closed';
      // A typed failure from the factory (a TLS name mismatch, an untrusted certificate) stays what it is.
      this.closeReason =
        err instanceof ConnectionError ? err : this.error(`could not connect: ${(err as Error).message}`, err);
      throw this.closeReason;
    }
    if (this.state !== 'connecting') {
      socket.destroy();
      throw this.closeReason ?? this.error('connection closed while connecting');
    }
    this.socket = socket;
    this.stream.attach(socket);
    try {
      if (this.options.negotiateVersions !== false) await this.negotiate();
      await this.options.authenticate?.(this);
      // Only after authentication: a SASL listener takes one ApiVersions request before its handshake, no more.
      if (this.versions !== undefined) await this.confirmVersions(this.versions);
    } catch (err) {
      // A garbled answer closes this connection; the pool opens the next one after its backoff.
      const reason =
        err instanceof ConnectionError
          ? err
          : this.error(`handshake failed: ${(err as Error).message}`, err, handshakeRetriable(err));
      this.fail(reason);
      throw reason;
    }
    if (this.state !== 'connecting') throw this.closeReason ?? this.error('connection closed during the handshake');
    this.state = 'ready';
    return this;
  }

  get isReady(): boolean {
    return this.state === 'ready';
  }

  get isClosed(): boolean {
    return this.state === 'closed';
  }

  /** Requests written and still waiting for a response. */
  get pendingRequests(): number {
    return this.inFlight.size;
  }

  /** What the broker said it speaks; undefined before negotiation. */
  get apiVersions(): BrokerApiVersions | undefined {
    return this.versions;
  }

  /**
   * Reads the large response frames that arrive from now on into memory `allocator` hands out (a consumer's
   * fetch connections reusing response memory; frame-allocator.ts). Frames already being read are unaffected.
   */
  useFrameAllocator(allocator: FrameAllocator): void {
    this.stream.frameAllocator = allocator;
  }

  /** The version requests for `api` use: the highest both sides speak. */
  versionFor(api: ApiDef): number {
    if (this.versions === undefined) throw this.error('API versions have not been negotiated on this connection');
    return this.versions.versionFor(api);
  }

  request<A extends ApiDef>(
    api: A,
    body: RequestInput<A>,
    options: RequestOptions & { expectResponse: false },
  ): Promise<undefined>;
  request<A extends ApiDef>(api: A, body: RequestInput<A>, options?: RequestOptions): Promise<ResponseOf<A>>;
  request<A extends ApiDef>(api: A, body: RequestInput<A>, options: RequestOptions = {}): Promise<unknown> {
    return this.send(api, body, options);
  }

  /**
   * Runs `task` alone on the connection (re-authentication, KIP-368): requests made meanwhile wait until it
   * ends, and it starts only once every request already in flight has its response. The task sends through the
   * function it is given. A second exclusive task waits for the first.
   */
  async exclusive<T>(task: (request: RequestFn) => Promise<T>): Promise<T> {
    return this.gate.run(
      () => this.inFlight.size,
      () => {
        if (this.state === 'closed') throw this.closeReason ?? this.error('connection is closed');
        return task(((api: ApiDef, body: unknown, options?: RequestOptions) =>
          this.send(api, body, options ?? {}, true)) as RequestFn);
      },
    );
  }

  /** Closes the connection at once with `reason`: pending and waiting requests reject with it. */
  destroy(reason: ConnectionError): void {
    this.fail(reason);
  }

  /**
   * Closes the connection: every pending request rejects with ConnectionError, queued writes are flushed and
   * the socket is ended. Resolves when the socket is gone.
   */
  close(): Promise<void> {
    if (this.closed !== undefined) return this.closed;
    const socket = this.socket;
    this.fail(this.error('connection closed by the client'), false);
    this.closed = socket === undefined ? Promise.resolve() : endGracefully(socket);
    return this.closed;
  }

  private send(api: ApiDef, body: unknown, options: SendOptions, exclusive = false): Promise<unknown> {
    const observer = this.options.requestObserver;
    if (options.observed === undefined && requestObserved(observer)) {
      return observeRequest(this, api, this.clientId, observer, (observed) =>
        this.send(api, body, { ...options, observed }, exclusive),
      );
    }
    const paused = this.gate.closedUntil;
    if (paused !== undefined && !exclusive) return paused.then(() => this.send(api, body, options));
    return new Promise((resolve, reject) => {
      try {
        this.write(api, body, options, resolve, reject);
      } catch (err) {
        // A request refused before it is sent (an API the broker does not offer, a closed connection) settles
        // on a later turn of the event loop, never as a microtask: a caller that retries it at once would
        // otherwise spin in the microtask queue and starve every timer, its own timeouts included.
        setImmediate(reject, err);
      }
    });
  }

  /** Encodes and writes one request, registering it in flight; throws when it cannot be sent. */
  private write(
    api: ApiDef,
    body: unknown,
    options: SendOptions,
    resolve: (value: unknown) => void,
    reject: (err: unknown) => void,
  ): void {
    const signal = options.signal;
    if (signal?.aborted) throw new RequestAbortedError(api.name, undefined, signal.reason);
    if (this.state === 'closed') throw this.closeReason ?? this.error('connection is closed');
    const socket = this.socket;
    if (socket === undefined) throw this.error('connection is not open');
    const version = chooseVersion(api, this.versions, options.version, this.address);

    const correlationId = this.nextCorrelationId;
    this.nextCorrelationId = (this.nextCorrelationId + 1) & 0x7fffffff;
    const chunks = encodeRequest(api, version, correlationId, this.clientId, body);
    const observed = options.observed;
    if (observed !== undefined) noteWritten(observed, version, correlationId, chunks);

    const expectResponse = options.expectResponse !== false;
    if (expectResponse) {
      const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
      const decode = options.decode ?? responseCodec(api, version).decode;
      this.inFlight.add(
        {
          correlationId,
          apiName: api.name,
          version,
          responseHeaderVersion: responseHeaderVersion(api, version),
          decode: observed === undefined ? decode : measuredDecode(observed, decode),
          resolve: (value) => {
            resolve(value);
            this.noteSettled();
          },
          reject: (err) => {
            reject(err);
            this.noteSettled();
          },
        },
        timeoutMs,
        signal,
        () => new RequestTimeoutError(api.name, version, correlationId, timeoutMs, this.address),
        (reason) => new RequestAbortedError(api.name, correlationId, reason),
      );
    }
    // One cork/uncork makes the prefix, header and body a single vectored write.
    socket.cork();
    const last = chunks.length - 1;
    for (let i = 0; i < last; i++) socket.write(chunks[i]);
    socket.write(chunks[last], (err) => {
      if (expectResponse) return;
      if (err) reject(this.closeReason ?? this.error(`write failed: ${err.message}`, err));
      else resolve(undefined);
    });
    socket.uncork();
  }

  private noteSettled(): void {
    this.gate.settled(this.inFlight.size);
  }

  private async negotiate(): Promise<void> {
    this.versions = await negotiate(this.sendApiVersions, this.software, this.address);
  }

  /** A table that lacks an API every broker serves is asked for again (version-recheck.ts). */
  private async confirmVersions(first: BrokerApiVersions): Promise<void> {
    this.versions = await confirmVersionTable(first, () =>
      askVersionsAgain(this.sendApiVersions, this.software, first, this.address),
    );
  }

  private readonly sendApiVersions = (body: object, options: SendOptions) =>
    this.send(ApiVersions, body, options) as Promise<ResponseOf<typeof ApiVersions>>;

  private get software(): { name?: string; version?: string } {
    return { name: this.options.clientSoftwareName, version: this.options.clientSoftwareVersion };
  }

  /** Moves to closed, once: rejects everything in flight and tells listeners. */
  private fail(reason: ConnectionError, destroy = true): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.closeReason = reason;
    if (destroy) {
      this.socket?.destroy();
      this.closed ??= Promise.resolve();
    }
    this.inFlight.rejectAll(reason);
    this.emit('close', reason);
  }

  private error(message: string, cause?: unknown, retriable = true): ConnectionError {
    return new ConnectionError(
      message,
      { host: this.host, port: this.port, nodeId: this.nodeId },
      { cause, retriable },
    );
  }
}
