/**
 * How a Connection fails, on both read paths: bad size prefixes (never an allocation sized by them), a response
 * over maxResponseBytes, an unknown correlation id, the broker closing or resetting mid-frame, a refused
 * connection; each a typed ConnectionError, retriable where a new connection may succeed.
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../codecs/errors.js';
import { ApiVersions } from '../../../protocol/apis/api-versions.js';
import { Connection } from '../../../src/network/connection.js';
import { ConnectionError, FrameSizeError } from '../../../src/network/errors.js';
import { choosePath, markedBody, READ_PATHS, setup, track, v0 } from './connection-kit.js';
import { FakeServer, type SeenRequest } from './fake-server.js';

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
    const conn = new Connection({
      host: '127.0.0.1',
      port: server.port,
      negotiateVersions: false,
      socketFactory: c.socketFactory,
      maxResponseBytes: 8,
    });
    track(server, conn);
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
