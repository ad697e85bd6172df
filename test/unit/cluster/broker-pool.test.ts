import { afterEach, describe, expect, it } from 'vitest';
import { BrokerPool } from '../../../src/cluster/broker-pool.js';
import { ConnectionError } from '../../../src/network/errors.js';
import { deadPort, FakeServer, type SeenRequest } from '../network/fake-server.js';

/** Answers ApiVersions with the two APIs every broker offers, so connections complete their handshake. */
function handshake(req: SeenRequest): void {
  const apiKeys = [
    { apiKey: 18, minVersion: 0, maxVersion: 4 },
    { apiKey: 3, minVersion: 0, maxVersion: 12 },
  ];
  const body = FakeServer.apiVersionsBody(req.version, { apiKeys });
  req.socket.write(FakeServer.frame(req.correlationId, body));
}

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

function pool(initialMs = 200): BrokerPool {
  const p = new BrokerPool({ connectTimeoutMs: 1000 }, { initialMs, maxMs: initialMs * 4 });
  cleanup.push(() => p.close());
  return p;
}

describe('BrokerPool', () => {
  it('opens one connection for concurrent callers and reuses it', async () => {
    const server = await FakeServer.start(handshake);
    cleanup.push(() => server.close());
    const p = pool();
    const address = { host: '127.0.0.1', port: server.port, nodeId: 3 };
    const [a, b] = await Promise.all([p.get(address), p.get(address)]);
    expect(a).toBe(b);
    expect(await p.get(address)).toBe(a);
    expect(a.nodeId).toBe(3);
    expect(server.sockets).toHaveLength(1);
  });

  it('replaces a connection that closed', async () => {
    const server = await FakeServer.start(handshake);
    cleanup.push(() => server.close());
    const p = pool();
    const address = { host: '127.0.0.1', port: server.port };
    const first = await p.get(address);
    server.sockets[0].destroy();
    await new Promise((resolve) => first.once('close', resolve));
    const second = await p.get(address);
    expect(second).not.toBe(first);
    expect(second.isReady).toBe(true);
    expect(p.readyConnections()).toEqual([second]);
  });

  it('waits out a backoff after a failed attempt', async () => {
    const p = pool(200);
    const address = { host: '127.0.0.1', port: await deadPort() };
    await expect(p.get(address)).rejects.toBeInstanceOf(ConnectionError);
    expect(p.backoffRemaining(address)).toBeGreaterThan(100);
    const started = Date.now();
    await expect(p.get(address)).rejects.toBeInstanceOf(ConnectionError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    // The second failure doubles the delay.
    expect(p.backoffRemaining(address)).toBeGreaterThan(250);
  });

  it('rejects a caller waiting in backoff as soon as the pool closes', async () => {
    const p = new BrokerPool({}, { initialMs: 10_000, maxMs: 10_000 });
    const address = { host: '127.0.0.1', port: await deadPort() };
    await expect(p.get(address)).rejects.toBeInstanceOf(ConnectionError);
    const waiting = p.get(address).catch((e) => e);
    const started = Date.now();
    await p.close();
    const err = await waiting;
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.retriable).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(p.get(address)).rejects.toThrow(/client is closed/);
  });
});
