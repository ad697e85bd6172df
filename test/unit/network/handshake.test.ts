import { afterEach, describe, expect, it } from 'vitest';
import { Connection } from '../../../src/network/connection.js';
import { ConnectionError, NotKafkaBrokerError } from '../../../src/network/errors.js';
import { foreignProtocol } from '../../../src/network/handshake.js';
import { type SocketFactory, tcpSocketFactory } from '../../../src/network/socket.js';
import { FakeServer } from './fake-server.js';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

async function connectError(
  answer: (correlationId: number) => Buffer,
  socketFactory?: SocketFactory,
): Promise<unknown> {
  const server = await FakeServer.start((req) => req.socket.write(answer(req.correlationId)));
  cleanup.push(() => server.close());
  const conn = new Connection({ host: '127.0.0.1', port: server.port, requestTimeoutMs: 2_000, socketFactory });
  const err = await conn.connect().catch((e) => e);
  expect(conn.isClosed).toBe(true);
  return err;
}

describe('the handshake', () => {
  it('a garbled ApiVersions answer closes the connection with a retriable error', async () => {
    const err = await connectError((id) => FakeServer.frame(id, Buffer.from([0x00])));
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).message).toMatch(/handshake failed: .*ApiVersionsResponse/);
    expect((err as ConnectionError).retriable).toBe(true);
  });

  it('an impossible size prefix during the handshake is retriable too', async () => {
    const err = await connectError(() => Buffer.from([0x7f, 0xff, 0xff, 0x00]));
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).retriable).toBe(true);
  });

  // Both read paths (src/network/response-stream.ts): the default factory's onread, and 'data' chunks.
  const chunksOnly: SocketFactory = (target) => tcpSocketFactory({ ...target, onread: undefined });
  it.each([
    ['direct', undefined],
    ['chunks', chunksOnly],
  ])('an HTTP server is "not a Kafka broker", not an oversized response (%s read path)', async (_path, factory) => {
    const http = () => Buffer.from('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
    const err = await connectError(http, factory);
    expect(err).toBeInstanceOf(NotKafkaBrokerError);
    expect((err as Error).message).toMatch(/not a Kafka broker: it answered with text beginning "HTTP"/);
    expect((err as NotKafkaBrokerError).retriable).toBe(false);
  });

  it('tells TLS records and text from a bad size', () => {
    expect(foreignProtocol(0x15030300)).toMatch(/TLS/);
    expect(foreignProtocol(0x53534820)).toMatch(/"SSH "/);
    expect(foreignProtocol(0x7fffffff)).toBeUndefined();
    expect(foreignProtocol(-1)).toBeUndefined();
  });
});
