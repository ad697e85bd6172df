/**
 * A request the connection refuses before sending it must still let the event loop turn before it rejects.
 * The corruption soak (issue 22) hung the whole test run this way: a bit flip in an ApiVersions answer left a
 * ready connection whose Metadata requests all failed as unsupported, and a loop retrying them at once spun in
 * the microtask queue, so no timer ran again, not even the test's own timeout.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CreateTopics } from '../../../protocol/apis/create-topics.js';
import { Metadata } from '../../../protocol/apis/metadata.js';
import { Connection } from '../../../src/network/connection.js';
import { ConnectionError, UnsupportedVersionError } from '../../../src/network/errors.js';
import { FakeServer, type SeenRequest } from './fake-server.js';

/** Enough back-to-back refusals that a loop that never yields would outlast a 0 ms timer many times over. */
const ATTEMPTS = 5_000;

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

/** A broker whose ApiVersions answer lists only `apiKeys`. */
async function connectTo(apiKeys: { apiKey: number; minVersion: number; maxVersion: number }[]): Promise<Connection> {
  const server = await FakeServer.start((req: SeenRequest) => {
    if (req.apiKey === 18) {
      req.socket.write(FakeServer.frame(req.correlationId, FakeServer.apiVersionsBody(req.version, { apiKeys })));
    }
  });
  const conn = new Connection({ host: '127.0.0.1', port: server.port, requestTimeoutMs: 2_000 });
  cleanup.push(
    () => conn.close(),
    () => server.close(),
  );
  await conn.connect();
  return conn;
}

/** Retries `request` at once, as a careless caller would; reports whether a 0 ms timer got to run meanwhile. */
async function retryAtOnce(request: () => Promise<unknown>): Promise<{ timerRan: boolean; errors: unknown[] }> {
  let timerRan = false;
  const timer = setTimeout(() => {
    timerRan = true;
  }, 0);
  const errors: unknown[] = [];
  for (let i = 0; i < ATTEMPTS && !timerRan; i++) errors.push(await request().catch((e) => e));
  clearTimeout(timer);
  return { timerRan, errors };
}

const BASIC_KEYS = [
  { apiKey: 18, minVersion: 0, maxVersion: 4 },
  { apiKey: 3, minVersion: 0, maxVersion: 12 },
];

describe('a request refused before it is sent', () => {
  it('an API the broker does not offer rejects on a later turn of the event loop', async () => {
    const conn = await connectTo(BASIC_KEYS);
    const { timerRan, errors } = await retryAtOnce(() =>
      conn.request(CreateTopics, { topics: [], timeoutMs: 1_000, validateOnly: false }),
    );
    expect(timerRan).toBe(true);
    expect(errors.length).toBeGreaterThan(0);
    for (const err of errors) expect(err).toBeInstanceOf(UnsupportedVersionError);
  });

  it('a closed connection rejects on a later turn of the event loop', async () => {
    const conn = await connectTo(BASIC_KEYS);
    await conn.close();
    const { timerRan, errors } = await retryAtOnce(() => conn.request(Metadata, { topics: null }));
    expect(timerRan).toBe(true);
    for (const err of errors) expect(err).toBeInstanceOf(ConnectionError);
  });
});

describe('an ApiVersions answer that cannot be a broker’s', () => {
  it('one without Metadata fails the handshake, retriably, instead of making a connection nothing can use', async () => {
    const server = await FakeServer.start((req) => {
      const apiKeys = [{ apiKey: 18, minVersion: 0, maxVersion: 4 }];
      req.socket.write(FakeServer.frame(req.correlationId, FakeServer.apiVersionsBody(req.version, { apiKeys })));
    });
    cleanup.push(() => server.close());
    const conn = new Connection({ host: '127.0.0.1', port: server.port, requestTimeoutMs: 2_000 });
    const err = await conn.connect().catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).message).toMatch(/API key 3 is missing/);
    expect((err as ConnectionError).retriable).toBe(true);
    expect(conn.isClosed).toBe(true);
  });
});
