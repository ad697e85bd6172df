/**
 * TLS, mutual TLS, SASL_SSL, OAUTHBEARER and re-authentication against a broker of this file's own, started with
 * the harness' security option: SSL, MTLS (client certificate required) and SASL_SSL listeners with certificates
 * made now, OAUTHBEARER with Kafka's unsecured-JWS validator, and `connections.max.reauth.ms` of a few seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metadata } from '../../../protocol/index.js';
import { Client, type ClientConfig } from '../../../src/client.js';
import { Consumer } from '../../../src/consumer/consumer.js';
import { ConnectionError } from '../../../src/network/errors.js';
import { AuthenticationError, TlsError, TlsNameMismatchError } from '../../../src/network/security/errors.js';
import { type KafkaBroker, startBroker } from '../../harness/broker.js';
import { SASL_PASSWORD, SASL_USERNAME, uniqueTopicName } from '../../harness/context.js';
import { readRecords } from '../consumer/setup.js';
import { readBack } from '../producer/read-back.js';
import { captureLog, errorTexts, expectNoSecret } from './secrets.js';

const REAUTH_MS = 4_000;
let broker: KafkaBroker;

beforeAll(async () => {
  broker = await startBroker({
    // TIDEMARK_TLS_KAFKA_VERSION=3.9.1 runs the same checks against the older generation.
    kafkaVersion: process.env.TIDEMARK_TLS_KAFKA_VERSION,
    name: `tm-tls-${process.pid}`,
    security: { tls: true, reauthMs: REAUTH_MS, oauthbearer: true },
  });
}, 180_000);

afterAll(async () => {
  await broker?.stop();
});

const tls = () => broker.tls!;
const scram = { mechanism: 'SCRAM-SHA-512', username: SASL_USERNAME, password: SASL_PASSWORD } as const;

/** An unsecured JWS (`"alg":"none"`) as Kafka's default OAUTHBEARER validator accepts it. */
function unsecuredJws(sub: string, lifetimeS = 3600): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${enc({ alg: 'none' })}.${enc({ sub, iat: now, exp: now + lifetimeS })}.`;
}

async function withClient<T>(config: ClientConfig, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client(config);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

/**
 * The typed error of a bootstrap failure. A non-retriable failure (credentials, TLS) is thrown as it is; a
 * retriable one comes wrapped in the client's bootstrap error, which lists every address it tried.
 */
async function bootstrapFailure(config: ClientConfig): Promise<{ error: Error; cause: Error }> {
  const error = await withClient({ requestTimeoutMs: 2_000, ...config }, (c) => c.metadata()).then(
    () => {
      throw new Error('expected a failure');
    },
    (e: Error) => e,
  );
  const cause = (error.cause instanceof AggregateError ? error.cause.errors[0] : error) as Error;
  return { error, cause };
}

describe('TLS', () => {
  it('connects to the SSL listener trusting the test CA, with the broker name checked', async () => {
    const { lines, logger } = captureLog();
    const md = await withClient({ bootstrap: tls().sslBootstrap, tls: { ca: tls().material.ca }, logger }, (c) =>
      c.metadata(),
    );
    expect([...md.brokers.values()].map((b) => `${b.host}:${b.port}`)).toEqual([tls().sslBootstrap]);
    expect(lines.some((l) => l.startsWith('tls.connected') && /TLSv1\.[23]/.test(l))).toBe(true);
  });

  it('mutual TLS: with the client certificate the MTLS listener accepts, without it refuses', async () => {
    const { ca, clientCert, clientKey } = tls().material;
    const md = await withClient(
      { bootstrap: tls().mtlsBootstrap, tls: { ca, cert: clientCert, key: clientKey } },
      (c) => c.metadata(),
    );
    expect(md.brokers.size).toBe(1);
    const { cause } = await bootstrapFailure({ bootstrap: tls().mtlsBootstrap, tls: { ca } });
    expect(cause).toBeInstanceOf(ConnectionError);
    expect(cause.message).toMatch(/refused the client certificate|alert/);
  });

  it('a certificate that does not name the broker is a TlsNameMismatchError that says so', async () => {
    const { error, cause } = await bootstrapFailure({
      bootstrap: tls().sslBootstrap,
      tls: { ca: tls().material.ca, servername: 'kafka.example.com' },
    });
    expect(cause).toBeInstanceOf(TlsNameMismatchError);
    const e = cause as TlsNameMismatchError;
    expect(e.expectedName).toBe('kafka.example.com');
    expect(e.certificateNames).toEqual(['DNS:localhost', 'IP Address:127.0.0.1']);
    expect(e.retriable).toBe(false);
    expect(error.message).toMatch(/does not match the name "kafka\.example\.com"/);
  });

  it('a broker certificate from an untrusted CA is a TlsError', async () => {
    const { cause } = await bootstrapFailure({ bootstrap: tls().sslBootstrap, tls: true });
    expect(cause).toBeInstanceOf(TlsError);
    expect((cause as TlsError).code).toBe('SELF_SIGNED_CERT_IN_CHAIN');
    expect(cause.message).toMatch(/not trusted.*check tls\.ca/);
  });
});

describe('SASL_SSL', () => {
  const topic = uniqueTopicName('sasl-ssl');

  it('SCRAM-SHA-512 end to end: create a topic, produce, read back, metadata', async () => {
    const { lines, logger } = captureLog();
    await withClient(
      { bootstrap: tls().saslSslBootstrap, tls: { ca: tls().material.ca }, sasl: scram, logger },
      async (client) => {
        await client.admin.createTopics([{ name: topic, numPartitions: 2 }]);
        const producer = client.producer();
        const sent = await Promise.all(
          Array.from({ length: 20 }, (_, i) => producer.send({ topic, key: `k${i}`, value: `value-${i}` })),
        );
        await producer.close();
        expect(sent.every((m) => m.offset >= 0n)).toBe(true);
        const back = await readBack(client, topic);
        expect(back.records.map((r) => r.value).sort()).toEqual(
          sent.map((_, i) => Buffer.from(`value-${i}`).toString('base64')).sort(),
        );
        const md = await client.metadata({ topics: [topic] });
        expect(md.topics.get(topic)?.partitions).toHaveLength(2);
        expect([...md.brokers.values()][0].port).toBe(Number(tls().saslSslBootstrap.split(':')[1]));
      },
    );
    expect(lines.some((l) => l.startsWith('tls.connected'))).toBe(true);
    expect(lines.some((l) => l.startsWith('sasl.authenticated') && l.includes('SCRAM-SHA-512'))).toBe(true);
    expectNoSecret(lines, [SASL_PASSWORD]);
  });

  it('SCRAM-SHA-512: a consumer group reads every record and commits, all over SASL_SSL', async () => {
    const groupId = uniqueTopicName('sasl-ssl-group');
    await withClient(
      { bootstrap: tls().saslSslBootstrap, tls: { ca: tls().material.ca }, sasl: scram },
      async (client) => {
        const consumer = new Consumer(client, { groupId, autoOffsetReset: 'earliest' });
        try {
          await consumer.subscribe({ topics: [topic] }, { signal: AbortSignal.timeout(30_000) });
          const records = await readRecords(consumer, 20);
          expect(new Set(records.map((r) => `${r.partition}:${r.offset}`)).size).toBe(20);
        } finally {
          await consumer.close();
        }
        const committed = await client.offsets.committed(groupId, null);
        expect(committed.reduce((n, c) => n + Number(c.offset ?? 0n), 0)).toBe(20);
      },
    );
  });

  it('a wrong password over TLS is an AuthenticationError', async () => {
    const { cause } = await bootstrapFailure({
      bootstrap: tls().saslSslBootstrap,
      tls: { ca: tls().material.ca },
      sasl: { ...scram, password: 'wrong-over-tls-5521' },
    });
    expect(cause).toBeInstanceOf(AuthenticationError);
    expect((cause as AuthenticationError).reason).toBe('credentials');
    expectNoSecret(errorTexts(cause), ['wrong-over-tls-5521']);
  });
});

describe('OAUTHBEARER', () => {
  it('authenticates with the application token function; a refused token is an AuthenticationError', async () => {
    const token = unsecuredJws(SASL_USERNAME);
    let calls = 0;
    const { lines, logger } = captureLog();
    const md = await withClient(
      {
        bootstrap: broker.saslBootstrap,
        logger,
        sasl: {
          mechanism: 'OAUTHBEARER',
          token: async () => {
            calls++;
            return token;
          },
        },
      },
      (c) => c.metadata(),
    );
    expect(md.brokers.size).toBe(1);
    expect(calls).toBeGreaterThanOrEqual(1);
    const bad = 'bm90LWEtand0.bm90LWEtand0.forged';
    const { cause } = await bootstrapFailure({
      bootstrap: broker.saslBootstrap,
      logger,
      sasl: { mechanism: 'OAUTHBEARER', token: () => bad },
    });
    expect(cause).toBeInstanceOf(AuthenticationError);
    expect((cause as AuthenticationError).reason).toBe('credentials');
    expectNoSecret([...lines, ...errorTexts(cause)], [token, bad]);
  });
});

describe('re-authentication (KIP-368)', () => {
  /** Keeps three requests in flight on one connection for `ms`; every one must succeed. */
  async function keepBusy(client: Client, ms: number): Promise<number> {
    const connection = await client.cluster.anyConnection();
    let done = 0;
    const until = Date.now() + ms;
    const worker = async () => {
      while (Date.now() < until) {
        await connection.request(Metadata, { topics: [] });
        done++;
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(connection.isReady).toBe(true);
    return done;
  }

  it('re-authenticates on the same connection before the session expires, with requests in flight', async () => {
    const { lines, logger } = captureLog();
    await withClient(
      { bootstrap: tls().saslSslBootstrap, tls: { ca: tls().material.ca }, sasl: scram, logger },
      async (client) => {
        const done = await keepBusy(client, REAUTH_MS * 2.5);
        expect(done).toBeGreaterThan(10);
      },
    );
    expect(lines.filter((l) => l.startsWith('sasl.reauthenticated')).length).toBeGreaterThanOrEqual(2);
    expect(
      lines.some((l) => l.startsWith('sasl.authenticated') && l.includes(`"sessionLifetimeMs":${REAUTH_MS}`)),
    ).toBe(true);
    expectNoSecret(lines, [SASL_PASSWORD]);
  }, 60_000);

  it('without re-authentication the broker drops the connection once the session expires', async () => {
    await withClient({ bootstrap: broker.saslBootstrap, sasl: { ...scram, reauthenticate: false } }, async (client) => {
      const connection = await client.cluster.anyConnection();
      await new Promise((r) => setTimeout(r, REAUTH_MS + 500));
      await connection.request(Metadata, { topics: [] }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
      expect(connection.isClosed).toBe(true);
    });
  }, 30_000);
});
