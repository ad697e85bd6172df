import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../codecs/errors.js';
import { ApiVersions } from '../../../protocol/apis/api-versions.js';
import { provideCodecs } from '../../../protocol/codec.js';
import { compileCodecTable } from '../../../protocol/compile.js';
import { defineApi, field } from '../../../protocol/schema.js';
import { Connection, type ConnectionOptions } from '../../../src/network/connection.js';
import {
  ConnectionError,
  FrameSizeError,
  RequestAbortedError,
  RequestTimeoutError,
} from '../../../src/network/errors.js';
import { type SocketFactory, tcpSocketFactory } from '../../../src/network/socket.js';
import { FakeServer, type SeenRequest } from './fake-server.js';

/** A flexible API that only this test speaks, to exercise request header v2 and response header v1. */
const Echo = defineApi({
  name: 'Echo',
  key: 9000,
  versions: '0-1',
  flexible: '1+',
  request: [field('value', 'int32', '0+')],
  response: [field('value', 'int32', '0+')],
});
// Not a generated API: its codecs are compiled here, as only tests may.
provideCodecs(Echo.request, compileCodecTable(Echo.request));
provideCodecs(Echo.response, compileCodecTable(Echo.response));

function echoBody(value: number): Buffer {
  const b = Buffer.alloc(5);
  b.writeInt32BE(value, 0); // then an empty tag section
  return b;
}

/** An ApiVersions v0 body whose single entry carries `marker`, so each response can be told apart. */
function markedBody(marker: number): Buffer {
  return FakeServer.apiVersionsBody(0, { apiKeys: [{ apiKey: marker, minVersion: 0, maxVersion: 0 }] });
}

/**
 * The two ways a connection reads its socket (src/network/response-stream.ts), every test run on each: the socket
 * reading straight into the frame reader (the default factory passes `onread` on), and 'data' chunks (a factory
 * that does not). Each counts the bytes that came its way, so a test can tell which path carried them.
 */
