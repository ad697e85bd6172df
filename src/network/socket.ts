/** Opening and closing a connection's socket; the seam where transport security plugs in. */
import { connect as netConnect, type OnReadOpts, type Socket } from 'node:net';

export interface SocketTarget {
  host: string;
  port: number;
  /** Fails the attempt when the connection is not up within this time. */
  timeoutMs: number;
  /**
   * The connection's frame reader, to pass on as the `onread` option of `net.connect` or `tls.connect`: the socket
   * then reads straight into the reader's memory (no copy of large responses) and emits no 'data' events. A
   * factory that does not pass it on still works: the connection reads the socket's 'data' events instead.
   */
  onread?: OnReadOpts;
}

/**
 * Opens a connected socket. This is the seam where transport security plugs in: a TLS factory resolves with a
 * `tls.TLSSocket` (a `net.Socket` subclass) once the handshake is done, and the connection code is unchanged.
 */
export type SocketFactory = (target: SocketTarget) => Promise<Socket>;

/** Plain TCP with Nagle off: requests are written in one vectored write each, so coalescing only adds latency. */
export const tcpSocketFactory: SocketFactory = ({ host, port, timeoutMs, onread }) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = netConnect(
      onread === undefined ? { host, port, noDelay: true } : { host, port, noDelay: true, onread },
    );
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connect timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const onError = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      resolve(socket);
    });
  });

/** How long a graceful close waits for the peer before dropping the socket. */
const CLOSE_GRACE_MS = 1_000;

/** Flushes queued writes and ends the socket; resolves once it is gone (destroyed after a grace period). */
export function endGracefully(socket: Socket): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
    timer.unref();
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.end();
  });
}
