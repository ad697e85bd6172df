/**
 * The receiving half of a connection: bytes from the socket cut into frames, each matched by correlation id to
 * the request it answers and decoded for it. A frame that cannot be decoded fails only its own request (the
 * stream is still in step); a stream that lost its framing, or a peer that is not Kafka, fails the connection.
 */
import type { Socket } from 'node:net';
import { ProtocolError } from '../../codecs/errors.js';
import { type BrokerAddress, ConnectionError, FrameSizeError, NotKafkaBrokerError } from './errors.js';
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

export class ResponseStream {
  private readonly assembler: FrameAssembler;
  /** Whether any frame has arrived: a first answer that is no frame may be another protocol. */
  private framesSeen = false;

  constructor(
    maxResponseBytes: number,
    private readonly inFlight: InFlightRequests,
    private readonly owner: StreamOwner,
  ) {
    this.assembler = new FrameAssembler(maxResponseBytes, (frame) => this.onFrame(frame));
  }

  attach(socket: Socket): void {
    socket.on('data', (chunk: Buffer) => {
      try {
        this.assembler.push(chunk);
      } catch (err) {
        this.owner.fail(this.streamFailure(err));
      }
    });
    socket.on('error', (err) => this.owner.fail(this.error(`socket error: ${err.message}`, err)));
    socket.on('close', () => {
      const partial = this.assembler.bufferedBytes;
      let detail = partial > 0 ? ` in the middle of a response (${partial} bytes of it received)` : '';
      if (partial === 0 && !this.framesSeen && (socket as { encrypted?: boolean }).encrypted === true) {
        detail = TLS_CLOSE_HINT;
      }
      this.owner.fail(this.error(`connection closed by the broker${detail}`));
    });
  }

  /**
   * Why the byte stream cannot go on. A first answer whose size prefix is another protocol's bytes means no
   * Kafka broker listens here. Anything else — a size prefix below zero or above maxResponseBytes, a frame that
   * matches no request — fails every request in flight on the connection, and is retriable, as in Java's
   * client (a disconnect): which of them the bad frame belonged to cannot be told, and most are innocent. Marked
   * final, one flipped size prefix on a shared connection ended whatever was in flight for good — in the
   * corruption soak, an idempotent producer's InitProducerId, and with it the producer.
   */
  private streamFailure(err: unknown): ConnectionError {
    if (err instanceof FrameSizeError && !this.framesSeen) {
      const foreign = foreignProtocol(err.size);
      if (foreign !== undefined) return new NotKafkaBrokerError(this.owner.broker, foreign, err);
    }
    return this.error(`protocol failure: ${(err as Error).message}`, err);
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