interface ReadPathCase {
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

const READ_PATHS = [readPathCase('direct'), readPathCase('chunks')].map((c) => [c.path, c] as const);
let readPath: ReadPathCase = READ_PATHS[0][1];

function choosePath(c: ReadPathCase): void {
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

const v0 = { version: 0 } as const;
let servers: FakeServer[] = [];
let connections: Connection[] = [];

async function setup(
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

const answerMarked = (req: SeenRequest) =>
  req.socket.write(FakeServer.frame(req.correlationId, markedBody(req.correlationId)));

afterEach(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  connections = [];
});

describe.each(READ_PATHS)('Connection transport, %s read path', (_name, c) => {
  choosePath(c);

  it(`reads its responses by the ${c.path} path`, async () => {
    const { conn } = await setup(answerMarked);
    await conn.request(ApiVersions, {}, v0);
    expect(c.bytes[c.path]).toBeGreaterThan(0);
  });

  it('writes the size prefix, request header v1 and body, and reads the response', async () => {
    const { server, conn } = await setup(answerMarked, { clientId: 'my-app' });
    const res = await conn.request(ApiVersions, {}, v0);
    const [req] = server.requests;
    expect(req).toMatchObject({ apiKey: 18, version: 0, correlationId: 0, clientId: 'my-app' });
    expect(req.rest.length).toBe(0);
    expect(res.apiKeys).toEqual([{ apiKey: 0, minVersion: 0, maxVersion: 0 }]);
  });

  it('uses request header v2 and response header v1 for flexible versions', async () => {
    const { server, conn } = await setup((req) => {
      const value = req.rest.readInt32BE(1);
      req.socket.write(FakeServer.frame(req.correlationId, echoBody(value + 1), 1));
    });
    const res = await conn.request(Echo, { value: 41 }, { version: 1 });
    expect(res.value).toBe(42);
    // Header v2 appends an empty tag section after the client id; the flexible body ends with its own.
    expect(server.requests[0].rest.toString('hex')).toBe('00' + '00000029' + '00');
    expect(server.requests[0].clientId).toBe('tidemark');
  });

  it('sends a null client id when asked to', async () => {
    const { server, conn } = await setup(answerMarked, { clientId: null });
    await conn.request(ApiVersions, {}, v0);
    expect(server.requests[0].clientId).toBeNull();
  });

  it('matches many pipelined requests to responses that arrive in reverse order', async () => {
    const { server, conn } = await setup();
    const pending = Array.from({ length: 50 }, () => conn.request(ApiVersions, {}, v0));
    const requests = await server.received(50);
    expect(conn.pendingRequests).toBe(50);
    const reply = Buffer.concat(
      [...requests].reverse().map((r) => FakeServer.frame(r.correlationId, markedBody(r.correlationId))),
    );
    requests[0].socket.write(reply);
    const results = await Promise.all(pending);
    expect(results.map((res) => res.apiKeys[0].apiKey)).toEqual(requests.map((r) => r.correlationId));
    expect(new Set(requests.map((r) => r.correlationId)).size).toBe(50);
  });

  it('reassembles responses written a few bytes at a time', async () => {
    const { server, conn } = await setup();
    const pending = [conn.request(ApiVersions, {}, v0), conn.request(ApiVersions, {}, v0)];
    const requests = await server.received(2);
    const bytes = Buffer.concat(
      requests.map((r) => FakeServer.frame(r.correlationId, markedBody(r.correlationId + 7))),
    );
    for (let i = 0; i < bytes.length; i += 3) {
      requests[0].socket.write(bytes.subarray(i, i + 3));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const [a, b] = await Promise.all(pending);
    expect(a.apiKeys[0].apiKey).toBe(7);
    expect(b.apiKeys[0].apiKey).toBe(8);
  });

  it('reads a 1.2 MB response between small ones, many socket reads each, in step', async () => {
    const { server, conn } = await setup();
    const pending = [0, 1, 2].map(() => conn.request(ApiVersions, {}, v0));
    const requests = await server.received(3);
    const entries = 200_000;
    const big = FakeServer.apiVersionsBody(0, {
      apiKeys: Array.from({ length: entries }, (_, i) => ({ apiKey: i & 0x7fff, minVersion: 0, maxVersion: i >> 15 })),
    });
    const bytes = Buffer.concat([
      FakeServer.frame(requests[0].correlationId, markedBody(5)),
      FakeServer.frame(requests[1].correlationId, big),
      FakeServer.frame(requests[2].correlationId, markedBody(6)),
    ]);
    for (let i = 0; i < bytes.length; i += 300_000) requests[0].socket.write(bytes.subarray(i, i + 300_000));
    const [a, b, d] = await Promise.all(pending);
    expect(a.apiKeys[0].apiKey).toBe(5);
    expect(b.apiKeys).toHaveLength(entries);
    expect(b.apiKeys[entries - 1]).toEqual({ apiKey: (entries - 1) & 0x7fff, minVersion: 0, maxVersion: 6 });
    expect(d.apiKeys[0].apiKey).toBe(6);
  });

  it('times a request out, keeps the connection, and drops the late response', async () => {
    const { server, conn } = await setup();
    const slow = conn.request(ApiVersions, {}, { version: 0, timeoutMs: 30 });
    const err = await slow.catch((e) => e);
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect(err).toMatchObject({ api: 'ApiVersions', correlationId: 0, timeoutMs: 30, retriable: true });
    const [late] = await server.received(1);
    const next = conn.request(ApiVersions, {}, v0);
    const requests = await server.received(2);
    late.socket.write(FakeServer.frame(late.correlationId, markedBody(99)));
    late.socket.write(FakeServer.frame(requests[1].correlationId, markedBody(5)));
    expect((await next).apiKeys[0].apiKey).toBe(5);
    expect(conn.isReady).toBe(true);
  });

  it('rejects an aborted request and leaves the others in flight', async () => {
    const { server, conn } = await setup();
    const controller = new AbortController();
    const aborted = conn.request(ApiVersions, {}, { version: 0, signal: controller.signal });
    const other = conn.request(ApiVersions, {}, v0);
    const requests = await server.received(2);
    controller.abort(new Error('user gave up'));
    const err = await aborted.catch((e) => e);
    expect(err).toBeInstanceOf(RequestAbortedError);
    expect(err.cause).toEqual(new Error('user gave up'));
    requests[0].socket.write(
      Buffer.concat(requests.map((r) => FakeServer.frame(r.correlationId, markedBody(r.correlationId)))),
    );
    expect((await other).apiKeys[0].apiKey).toBe(requests[1].correlationId);
  });

  it('does not send a request whose signal is already aborted', async () => {
    const { server, conn } = await setup(answerMarked);
    const err = await conn.request(ApiVersions, {}, { version: 0, signal: AbortSignal.abort() }).catch((e) => e);
    expect(err).toBeInstanceOf(RequestAbortedError);
    await conn.request(ApiVersions, {}, v0);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects pending requests with ConnectionError on close, and later requests too', async () => {
    const { server, conn } = await setup();
    const pending = conn.request(ApiVersions, {}, v0).catch((e) => e);
    await server.received(1);
    await conn.close();
    const err = await pending;
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.broker).toBe(`127.0.0.1:${server.port}`);
    expect(conn.isClosed).toBe(true);
    await expect(conn.request(ApiVersions, {}, v0)).rejects.toBeInstanceOf(ConnectionError);
  });

  it('sends a request that expects no response and resolves once written', async () => {
    const { server, conn } = await setup();
    const res = await conn.request(Echo, { value: 1 }, { version: 0, expectResponse: false });
    expect(res).toBeUndefined();
    await server.received(1);
    expect(conn.pendingRequests).toBe(0);
  });

  it('fails one request whose body does not decode, and keeps serving the rest', async () => {
    const { server, conn } = await setup();
    const bad = conn.request(ApiVersions, {}, v0);
    const good = conn.request(ApiVersions, {}, v0);
    const [r1, r2] = await server.received(2);
    r1.socket.write(FakeServer.frame(r1.correlationId, markedBody(1).subarray(0, 5)));
    r1.socket.write(FakeServer.frame(r2.correlationId, markedBody(2)));
    const err = await bad.catch((e) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect(err.api).toBe('ApiVersionsResponse');
    expect((await good).apiKeys[0].apiKey).toBe(2);
  });

  it('fails a request whose response has bytes left over after the body', async () => {
    const { conn } = await setup((req) =>
      req.socket.write(FakeServer.frame(req.correlationId, Buffer.concat([markedBody(1), Buffer.from([0])]))),
    );
    await expect(conn.request(ApiVersions, {}, v0)).rejects.toThrow(/1 bytes left over/);
  });
});

describe('Connection read paths', () => {
  it('fails the connection, as not retriable, when a socket delivers bytes both through onread and as data', async () => {
    let socket: Socket | undefined;
    const { conn } = await setup(answerMarked, {
      socketFactory: async (target) => {
        socket = await tcpSocketFactory(target);
        return socket;
      },
    });
    await conn.request(ApiVersions, {}, v0);
    const closed = new Promise<ConnectionError>((resolve) => conn.once('close', resolve));
    socket!.emit('data', FakeServer.frame(0, markedBody(1)));
    const reason = await closed;
    expect(reason.message).toMatch(/both through onread and as 'data' events/);
    expect(reason.retriable).toBe(false);
  });
});

describe.each(READ_PATHS)('Connection failures, %s read path', (_name, c) => {
  choosePath(c);

  async function failureOf(reply: (req: SeenRequest) => void): Promise<{ err: ConnectionError; conn: Connection }> {
    const { conn } = await setup(reply);
    const err = await conn.request(ApiVersions, {}, v0).catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(conn.isClosed).toBe(true);
    return { err, conn };
  }

  it('fails on a 2 GiB size prefix without allocating for it', async () => {
    const before = process.memoryUsage().arrayBuffers;
    const { err } = await failureOf((req) => req.socket.write(Buffer.from([0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0])));
    expect(err.cause).toBeInstanceOf(FrameSizeError);
    // Retriable: the requests in flight with it may succeed on a new connection (see response-stream.ts).
    expect(err.retriable).toBe(true);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 * 1024 * 1024);
  });

  it('fails on a negative size prefix', async () => {
    const { err } = await failureOf((req) => req.socket.write(Buffer.from([0x80, 0, 0, 0])));
    expect(err.cause).toBeInstanceOf(FrameSizeError);
    expect((err.cause as FrameSizeError).size).toBe(-(2 ** 31));
  });

  it('fails on a response larger than maxResponseBytes', async () => {
    const server = await FakeServer.start((req) =>
      req.socket.write(FakeServer.frame(req.correlationId, markedBody(1))),
    );
    servers.push(server);
    const conn = new Connection({
      host: '127.0.0.1',
      port: server.port,
      negotiateVersions: false,
      socketFactory: c.socketFactory,
      maxResponseBytes: 8,
    });
    connections.push(conn);
    await conn.connect();
    const err = await conn.request(ApiVersions, {}, v0).catch((e) => e);
    expect(err.cause).toBeInstanceOf(FrameSizeError);
    expect(err.cause.maxBytes).toBe(8);
  });

  it('fails the connection on a response for an unknown correlation id', async () => {
    const { err } = await failureOf((req) =>
      req.socket.write(FakeServer.frame(req.correlationId + 1000, markedBody(1))),
    );
    expect(err.cause).toBeInstanceOf(ProtocolError);
    expect(err.message).toMatch(/correlation id 1000 matches no request/);
    expect(err.retriable).toBe(true);
  });

  it('fails every pending request when the server closes mid-frame', async () => {
    const { server, conn } = await setup();
    const pending = [conn.request(ApiVersions, {}, v0), conn.request(ApiVersions, {}, v0)];
    const [req] = await server.received(2);
    req.socket.end(FakeServer.frame(req.correlationId, markedBody(1)).subarray(0, 9));
    const errors = await Promise.all(pending.map((p) => p.catch((e) => e)));
    for (const err of errors) {
      expect(err).toBeInstanceOf(ConnectionError);
      expect(err.retriable).toBe(true);
      expect(err.message).toMatch(/closed by the broker in the middle of a response \(9 bytes/);
    }
  });

  it('counts the bytes received of a large response cut off mid-frame', async () => {
    const { server, conn } = await setup();
    const pending = conn.request(ApiVersions, {}, v0);
    const [req] = await server.received(1);
    const big = FakeServer.apiVersionsBody(0, {
      apiKeys: Array.from({ length: 100_000 }, (_, i) => ({ apiKey: i & 0x7fff, minVersion: 0, maxVersion: 0 })),
    });
    req.socket.end(FakeServer.frame(req.correlationId, big).subarray(0, 250_001));
    const err = await pending.catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.message).toMatch(/closed by the broker in the middle of a response \(250001 bytes/);
  });

  it('fails pending requests when the socket is reset', async () => {
    const { err } = await failureOf((req) => req.socket.resetAndDestroy());
    expect(err.retriable).toBe(true);
  });

  it('emits close with the reason', async () => {
    const { server, conn } = await setup();
    const closed = new Promise((resolve) => conn.once('close', resolve));
    const pending = conn.request(ApiVersions, {}, v0).catch(() => {});
    const [req] = await server.received(1);
    req.socket.destroy();
    expect(await closed).toBeInstanceOf(ConnectionError);
    await pending;
  });

  it('reports a refused connection as a retriable ConnectionError', async () => {
    const server = await FakeServer.start();
    const port = server.port;
    await server.close();
    const err = await new Connection({ host: '127.0.0.1', port }).connect().catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.retriable).toBe(true);
    expect(err.message).toMatch(/could not connect/);
  });
});
