/** Connection.exclusive(): the pause that re-authentication (KIP-368) runs under. */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiVersions } from '../../../../protocol/apis/api-versions.js';
import { Connection } from '../../../../src/network/connection.js';
import { ConnectionError } from '../../../../src/network/errors.js';
import { FakeServer, type SeenRequest } from '../fake-server.js';

const v0 = { version: 0 } as const;
const body = (marker: number) =>
  FakeServer.apiVersionsBody(0, { apiKeys: [{ apiKey: marker, minVersion: 0, maxVersion: 0 }] });

let server: FakeServer | undefined;
let conn: Connection | undefined;
afterEach(async () => {
  await conn?.close();
  await server?.close();
});

/** A server that answers only when told to, so the test controls what is in flight. */
async function heldServer() {
  const held: SeenRequest[] = [];
  server = await FakeServer.start((req) => held.push(req));
  conn = await new Connection({ host: '127.0.0.1', port: server.port, negotiateVersions: false }).connect();
  const answer = (req: SeenRequest) => req.socket.write(FakeServer.frame(req.correlationId, body(req.correlationId)));
  return { held, answer, server, conn };
}

const tick = () => new Promise((r) => setTimeout(r, 30));

describe('Connection.exclusive', () => {
  it('waits for in-flight requests, holds new ones back, and runs its own requests alone', async () => {
    const { held, answer, server, conn } = await heldServer();
    const events: string[] = [];
    const a = conn.request(ApiVersions, {}, v0).then(() => events.push('a answered'));
    await server.received(1);
    const task = conn.exclusive(async (request) => {
      events.push('task started');
      await request(ApiVersions, {}, v0);
      events.push('task done');
      return 7;
    });
    const b = conn.request(ApiVersions, {}, v0).then(() => events.push('b answered'));
    await tick();
    // Only A is on the wire: the task waits for it, B waits for the task.
    expect(server.requests).toHaveLength(1);
    expect(events).toEqual([]);
    answer(held[0]);
    await server.received(2);
    await tick();
    expect(server.requests).toHaveLength(2);
    expect(events).toEqual(['a answered', 'task started']);
    answer(held[1]);
    expect(await task).toBe(7);
    await server.received(3);
    answer(held[2]);
    await Promise.all([a, b]);
    expect(events).toEqual(['a answered', 'task started', 'task done', 'b answered']);
    expect(server.requests.map((r) => r.correlationId)).toEqual([0, 1, 2]);
  });

  it('starts at once with nothing in flight; a second exclusive task waits for the first', async () => {
    const { held, answer, server, conn } = await heldServer();
    const order: number[] = [];
    const first = conn.exclusive(async (request) => {
      await request(ApiVersions, {}, v0);
      order.push(1);
    });
    const second = conn.exclusive(async () => {
      order.push(2);
    });
    await server.received(1);
    await tick();
    expect(order).toEqual([]);
    answer(held[0]);
    await Promise.all([first, second]);
    expect(order).toEqual([1, 2]);
  });

  it('rejects held-back requests with the reason when the task destroys the connection', async () => {
    const { conn } = await heldServer();
    const reason = new ConnectionError(
      're-authentication failed',
      { host: '127.0.0.1', port: 1 },
      { retriable: false },
    );
    const task = conn.exclusive(async () => {
      await tick();
      conn.destroy(reason);
    });
    const waiting = conn.request(ApiVersions, {}, v0);
    await task;
    await expect(waiting).rejects.toBe(reason);
    expect(conn.isClosed).toBe(true);
  });
});
