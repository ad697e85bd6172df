/**
 * What the Connection tests share (connection.test.ts, connection-failures.test.ts): the two read paths every
 * test runs on, a fake server with a connection to it, and closing both after each test (registered by importing
 * this module, once per test file).
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { Connection, type ConnectionOptions } from '../../../src/network/connection.js';
import { type SocketFactory, tcpSocketFactory } from '../../../src/network/socket.js';
import { FakeServer, type SeenRequest } from './fake-server.js';

/** An ApiVersions v0 body whose single entry carries `marker`, so each response can be told apart. */
export function markedBody(marker: number): Buffer {
  return FakeServer.apiVersionsBody(0, { apiKeys: [{ apiKey: marker, minVersion: 0, maxVersion: 0 }] });
}

/**
 * The two ways a connection reads its socket (src/network/response-stream.ts), every test run on each: the socket
 * reading straight into the frame reader (the default factory passes `onread` on), and 'data' chunks (a factory
 * that does not). Each counts the bytes that came its way, so a test can tell which path carried them.
 */
export interface ReadPathCase {
  path: 'direct' | 'chunks';
  bytes: { direct: number; chunks: number };
  socketFactory: SocketFactory;
}

function readPathCase(path: ReadPathCase['path']): ReadPathCase {
  const bytes = { direct: 0, chunks: 0 };
  const socketFactory: SocketFactory = async (target) => {
    if (path === 'chunks') {
      const socket = await tcpSocketFactory({ ...target, onread: undefined });
      socket.on('data', (chunk: Buffer) => {
        bytes.chunks += chunk.length;
      });
      return socket;
    }
    const reads = target.onread!;
    return tcpSocketFactory({
      ...target,
      onread: {
        buffer: reads.buffer,
        callback: (n, buffer) => {
          bytes.direct += n;
          return reads.callback(n, buffer);
        },
      },
    });
  };
  return { path, bytes, socketFactory };
}

export const READ_PATHS = [readPathCase('direct'), readPathCase('chunks')].map((c) => [c.path, c] as const);
let readPath: ReadPathCase = READ_PATHS[0][1];

/** Runs the tests of the enclosing describe on `c`'s read path, and checks no byte took the other one. */
export function choosePath(c: ReadPathCase): void {
  beforeEach(() => {
    readPath = c;
    c.bytes.direct = 0;
    c.bytes.chunks = 0;
  });
  afterEach(() => {
    // Never both: the first bytes fix the path.
    expect(c.bytes[c.path === 'direct' ? 'chunks' : 'direct']).toBe(0);
  });
}

export const v0 = { version: 0 } as const;
let servers: FakeServer[] = [];
let connections: Connection[] = [];

/** A fake server answering with `handler`, and a connection to it on the chosen read path (closed after each test). */
export async function setup(
  handler?: (req: SeenRequest, server: FakeServer) => void,
  options: Partial<ConnectionOptions> = {},
): Promise<{ server: FakeServer; conn: Connection }> {
  const server = await FakeServer.start(handler);
  servers.push(server);
  const conn = new Connection({
    host: '127.0.0.1',
    port: server.port,
    negotiateVersions: false,
    socketFactory: readPath.socketFactory,
    ...options,
  });
  connections.push(conn);
  await conn.connect();
  return { server, conn };
}

export const answerMarked = (req: SeenRequest) =>
  req.socket.write(FakeServer.frame(req.correlationId, markedBody(req.correlationId)));

/** Closes `server` and `conn` after the test, as setup()'s are. */
export function track(server: FakeServer, conn?: Connection): void {
  servers.push(server);
  if (conn !== undefined) connections.push(conn);
}

afterEach(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  connections = [];
});
