/**
 * One Connection against a fake server, on both read paths (connection-kit.ts): framing, request and response
 * headers, pipelining, large and trickled responses, timeouts, aborts, close, and bodies that do not decode.
 * How a connection fails as a whole is connection-failures.test.ts.
 */
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../codecs/errors.js';
import { ApiVersions } from '../../../protocol/apis/api-versions.js';
import { provideCodecs } from '../../../protocol/codec.js';
import { compileCodecTable } from '../../../protocol/compile.js';
import { defineApi, field } from '../../../protocol/schema.js';
import { ConnectionError, RequestAbortedError, RequestTimeoutError } from '../../../src/network/errors.js';
import { tcpSocketFactory } from '../../../src/network/socket.js';
import { answerMarked, choosePath, markedBody, READ_PATHS, setup, v0 } from './connection-kit.js';
import { FakeServer } from './fake-server.js';

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
