/**
 * The receiving half of a connection: bytes from the socket cut into frames, each matched by correlation id to
 * the request it answers and decoded for it. A frame that cannot be decoded fails only its own request (the
 * stream is still in step); a stream that lost its framing, or a peer that is not Kafka, fails the connection.
 *
 * The bytes arrive one of two ways, whichever the socket takes: read straight into the direct reader's memory
 * (`socketReads`, the `onread` option the socket factory passes on; direct-reader.ts), or as 'data' chunks cut by
 * the frame assembler (frame-assembler.ts) when the factory does not pass it on. The first bytes decide.
 */
import type { OnReadOpts, Socket } from 'node:net';
import { ProtocolError } from '../../codecs/errors.js';
import { DirectFrameReader } from './direct-reader.js';
import { type BrokerAddress, ConnectionError, FrameSizeError, NotKafkaBrokerError } from './errors.js';
import type { FrameAllocator } from './frame-allocator.js';
import { FrameAssembler } from './frame-assembler.js';
import { foreignProtocol } from './handshake.js';
import type { InFlightRequests } from './in-flight.js';
import { decodeResponse } from './wire.js';

/** What the stream needs of its connection. */
export interface StreamOwner {
  readonly broker: BrokerAddress;
  isClosed(): boolean;
  fail(reason: ConnectionError): void;
}

/**
 * A TLS broker refuses a missing or untrusted client certificate by closing the connection after the handshake.
 * OpenSSL (Node) and BoringSSL (Bun) report its alert as a socket error first; Deno's TLS may report the close
 * alone, so a close over TLS before the first answer says what it may mean.
 */
export const TLS_CLOSE_HINT =
  ' before its first answer: over TLS, this is how a broker that requires a client certificate refuses a missing' +
  ' or untrusted one (check tls.cert and tls.key)';

/** How the socket's bytes reach the stream: read into our memory, or handed over as chunks. */
type ReadPath = 'direct' | 'chunks';

export class ResponseStream {
  private readonly direct: DirectFrameReader;
  private readonly assembler: FrameAssembler;
  private path: ReadPath | undefined;
  /** Whether any frame has arrived: a first answer that is no frame may be another protocol. */
  private framesSeen = false;

  /** The `onread` option for the socket factory (SocketTarget.onread): reads go straight into the direct reader. */
  readonly socketReads: OnReadOpts = {
    buffer: () => this.direct.nextBuffer(),
    callback: (bytes) => {
      // Thrown from here, an error would escape into the socket's internals: it fails the connection instead.
      try {
        if (this.takePath('direct')) this.direct.read(bytes);
      } catch (err) {
        this.owner.fail(this.streamFailure(err));
      }
      return true;
    },
  };

  constructor(
    maxResponseBytes: number,
    private readonly inFlight: InFlightRequests,
    private readonly owner: StreamOwner,
  ) {
    const onFrame = (frame: Buffer) => this.onFrame(frame);
    this.direct = new DirectFrameReader(maxResponseBytes, onFrame);
    this.assembler = new FrameAssembler(maxResponseBytes, onFrame);
  }

  /** Where frames too large to copy out of a scratch are read into from now on (frame-allocator.ts). */
  set frameAllocator(allocator: FrameAllocator) {
    this.direct.allocator = allocator;
    this.assembler.allocator = allocator;
  }

  /** Bytes received of a response not yet complete (its size prefix included). */
  get bufferedBytes(): number {
    return this.path === 'chunks' ? this.assembler.bufferedBytes : this.direct.bufferedBytes;
  }

  attach(socket: Socket): void {
    socket.on('data', (chunk: Buffer) => {
      try {
        if (this.takePath('chunks')) this.assembler.push(chunk);
      } catch (err) {
        this.owner.fail(this.streamFailure(err));
      }
    });
    socket.on('error', (err) => this.owner.fail(this.error(`socket error: ${err.message}`, err)));
    socket.on('close', () => {
      const partial = this.bufferedBytes;
      let detail = partial > 0 ? ` in the middle of a response (${partial} bytes of it received)` : '';
      if (partial === 0 && !this.framesSeen && (socket as { encrypted?: boolean }).encrypted === true) {
        detail = TLS_CLOSE_HINT;
      }
      this.owner.fail(this.error(`connection closed by the broker${detail}`));
    });
  }

  /**
   * Why the byte stream cannot go on. A first answer whose size prefix is another protocol's bytes means no
   * Kafka broker listens here. Anything else (a size prefix below zero or above maxResponseBytes, a frame that
   * matches no request) fails every request in flight on the connection, and is retriable, as in Java's
   * client (a disconnect): which of them the bad frame belonged to cannot be told, and most are innocent. Marked
   * final, one flipped size prefix on a shared connection ended whatever was in flight for good: in the
   * corruption soak, an idempotent producer's InitProducerId, and with it the producer.
   */
  private streamFailure(err: unknown): ConnectionError {
    if (err instanceof FrameSizeError && !this.framesSeen) {
      const foreign = foreignProtocol(err.size);
      if (foreign !== undefined) return new NotKafkaBrokerError(this.owner.broker, foreign, err);
    }
    return this.error(`protocol failure: ${(err as Error).message}`, err);
  }

  /** Whether bytes arriving by `path` may be read: the first bytes fix the path, and the other never mixes in. */
  private takePath(path: ReadPath): boolean {
    if (this.path === path) return true;
    if (this.path === undefined) {
      this.path = path;
      return true;
    }
    this.owner.fail(this.error(`socket delivered bytes both through onread and as 'data' events`, undefined, false));
    return false;
  }

  private onFrame(frame: Buffer): void {
    if (this.owner.isClosed()) return;
    this.framesSeen = true;
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

  private error(message: string, cause?: unknown, retriable = true): ConnectionError {
    return new ConnectionError(message, this.owner.broker, { cause, retriable });
  }
}
