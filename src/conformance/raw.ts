/**
 * Raw bytes to a broker, for the error-behaviour checks: a socket opened through the suite's own security
 * settings (TLS, SASL) by a Connection, then taken over so arbitrary frames can be written and the broker's
 * reaction observed: an answer, a closed connection, or silence.
 */
import type { Socket } from 'node:net';
import { Writer } from '../../codecs/writer.js';
import { Connection } from '../network/connection.js';
import { securityOptions } from '../network/security/config.js';
import { type SocketFactory, tcpSocketFactory } from '../network/socket.js';
import type { Suite } from './suite.js';

export type RawOutcome = { kind: 'answer'; frame: Buffer } | { kind: 'closed' } | { kind: 'silent' };

/** A socket, authenticated as the suite's connections are, that nothing else reads from. */
export async function rawSocket(suite: Suite): Promise<Socket> {
  const security = securityOptions(suite.security);
  const inner: SocketFactory = security.socketFactory ?? tcpSocketFactory;
  let captured: Socket | undefined;
  const connection = new Connection({
    host: suite.bootstrap.host,
    port: suite.bootstrap.port,
    clientId: 'tidemark-conformance',
    socketFactory: async (target) => {
      // No onread: the socket must emit 'data' events for the check that takes it over (exchange below).
      captured = await inner({ ...target, onread: undefined });
      return captured;
    },
    ...(security.authenticate === undefined ? { negotiateVersions: false } : { authenticate: security.authenticate }),
  });
  await connection.connect();
  const socket = captured!;
  // The Connection handed over: from here on only the check reads and writes this socket.
  for (const event of ['data', 'close', 'error', 'end']) socket.removeAllListeners(event);
  socket.on('error', () => {});
  return socket;
}

/** Writes `bytes` and waits for one whole response frame, the socket closing, or `waitMs` of silence. */
export function exchange(socket: Socket, bytes: Buffer, waitMs = 5000): Promise<RawOutcome> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const done = (outcome: RawOutcome) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length >= 4 && buffered.length >= 4 + buffered.readInt32BE(0)) {
        done({ kind: 'answer', frame: buffered.subarray(4, 4 + buffered.readInt32BE(0)) });
      }
    };
    const onClose = () => done({ kind: 'closed' });
    const timer = setTimeout(() => done({ kind: 'silent' }), waitMs);
    socket.on('data', onData);
    socket.on('close', onClose);
    if (socket.destroyed) done({ kind: 'closed' });
    else socket.write(bytes);
  });
}

/**
 * A request header for any api key and version, followed by `body`: v1 (classic client id string), or v2 (v1
 * plus an empty tagged-field section) with `flexibleHeader`.
 */
export function rawRequest(
  apiKey: number,
  version: number,
  correlationId: number,
  body: Buffer = Buffer.alloc(0),
  flexibleHeader = false,
) {
  const w = new Writer();
  w.int16(apiKey).int16(version).int32(correlationId).string('tidemark-conformance');
  if (flexibleHeader) w.uvarint(0);
  w.raw(body);
  return frame(w.toBuffer());
}

/** The 4-byte size prefix and the payload. */
export function frame(payload: Buffer, size = payload.length): Buffer {
  const prefix = Buffer.alloc(4);
  prefix.writeInt32BE(size, 0);
  return Buffer.concat([prefix, payload]);
}

export function describeOutcome(outcome: RawOutcome): string {
  if (outcome.kind === 'answer') return `answered with a ${outcome.frame.length}-byte response`;
  return outcome.kind === 'closed' ? 'closed the connection without answering' : 'neither answered nor closed';
}
