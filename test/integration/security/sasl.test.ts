/**
 * SASL over SASL_PLAINTEXT against the shared 4.x and 3.9 brokers: PLAIN and SCRAM succeed, wrong credentials
 * and a mechanism the listener lacks give typed errors, and no secret reaches a log line or error.
 */
import { describe, expect, it } from 'vitest';
import { SaslAuthenticate, SaslHandshake } from '../../../protocol/index.js';
import { Client } from '../../../src/client.js';
import { Connection } from '../../../src/network/connection.js';
import { AuthenticationError, UnsupportedMechanismError } from '../../../src/network/security/errors.js';
import { saslAuthenticator } from '../../../src/network/security/sasl/authenticator.js';
import type { SaslMechanism } from '../../../src/network/security/sasl/mechanism.js';
import { OAuthBearerMechanism } from '../../../src/network/security/sasl/oauthbearer.js';
import { PlainMechanism } from '../../../src/network/security/sasl/plain.js';
import { ScramMechanism } from '../../../src/network/security/sasl/scram.js';
import { legacySaslBootstrap, SASL_PASSWORD, SASL_USERNAME, saslBootstrap } from '../../harness/context.js';
import { parseHostPort } from '../../harness/probe.js';
import { captureLog, errorTexts, expectNoSecret } from './secrets.js';

const MECHANISMS = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;
const WRONG_PASSWORD = 'not-the-tidemark-password-81723';
const TOKEN = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ0aWRlbWFyayJ9.secret-token-7731';

function mechanismFor(name: (typeof MECHANISMS)[number], password: string): SaslMechanism {
  return name === 'PLAIN'
    ? new PlainMechanism(SASL_USERNAME, password)
    : new ScramMechanism(name, SASL_USERNAME, password);
}

async function connect(
  address: string,
  mechanism: SaslMechanism,
  logger?: (e: string, f: Record<string, unknown>) => void,
) {
  const { host, port } = parseHostPort(address);
  const connection = new Connection({ host, port, authenticate: saslAuthenticator(mechanism, { log: logger }) });
  return connection.connect();
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: Error) => err,
  );
}

const brokers = [
  ['4.x', saslBootstrap()],
  ['3.9', legacySaslBootstrap()],
] as const;

for (const [generation, address] of brokers) {
  describe.skipIf(!address)(`SASL_PLAINTEXT on the ${generation} broker`, () => {
    for (const name of MECHANISMS) {
      it(`${name}: authenticates and serves requests (SaslHandshake v1, SaslAuthenticate v2)`, async () => {
        const { lines, logger } = captureLog();
        const connection = await connect(address!, mechanismFor(name, SASL_PASSWORD), logger);
        try {
          expect(connection.versionFor(SaslHandshake)).toBe(1);
          expect(connection.versionFor(SaslAuthenticate)).toBe(2);
          expect(lines.some((l) => l.startsWith('sasl.authenticated') && l.includes(name))).toBe(true);
        } finally {
          await connection.close();
        }
        const client = new Client({
          bootstrap: address!,
          sasl: { mechanism: name, username: SASL_USERNAME, password: SASL_PASSWORD },
        });
        try {
          const md = await client.metadata();
          expect(md.brokers.size).toBeGreaterThan(0);
        } finally {
          await client.close();
        }
        expectNoSecret(lines, [SASL_PASSWORD]);
      });

      it(`${name}: a wrong password is an AuthenticationError that says so`, async () => {
        const err = await failure(connect(address!, mechanismFor(name, WRONG_PASSWORD)));
        expect(err).toBeInstanceOf(AuthenticationError);
        expect((err as AuthenticationError).reason).toBe('credentials');
        expect((err as AuthenticationError).retriable).toBe(false);
        expect(err.message).toMatch(
          new RegExp(`SASL ${name} authentication failed: the broker refused the credentials`),
        );
        expect(err.message).toContain('SASL_AUTHENTICATION_FAILED');
        expectNoSecret(errorTexts(err), [WRONG_PASSWORD, SASL_PASSWORD]);
      });
    }

    it('a mechanism the listener does not enable lists the ones it does', async () => {
      const err = await failure(connect(address!, new OAuthBearerMechanism(() => TOKEN)));
      expect(err).toBeInstanceOf(UnsupportedMechanismError);
      const e = err as UnsupportedMechanismError;
      expect(e.reason).toBe('mechanism');
      expect([...e.enabledMechanisms].sort()).toEqual([...MECHANISMS].sort());
      expect(err.message).toMatch(/does not enable OAUTHBEARER; it enables: .*SCRAM-SHA-512/);
      expectNoSecret(errorTexts(err), [TOKEN]);
    });
  });
}

describe.skipIf(!saslBootstrap())('secrets never appear in debug output or errors', () => {
  it('wrong passwords on every mechanism, through the Client, leave no password in logs, messages or causes', async () => {
    const { lines, logger } = captureLog();
    const texts: string[] = [];
    for (const mechanism of MECHANISMS) {
      const client = new Client({
        bootstrap: saslBootstrap()!,
        requestTimeoutMs: 1500,
        logger,
        sasl: { mechanism, username: SASL_USERNAME, password: WRONG_PASSWORD },
      });
      const err = await failure(client.metadata());
      await client.close();
      texts.push(...errorTexts(err));
      // Bad credentials are not retried: the client throws the typed AuthenticationError itself.
      expect(texts.join('\n')).toContain('AuthenticationError');
    }
    // A successful session logs too: nothing secret in it either.
    const ok = new Client({
      bootstrap: saslBootstrap()!,
      logger,
      sasl: { mechanism: 'SCRAM-SHA-512', username: SASL_USERNAME, password: SASL_PASSWORD },
    });
    await ok.metadata();
    await ok.close();
    expect(lines.length).toBeGreaterThan(3);
    expectNoSecret([...lines, ...texts], [WRONG_PASSWORD, SASL_PASSWORD]);
  });

  it('an OAUTHBEARER token is not shown when the broker refuses the mechanism', async () => {
    const { lines, logger } = captureLog();
    const client = new Client({
      bootstrap: saslBootstrap()!,
      requestTimeoutMs: 1500,
      logger,
      sasl: { mechanism: 'OAUTHBEARER', token: async () => TOKEN },
    });
    const err = await failure(client.metadata());
    await client.close();
    expectNoSecret([...lines, ...errorTexts(err)], [TOKEN]);
  });
});
