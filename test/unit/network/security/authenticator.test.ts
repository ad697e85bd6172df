/** The SASL driver, PLAIN and OAUTHBEARER messages, and security config validation, without a broker. */
import { describe, expect, it } from 'vitest';
import type { RequestFn } from '../../../../src/network/connection.js';
import { securityOptions } from '../../../../src/network/security/config.js';
import { AuthenticationError, UnsupportedMechanismError } from '../../../../src/network/security/errors.js';
import { redact } from '../../../../src/network/security/logger.js';
import { authenticateSasl, reauthDelay } from '../../../../src/network/security/sasl/authenticator.js';
import { OAuthBearerMechanism, oauthBearerClientFirst } from '../../../../src/network/security/sasl/oauthbearer.js';
import { PlainMechanism } from '../../../../src/network/security/sasl/plain.js';
import { ConfigError } from '../../../../src/options/config-error.js';

const broker = { host: '127.0.0.1', port: 9093 };
const SECRET = 'hunter2-very-secret';

/** A RequestFn that answers SaslHandshake and SaslAuthenticate from scripted responses. */
function scripted(handshake: object, authenticate: object[]): { request: RequestFn; sent: Buffer[] } {
  const sent: Buffer[] = [];
  const request = (async (api: { name: string }, body: { authBytes?: Buffer }) => {
    if (api.name === 'SaslHandshake') return { errorCode: 0, mechanisms: [], ...handshake };
    sent.push(Buffer.from(body.authBytes!));
    return {
      errorCode: 0,
      errorMessage: null,
      authBytes: Buffer.alloc(0),
      sessionLifetimeMs: 0n,
      ...authenticate.shift(),
    };
  }) as unknown as RequestFn;
  return { request, sent };
}

describe('authenticateSasl', () => {
  it('PLAIN sends authzid NUL user NUL password and returns the session lifetime', async () => {
    const { request, sent } = scripted({}, [{ sessionLifetimeMs: 60_000n }]);
    expect(await authenticateSasl(request, new PlainMechanism('alice', SECRET), broker)).toBe(60_000);
    expect(sent[0].toString()).toBe(`\0alice\0${SECRET}`);
  });

  it('UNSUPPORTED_SASL_MECHANISM lists what the broker enables', async () => {
    const { request } = scripted({ errorCode: 33, mechanisms: ['GSSAPI', 'PLAIN'] }, []);
    const err = await authenticateSasl(request, new OAuthBearerMechanism(() => 'tok'), broker).catch((e) => e);
    expect(err).toBeInstanceOf(UnsupportedMechanismError);
    expect(err.enabledMechanisms).toEqual(['GSSAPI', 'PLAIN']);
    expect(err.message).toContain('does not enable OAUTHBEARER; it enables: GSSAPI, PLAIN');
    expect(err.broker).toBe('127.0.0.1:9093');
  });

  it('SASL_AUTHENTICATION_FAILED is a credentials error; a secret echoed by the broker is redacted', async () => {
    const { request } = scripted({}, [{ errorCode: 58, errorMessage: `bad password ${SECRET} for alice` }]);
    const err = await authenticateSasl(request, new PlainMechanism('alice', SECRET), broker).catch((e) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.reason).toBe('credentials');
    expect(err.retriable).toBe(false);
    expect(err.message).toContain('the broker refused the credentials (SASL_AUTHENTICATION_FAILED)');
    expect(err.message).not.toContain(SECRET);
    expect(err.message).toContain('[redacted]');
  });

  it('ILLEGAL_SASL_STATE is a state error', async () => {
    const { request } = scripted({}, [{ errorCode: 34 }]);
    const err = await authenticateSasl(request, new PlainMechanism('a', SECRET), broker).catch((e) => e);
    expect(err.reason).toBe('state');
  });
});

