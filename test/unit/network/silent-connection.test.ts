import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiVersions } from '../../../protocol/apis/api-versions.js';
import { Connection } from '../../../src/network/connection.js';
import { ConnectionError, RequestTimeoutError } from '../../../src/network/errors.js';
import { closeIfTimedOut } from '../../../src/network/silent-connection.js';

/** A server that accepts and never answers: a broker behind a half-open connection. */
async function silentServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.on('error', () => {}));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const a = server.address();
  return { server, port: typeof a === 'object' && a !== null ? a.port : 0 };
}

describe('closeIfTimedOut', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.close();
  });

  async function connect(): Promise<Connection> {
    const s = await silentServer();
    server = s.server;
    return new Connection({ host: '127.0.0.1', port: s.port, negotiateVersions: false }).connect();
  }

  it('closes a connection whose request timed out; later requests fail fast with ConnectionError', async () => {
    const conn = await connect();
    const err = await conn.request(ApiVersions, {}, { version: 0, timeoutMs: 30 }).catch((e) => e);
    expect(err).toBeInstanceOf(RequestTimeoutError);
    closeIfTimedOut(conn, err);
    expect(conn.isClosed).toBe(true);
    const next = await conn.request(ApiVersions, {}, { version: 0 }).catch((e) => e);
    expect(next).toBeInstanceOf(ConnectionError);
    expect(next.message).toContain('presumed dead');
    expect(next.cause).toBe(err);
    expect(next.retriable).toBe(true);
  });

  it('leaves the connection alone for any other error, or none', async () => {
    const conn = await connect();
    closeIfTimedOut(conn, new Error('something else'));
    closeIfTimedOut(conn, new ConnectionError('elsewhere', undefined));
    closeIfTimedOut(undefined, new RequestTimeoutError('Fetch', 12, 1, 10, 'x:1'));
    expect(conn.isReady).toBe(true);
    await conn.close();
  });
});
