import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { ProtocolError, type TidemarkError } from '../../codecs/errors.js';
import type { Reader } from '../../codecs/reader.js';
import { ApiVersions } from '../../protocol/apis/api-versions.js';
import { responseCodec } from '../../protocol/codec.js';
import { responseHeaderVersion } from '../../protocol/headers.js';
import type { ApiDef, RequestInput, ResponseOf } from '../../protocol/schema.js';
import { apiVersionsDecoder, type BrokerApiVersions, chooseVersion, negotiateApiVersions } from './api-versions.js';
import { CLIENT_SOFTWARE_NAME, CLIENT_SOFTWARE_VERSION, softwareToken } from './client-software.js';
import { ConnectionError, FrameSizeError, formatAddress, RequestAbortedError, RequestTimeoutError } from './errors.js';
import { FrameAssembler } from './frame-assembler.js';
import { InFlightRequests } from './in-flight.js';
import { type SocketFactory, tcpSocketFactory } from './socket.js';
import { decodeResponse, encodeRequest } from './wire.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 100 * 1024 * 1024;
export const DEFAULT_CLIENT_ID = 'tidemark';
/** How long a graceful close waits for the peer before dropping the socket. */
const CLOSE_GRACE_MS = 1_000;

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
}

export interface RequestOptions {
  /** Sends this version instead of the negotiated one; it must lie in both sides' ranges. */
  version?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** False for requests the broker never answers (Produce with acks=0): resolves once written. */
  expectResponse?: boolean;
}

interface SendOptions extends RequestOptions {
  decode?: (r: Reader) => unknown;
}

type State = 'new' | 'connecting' | 'ready' | 'closed';

/** Sends one request; what `exclusive()` hands its task (and what SASL runs over). */
export type RequestFn = <A extends ApiDef>(
  api: A,
  body: RequestInput<A>,
  options?: RequestOptions,
) => Promise<ResponseOf<A>>;

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
  private readonly assembler: FrameAssembler;
  private socket: Socket | undefined;
  private state: State = 'new';
  private nextCorrelationId = 0;
  private versions: BrokerApiVersions | undefined;
  private closeReason: ConnectionError | undefined;
  private closed: Promise<void> | undefined;
  /** Set while an exclusive task runs: other requests wait for it. */
  private paused: Promise<void> | undefined;
  /** Called when the last in-flight request settles, while an exclusive task waits to start. */
  private drained: (() => void) | undefined;

  constructor(options: ConnectionOptions) {
    super();
    this.options = options;
    this.host = options.host;
    this.port = options.port;
    this.nodeId = options.nodeId;
    this.address = formatAddress(options.host, options.port);
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.clientId = options.clientId === undefined ? DEFAULT_CLIENT_ID : options.clientId;
    this.assembler = new FrameAssembler(options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, (frame) =>
      this.onFrame(frame),
    );
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
    this.attach(socket);
    try {
      if (this.options.negotiateVersions !== false) await this.negotiate();
      await this.options.authenticate?.(this);
    } catch (err) {
      const reason =
        err instanceof ConnectionError
          ? err
          : this.error(`handshake failed: ${(err as Error).message}`, err, (err as TidemarkError).retriable ?? true);
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
    while (this.paused !== undefined) await this.paused;
    let release = () => {};
    this.paused = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      if (this.inFlight.size > 0) {
        await new Promise<void>((resolve) => {
          this.drained = resolve;
        });
      }
      if (this.state === 'closed') throw this.closeReason ?? this.error('connection is closed');
      return await task(((api: ApiDef, body: unknown, options?: RequestOptions) =>
        this.send(api, body, options ?? {}, true)) as RequestFn);
    } finally {
      this.paused = undefined;
      this.drained = undefined;
      release();
    }
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
    this.closed =
      socket === undefined || socket.destroyed
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
            timer.unref();
            socket.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            socket.end();
          });
    return this.closed;
  }

  private send(api: ApiDef, body: unknown, options: SendOptions, exclusive = false): Promise<unknown> {
    const paused = this.paused;
    if (paused !== undefined && !exclusive) return paused.then(() => this.send(api, body, options));
    return new Promise((resolve, reject) => {
      const signal = options.signal;
      if (signal?.aborted) throw new RequestAbortedError(api.name, undefined, signal.reason);
      if (this.state === 'closed') throw this.closeReason ?? this.error('connection is closed');
      const socket = this.socket;
      if (socket === undefined) throw this.error('connection is not open');
      const version = chooseVersion(api, this.versions, options.version, this.address);

      const correlationId = this.nextCorrelationId;
      this.nextCorrelationId = (this.nextCorrelationId + 1) & 0x7fffffff;
      const chunks = encodeRequest(api, version, correlationId, this.clientId, body);

      const expectResponse = options.expectResponse !== false;
      if (expectResponse) {
        const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
        this.inFlight.add(
          {
            correlationId,
            apiName: api.name,
            version,
            responseHeaderVersion: responseHeaderVersion(api, version),
            decode: options.decode ?? responseCodec(api, version).decode,
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
    });
  }

  private noteSettled(): void {
    if (this.drained !== undefined && this.inFlight.size === 0) this.drained();
  }

  private async negotiate(): Promise<void> {
    const body = {
      clientSoftwareName: softwareToken(this.options.clientSoftwareName ?? CLIENT_SOFTWARE_NAME),
      clientSoftwareVersion: softwareToken(this.options.clientSoftwareVersion ?? CLIENT_SOFTWARE_VERSION),
    };
    this.versions = await negotiateApiVersions(
      (version) =>
        this.send(ApiVersions, version >= 3 ? body : {}, {
          version,
          decode: apiVersionsDecoder(version),
        }) as Promise<ResponseOf<typeof ApiVersions>>,
      this.address,
    );
  }

  private attach(socket: Socket): void {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      try {
        this.assembler.push(chunk);
      } catch (err) {
        // A bad size prefix would recur on a new connection; a desynchronised stream need not.
        const retriable = !(err instanceof FrameSizeError);
        this.fail(this.error(`protocol failure: ${(err as Error).message}`, err, retriable));
      }
    });
    socket.on('error', (err) => this.fail(this.error(`socket error: ${err.message}`, err)));
    socket.on('close', () => {
      const partial = this.assembler.bufferedBytes;
      const detail = partial > 0 ? ` in the middle of a response (${partial} bytes of it received)` : '';
      this.fail(this.error(`connection closed by the broker${detail}`));
    });
  }

  private onFrame(frame: Buffer): void {
    if (this.state === 'closed') return;
    if (frame.length < 4) throw new ProtocolError(`response frame of ${frame.length} bytes has no correlation id`);
    const correlationId = frame.readInt32BE(0);
    const pending = this.inFlight.take(correlationId);
    if (pending === undefined) {
      if (this.inFlight.takeAbandoned(correlationId)) return;
      throw new ProtocolError(`response for correlation id ${correlationId} matches no request in flight`);
    }
    let value: unknown;
    try {
      value = decodeResponse(frame, pending.responseHeaderVersion, pending.decode);
    } catch (err) {
      const context = { api: `${pending.apiName}Response`, version: pending.version };
      pending.reject(err instanceof ProtocolError ? err.withContext(context) : (err as Error));
      return;
    }
    pending.resolve(value);
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