describe('OAUTHBEARER', () => {
  it('writes the RFC 7628 client first message', () => {
    expect(oauthBearerClientFirst({ value: 'abc.def.' }).toString()).toBe('n,,\x01auth=Bearer abc.def.\x01\x01');
    expect(oauthBearerClientFirst({ value: 't', extensions: { traceId: 'x y' } }).toString()).toBe(
      'n,,\x01auth=Bearer t\x01traceId=x y\x01\x01',
    );
  });

  it('acknowledges an error challenge with a lone separator and fails; a failing token function is a token error', async () => {
    const { request, sent } = scripted({}, [{ authBytes: Buffer.from('{"status":"invalid_token"}') }, {}]);
    const err = await authenticateSasl(request, new OAuthBearerMechanism(async () => 'tok-123'), broker).catch(
      (e) => e,
    );
    expect(sent[1].toString()).toBe('\x01');
    expect(err).toBeInstanceOf(AuthenticationError);
    const failing = new OAuthBearerMechanism(async () => {
      throw new Error('idp down');
    });
    const e2 = await authenticateSasl(scripted({}, []).request, failing, broker).catch((e) => e);
    expect(e2.reason).toBe('token');
    expect(e2.broker).toBe('127.0.0.1:9093');
    const e3 = await authenticateSasl(
      scripted({}, []).request,
      new OAuthBearerMechanism(() => 'has space'),
      broker,
    ).catch((e) => e);
    expect(e3.message).toMatch(/not an RFC 6750 bearer token/);
    expect(e3.message).not.toContain('has space');
  });
});

describe('security config', () => {
  const bad = (config: object, option: string) => {
    const err = (() => {
      try {
        securityOptions(config);
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err?.option).toBe(option);
    expect(err?.message).not.toContain(SECRET);
  };

  it('names the bad option and never quotes a secret', () => {
    bad({ sasl: { mechanism: 'GSSAPI', username: 'a', password: SECRET } }, 'sasl.mechanism');
    bad({ sasl: { mechanism: 'PLAIN', username: '', password: SECRET } }, 'sasl.username');
    bad({ sasl: { mechanism: 'SCRAM-SHA-256', username: 'a', password: 42 } }, 'sasl.password');
    bad({ sasl: { mechanism: 'PLAIN', username: 'a', password: `${SECRET}\0` } }, 'sasl.password');
    bad({ sasl: { mechanism: 'OAUTHBEARER', token: SECRET } }, 'sasl.token');
    bad({ sasl: { mechanism: 'OAUTHBEARER', token: () => 'x', password: SECRET } }, 'sasl.password');
    bad(
      { sasl: { mechanism: 'PLAIN', username: 'a', password: SECRET, reauthenticate: 'yes' } },
      'sasl.reauthenticate',
    );
    bad({ tls: 'yes' }, 'tls');
    bad({ tls: { cafile: 'x' } }, 'tls.cafile');
    bad({ tls: { cert: 'PEM' } }, 'tls.key');
    bad({ tls: { passphrase: 7 } }, 'tls.passphrase');
    bad({ tls: { minVersion: 'TLSv1' } }, 'tls.minVersion');
    bad({ logger: 'stderr' }, 'logger');
  });

  it('builds a TLS socket factory and a SASL authenticator only when asked', () => {
    expect(securityOptions({})).toEqual({ socketFactory: undefined, authenticate: undefined });
    const both = securityOptions({ tls: true, sasl: { mechanism: 'SCRAM-SHA-512', username: 'u', password: SECRET } });
    expect(typeof both.socketFactory).toBe('function');
    expect(typeof both.authenticate).toBe('function');
  });
});

describe('helpers', () => {
  it('re-authenticates at 85-95% of the session lifetime', () => {
    expect(reauthDelay(10_000, 0)).toBe(8_500);
    expect(reauthDelay(10_000, 1)).toBe(9_500);
  });

  it('redacts every occurrence of a secret', () => {
    expect(redact(`a ${SECRET} b ${SECRET}`, [SECRET])).toBe('a [redacted] b [redacted]');
  });
});
