import { Connection } from './connection.js';
import { ConnectionError, RequestTimeoutError } from './errors.js';

/**
 * Closes `connection` when `err` says a request on it got no response within its timeout. A connection keeps
 * working after one slow response (Connection's contract), but a broker that went silent behind a half-open
 * TCP connection never answers again, and no FIN or RST will ever tell: whoever retries on the same connection
 * waits forever. Callers whose retry would reuse the connection (fetch sources, metadata, coordinator calls)
 * close it, as Java's client does on a request timeout, so the retry opens a new one. So do the producer's
 * sender and ListOffsets.
 */
export function closeIfTimedOut(connection: { readonly isClosed: boolean } | undefined, err: unknown): void {
  // Narrow views of a connection (the producer's) are accepted; only a real one has a socket to close.
  if (!(connection instanceof Connection) || connection.isClosed || !(err instanceof RequestTimeoutError)) return;
  connection.destroy(
    new ConnectionError(
      `no response to ${err.api} within ${err.timeoutMs} ms; the connection is presumed dead`,
      { host: connection.host, port: connection.port, nodeId: connection.nodeId },
      { cause: err },
    ),
  );
}
