import { ConfigError } from '../../../options/config-error.js';
import { AuthenticationError } from '../errors.js';
import type { SaslExchange, SaslMechanism } from './mechanism.js';

/** A bearer token and optional SASL extensions (KIP-342), as the application's token function returns it. */
export interface OAuthBearerToken {
  value: string;
  extensions?: Record<string, string>;
}

/** Called for every authentication and re-authentication: return a fresh (or cached, unexpired) token. */
export type OAuthBearerTokenProvider = () => Promise<string | OAuthBearerToken> | string | OAuthBearerToken;

const KVSEP = '\x01';
/** RFC 6750 b64token. */
const TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const EXTENSION_KEY = /^[A-Za-z]+$/;
/** RFC 7628 value: printable ASCII, space, tab, CR, LF. */
const EXTENSION_VALUE = /^[\x21-\x7E \t\r\n]*$/;

/** The RFC 7628 initial client response: `n,,\x01auth=Bearer <token>\x01[key=value\x01]...\x01`. */
export function oauthBearerClientFirst(token: OAuthBearerToken): Buffer {
  let kv = `auth=Bearer ${token.value}${KVSEP}`;
  for (const [key, value] of Object.entries(token.extensions ?? {})) kv += `${key}=${value}${KVSEP}`;
  return Buffer.from(`n,,${KVSEP}${kv}${KVSEP}`, 'utf8');
}

function checkToken(raw: unknown): OAuthBearerToken {
  const token = typeof raw === 'string' ? { value: raw } : (raw as OAuthBearerToken | null);
  const fail = (problem: string) => new AuthenticationError('OAUTHBEARER', 'token', `the token function ${problem}`);
  if (token === null || typeof token !== 'object' || typeof token.value !== 'string') {
    throw fail('returned neither a string nor { value: string }');
  }
  // The token itself is never quoted: only what is wrong with it.
  if (!TOKEN.test(token.value)) throw fail('returned a token that is not an RFC 6750 bearer token');
  for (const [key, value] of Object.entries(token.extensions ?? {})) {
    if (!EXTENSION_KEY.test(key) || key === 'auth') throw fail(`returned an invalid extension name "${key}"`);
    if (typeof value !== 'string' || !EXTENSION_VALUE.test(value)) throw fail(`returned an invalid value for "${key}"`);
  }
  return token;
}

/** SASL OAUTHBEARER (RFC 7628, KIP-255) with a token from the application. */
export class OAuthBearerMechanism implements SaslMechanism {
  readonly name = 'OAUTHBEARER';
  private lastToken: string | undefined;

  constructor(private readonly provider: OAuthBearerTokenProvider) {
    if (typeof provider !== 'function') throw new ConfigError('sasl.token', 'expected a function returning a token');
  }

  async authenticate(exchange: SaslExchange): Promise<void> {
    let raw: unknown;
    try {
      raw = await this.provider();
    } catch (err) {
      throw new AuthenticationError('OAUTHBEARER', 'token', 'the token function failed', undefined, { cause: err });
    }
    const token = checkToken(raw);
    this.lastToken = token.value;
    const challenge = await exchange(oauthBearerClientFirst(token));
    if (challenge.length === 0) return;
    // A non-empty answer is the broker's error JSON (RFC 7628 3.2.2); the client acknowledges with a lone
    // separator and the broker then fails the exchange with SASL_AUTHENTICATION_FAILED.
    await exchange(Buffer.from(KVSEP));
    throw new AuthenticationError('OAUTHBEARER', 'credentials', 'the broker refused the token');
  }

  secrets(): readonly string[] {
    return this.lastToken === undefined ? [] : [this.lastToken];
  }
}
