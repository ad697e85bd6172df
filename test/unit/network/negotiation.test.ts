import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiVersions } from '../../../protocol/apis/api-versions.js';
import { CreateTopics } from '../../../protocol/apis/create-topics.js';
import { Metadata } from '../../../protocol/apis/metadata.js';
import { isKafkaError } from '../../../protocol/kafka-error.js';
import { CLIENT_SOFTWARE_NAME, CLIENT_SOFTWARE_VERSION, softwareToken } from '../../../src/network/client-software.js';
import { Connection } from '../../../src/network/connection.js';
import { ConnectionError, UnsupportedVersionError } from '../../../src/network/errors.js';
import { FakeServer, SERVED_API_KEYS, type SeenRequest } from './fake-server.js';

const UNSUPPORTED_VERSION = 35;

/** A broker that speaks ApiVersions up to `maxApiVersions` and lists `apiKeys` in its answer. */
function oldBroker(maxApiVersions: number, advertiseOwnRange = true) {
  const apiKeys = [
    { apiKey: 18, minVersion: 0, maxVersion: maxApiVersions },
    { apiKey: 3, minVersion: 1, maxVersion: 9 },
    ...SERVED_API_KEYS.filter((k) => k.apiKey !== 18 && k.apiKey !== 3),
  ];
  return (req: SeenRequest) => {
    if (req.apiKey !== 18) return;
    const body =
      req.version > maxApiVersions
        ? FakeServer.apiVersionsBody(0, {
            errorCode: UNSUPPORTED_VERSION,
            apiKeys: advertiseOwnRange ? apiKeys.slice(0, 1) : [],
          })
        : FakeServer.apiVersionsBody(req.version, { apiKeys });
    req.socket.write(FakeServer.frame(req.correlationId, body));
  };
}

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

async function connectTo(handler: (req: SeenRequest) => void): Promise<{ server: FakeServer; conn: Connection }> {
  const server = await FakeServer.start(handler);
  const conn = new Connection({ host: '127.0.0.1', port: server.port });
  cleanup.push(
    () => conn.close(),
    () => server.close(),
  );
  await conn.connect();
  return { server, conn };
}

describe('ApiVersions negotiation', () => {
  it('opens with the highest ApiVersions version, naming the client software', async () => {
    const { server, conn } = await connectTo(oldBroker(4));
    const [req] = server.requests;
    expect(req.version).toBe(4);
    // Header v2 tag section, then two compact strings and the body's tag section.
    const name = Buffer.from(CLIENT_SOFTWARE_NAME);
    const version = Buffer.from(CLIENT_SOFTWARE_VERSION);
    expect(req.rest).toEqual(
      Buffer.concat([
        Buffer.from([0, name.length + 1]),
        name,
        Buffer.from([version.length + 1]),
        version,
        Buffer.from([0]),
      ]),
    );
    expect(conn.apiVersions?.negotiatedWith).toBe(4);
    expect(conn.isReady).toBe(true);
  });

  it('retries with the version an UNSUPPORTED_VERSION answer names', async () => {
    const { server, conn } = await connectTo(oldBroker(2));
    expect(server.requests.map((r) => r.version)).toEqual([4, 2]);
    expect(server.requests[1].rest.length).toBe(0); // v2 has no body fields
    expect(conn.apiVersions?.negotiatedWith).toBe(2);
    expect(conn.versionFor(Metadata)).toBe(9);
  });

  it('falls back to v0 when the broker names no ApiVersions range', async () => {
    const { server, conn } = await connectTo(oldBroker(0, false));
    expect(server.requests.map((r) => r.version)).toEqual([4, 0]);
    expect(conn.apiVersions?.negotiatedWith).toBe(0);
  });

  it('names the API and both ranges when no version is shared', async () => {
    const { conn } = await connectTo(oldBroker(4));
    const err = (() => {
      try {
        conn.versionFor(CreateTopics);
      } catch (e) {
        return e as UnsupportedVersionError;
      }
    })();
    expect(err).toBeInstanceOf(UnsupportedVersionError);
    expect(err).toMatchObject({ api: 'CreateTopics', apiKey: 19, client: { min: 0, max: 7 }, broker: undefined });
  });

  it('refuses a forced version outside the broker range without sending it', async () => {
    const { server, conn } = await connectTo(oldBroker(4));
    const err = await conn.request(Metadata, { topics: null }, { version: 0 }).catch((e) => e);
    expect(err).toBeInstanceOf(UnsupportedVersionError);
    expect(err).toMatchObject({ api: 'Metadata', requestedVersion: 0, broker: { min: 1, max: 9 } });
    expect(err.message).toMatch(/Metadata \(key 3\): v0 was requested; tidemark speaks v0-13, broker .* speaks v1-9/);
    expect(server.requests).toHaveLength(1);
  });

  it('fails connect with the broker error when ApiVersions is rejected for another reason', async () => {
    const server = await FakeServer.start((req) =>
      req.socket.write(FakeServer.frame(req.correlationId, FakeServer.apiVersionsBody(req.version, { errorCode: 42 }))),
    );
    cleanup.push(() => server.close());
    const conn = new Connection({ host: '127.0.0.1', port: server.port });
    const err = await conn.connect().catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(isKafkaError(err.cause, 'INVALID_REQUEST')).toBe(true);
    expect(conn.isClosed).toBe(true);
  });

  it('times out the handshake of a broker that never answers', async () => {
    const server = await FakeServer.start();
    cleanup.push(() => server.close());
    const conn = new Connection({ host: '127.0.0.1', port: server.port, requestTimeoutMs: 50 });
    const err = await conn.connect().catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.message).toMatch(/handshake failed: ApiVersions v4 request/);
    expect(err.retriable).toBe(true);
  });

  it('refuses a request before connect', async () => {
    const conn = new Connection({ host: '127.0.0.1', port: 1 });
    await expect(conn.request(ApiVersions, {})).rejects.toBeInstanceOf(ConnectionError);
  });
});

describe('client software', () => {
  it('reports the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    expect(CLIENT_SOFTWARE_VERSION).toBe(pkg.version);
    expect(CLIENT_SOFTWARE_NAME).toBe(pkg.name);
  });

  it('coerces names into the pattern brokers accept', () => {
    expect(softwareToken('tidemark')).toBe('tidemark');
    expect(softwareToken('1.0.0+build/7')).toBe('1.0.0-build-7');
    expect(softwareToken('-my app-')).toBe('my-app');
    expect(softwareToken('@@@')).toBe('unknown');
    expect(softwareToken('1.0.0-rc.1')).toBe('1.0.0-rc.1');
  });
});
