/**
 * The fault proxy against local frame servers that answer each Kafka-framed request (size, api key, api
 * version, correlation id, payload) with a response (size, correlation id, payload): each fault does what it
 * claims, and only to the traffic it claims.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FaultProxy } from '../../harness/fault-proxy.js';

/** A server that answers every request frame with `tag` + its payload, under the request's correlation id. */
async function frameServer(tag: string): Promise<{ server: Server; address: string }> {
  const server = createServer((socket) => {
    let pending = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        const frame = pending.subarray(4, 4 + pending.readInt32BE(0));
        pending = pending.subarray(4 + frame.length);
        const body = Buffer.concat([Buffer.from(tag), frame.subarray(8)]);
        const out = Buffer.alloc(8);
        out.writeInt32BE(4 + body.length, 0);
        out.writeInt32BE(frame.readInt32BE(4), 4);
        socket.write(Buffer.concat([out, body]));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const a = server.address();
  return { server, address: `127.0.0.1:${typeof a === 'object' && a !== null ? a.port : 0}` };
}

function request(apiKey: number, correlationId: number, payload: string): Buffer {
  const body = Buffer.from(payload);
  const b = Buffer.alloc(12);
  b.writeInt32BE(8 + body.length, 0);
  b.writeInt16BE(apiKey, 4);
  b.writeInt16BE(0, 6);
  b.writeInt32BE(correlationId, 8);
  return Buffer.concat([b, body]);
}

/** A client over the proxy that collects what arrives and how the socket ended. */
class Probe {
  received = Buffer.alloc(0);
  ended: 'open' | 'end' | 'reset' | 'closed' = 'open';
  private constructor(readonly socket: Socket) {
    socket.on('data', (c) => {
      this.received = Buffer.concat([this.received, c]);
    });
    socket.on('end', () => {
      if (this.ended === 'open') this.ended = 'end';
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET') this.ended = 'reset';
    });
    socket.on('close', () => {
      if (this.ended === 'open') this.ended = 'closed';
    });
  }

  static async open(proxy: FaultProxy, broker: string): Promise<Probe> {
    const i = broker.lastIndexOf(':');
    const socket = await proxy.socketFactory({
      host: broker.slice(0, i),
      port: Number(broker.slice(i + 1)),
      timeoutMs: 2_000,
    });
    return new Probe(socket);
  }

  /** Response payloads received complete, in order. */
  responses(): string[] {
    const out: string[] = [];
    let rest = this.received;
    while (rest.length >= 4 && rest.length >= 4 + rest.readInt32BE(0)) {
      out.push(rest.subarray(8, 4 + rest.readInt32BE(0)).toString());
      rest = rest.subarray(4 + rest.readInt32BE(0));
    }
    return out;
  }
}

async function until(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('FaultProxy', () => {
  let a: { server: Server; address: string };
  let b: { server: Server; address: string };
  let proxy: FaultProxy;
  beforeEach(async () => {
    a = await frameServer('A:');
    b = await frameServer('B:');
    proxy = await FaultProxy.start(a.address);
  });
  afterEach(async () => {
    await proxy.stop();
    a.server.close();
    b.server.close();
  });

  it('forwards frames both ways and routes each broker address to its own listener', async () => {
    const pa = await Probe.open(proxy, a.address);
    const pb = await Probe.open(proxy, b.address);
    pa.socket.write(request(1, 7, 'one'));
    pb.socket.write(Buffer.concat([request(1, 8, 'two'), request(3, 9, 'three')]));
    await until(() => pa.responses().length === 1 && pb.responses().length === 2);
    expect(pa.responses()).toEqual(['A:one']);
    expect(pb.responses()).toEqual(['B:two', 'B:three']);
    expect(await proxy.addressFor(a.address)).not.toBe(await proxy.addressFor(b.address));
    expect(proxy.stats.connections).toBe(2);
  });

  it('adds latency per direction, keeping order', async () => {
    proxy.latencyToClientMs = 150;
    const p = await Probe.open(proxy, a.address);
    const started = Date.now();
    p.socket.write(request(1, 1, 'x'));
    p.socket.write(request(1, 2, 'y'));
    await until(() => p.responses().length === 2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(p.responses()).toEqual(['A:x', 'A:y']);
    proxy.heal();
    const again = Date.now();
    p.socket.write(request(1, 3, 'z'));
    await until(() => p.responses().length === 3);
    expect(Date.now() - again).toBeLessThan(140);
  });

  it('drops every live connection on demand', async () => {
    const p1 = await Probe.open(proxy, a.address);
    const p2 = await Probe.open(proxy, b.address);
    await until(() => proxy.openConnections === 2);
    expect(proxy.dropAll()).toBe(2);
    await until(() => p1.ended !== 'open' && p2.ended !== 'open');
    expect(proxy.openConnections).toBe(0);
  });

  it('half-open: nothing is forwarded either way and nothing is closed; new connections work', async () => {
    const stuck = await Probe.open(proxy, a.address);
    await until(() => proxy.openConnections === 1);
    expect(proxy.halfOpenAll()).toBe(1);
    stuck.socket.write(request(1, 1, 'lost'));
    const fresh = await Probe.open(proxy, a.address);
    fresh.socket.write(request(1, 1, 'fine'));
    await until(() => fresh.responses().length === 1);
    await pause(150);
    expect(stuck.responses()).toEqual([]);
    expect(stuck.ended).toBe('open');
  });

  it('blackholes new connections only: they connect but get no answer', async () => {
    const before = await Probe.open(proxy, a.address);
    proxy.blackhole = true;
    const hole = await Probe.open(proxy, a.address);
    hole.socket.write(request(1, 1, 'void'));
    before.socket.write(request(1, 1, 'ok'));
    await until(() => before.responses().length === 1);
    await pause(150);
    expect(hole.responses()).toEqual([]);
    expect(hole.ended).toBe('open');
    expect(proxy.stats.blackholed).toBe(1);
  });

  it('truncates the next response of an api key: part of the frame, then a FIN', async () => {
    proxy.truncateNextResponse({ apiKey: 1, keepBytes: 6 });
    const p = await Probe.open(proxy, a.address);
    p.socket.write(request(3, 1, 'untouched'));
    p.socket.write(request(1, 2, 'cut-short-here'));
    await until(() => p.ended !== 'open');
    expect(p.ended).toBe('end');
    expect(p.responses()).toEqual(['A:untouched']);
    // The untouched frame, then the size prefix and 6 bytes of the truncated one.
    expect(p.received.length).toBe(4 + 4 + 'A:untouched'.length + 4 + 6);
    expect(proxy.stats.truncated).toBe(1);
  });

  it('resets the connection in the middle of the next response (RST)', async () => {
    proxy.resetNextResponse();
    const p = await Probe.open(proxy, a.address);
    p.socket.write(request(1, 1, 'a-fairly-long-payload'));
    await until(() => p.ended !== 'open');
    expect(p.ended).toBe('reset');
    expect(p.responses()).toEqual([]);
    expect(proxy.stats.reset).toBe(1);
  });

  it('lets a hook keyed by api key cut the connection instead of forwarding a response', async () => {
    let lose = 1;
    proxy.onResponse(0, (r) => {
      expect(r.apiKey).toBe(0);
      return lose-- > 0 ? 'cut' : 'forward';
    });
    const p = await Probe.open(proxy, a.address);
    p.socket.write(request(3, 1, 'metadata'));
    p.socket.write(request(0, 2, 'produce'));
    await until(() => p.ended !== 'open');
    expect(p.responses()).toEqual(['A:metadata']);
    const q = await Probe.open(proxy, a.address);
    q.socket.write(request(0, 3, 'produce-again'));
    await until(() => q.responses().length === 1);
    expect(q.responses()).toEqual(['A:produce-again']);
    expect(proxy.stats.cut).toBe(1);
  });
});
