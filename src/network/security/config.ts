import { ConfigError } from '../../options/config-error.js';
import type { ConnectionOptions } from '../connection.js';
import type { SecurityLogger } from './logger.js';
import { saslAuthenticator } from './sasl/authenticator.js';
import type { SaslMechanism } from './sasl/mechanism.js';
import { OAuthBearerMechanism, type OAuthBearerTokenProvider } from './sasl/oauthbearer.js';
import { PlainMechanism } from './sasl/plain.js';
import { ScramMechanism } from './sasl/scram.js';
import { type TlsConfig, tlsSocketFactory } from './tls.js';

export interface SaslCommon {
  /** Re-authenticate before the broker's session lifetime runs out (KIP-368). Default true. */
  reauthenticate?: boolean;
}

/** `ClientConfig.sasl`: one mechanism and its credentials. */
export type SaslConfig =
  | (SaslCommon & { mechanism: 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512'; username: string; password: string })
  | (SaslCommon & { mechanism: 'OAUTHBEARER'; token: OAuthBearerTokenProvider });

export const SASL_MECHANISM_NAMES = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512', 'OAUTHBEARER'] as const;

const TLS_KEYS = new Set([
  'ca',
  'cert',
  'key',
  'passphrase',
  'servername',
  'rejectUnauthorized',
  'checkServerIdentity',
  'minVersion',
]);

const isPem = (v: unknown) => typeof v === 'string' || Buffer.isBuffer(v);

/** Checks `tls`; throws ConfigError naming the bad field (never quoting a key or passphrase). */
export function validateTls(value: unknown): TlsConfig | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return {};
  if (typeof value !== 'object' || value === null) throw new ConfigError('tls', 'expected true or an object');
  const t = value as Record<string, unknown>;
  for (const key of Object.keys(t)) if (!TLS_KEYS.has(key)) throw new ConfigError(`tls.${key}`, 'unknown option');
  if (t.ca !== undefined && !isPem(t.ca) && !(Array.isArray(t.ca) && t.ca.every(isPem))) {
    throw new ConfigError('tls.ca', 'expected PEM text, a Buffer, or an array of them');
  }
  for (const key of ['cert', 'key'] as const) {
    if (t[key] !== undefined && !isPem(t[key])) throw new ConfigError(`tls.${key}`, 'expected PEM text or a Buffer');
  }
  if ((t.cert === undefined) !== (t.key === undefined)) {
    throw new ConfigError(t.cert === undefined ? 'tls.cert' : 'tls.key', 'tls.cert and tls.key go together');
  }
  for (const key of ['passphrase', 'servername'] as const) {
    if (t[key] !== undefined && (typeof t[key] !== 'string' || t[key] === '')) {
      throw new ConfigError(`tls.${key}`, 'expected a non-empty string');
    }
  }
  if (t.rejectUnauthorized !== undefined && typeof t.rejectUnauthorized !== 'boolean') {
    throw new ConfigError('tls.rejectUnauthorized', 'expected a boolean');
  }
  if (t.checkServerIdentity !== undefined && typeof t.checkServerIdentity !== 'function') {
    throw new ConfigError('tls.checkServerIdentity', 'expected a function');
  }
  if (t.minVersion !== undefined && t.minVersion !== 'TLSv1.2' && t.minVersion !== 'TLSv1.3') {
    throw new ConfigError('tls.minVersion', 'expected "TLSv1.2" or "TLSv1.3"');
  }
  return t as TlsConfig;
}

/** Checks `sasl` and builds its mechanism; throws ConfigError naming the bad field (never quoting a secret). */
export function saslMechanism(value: unknown): SaslMechanism | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) throw new ConfigError('sasl', 'expected an object');
  const s = value as Record<string, unknown>;
  const mechanism = s.mechanism;
  if (typeof mechanism !== 'string' || !(SASL_MECHANISM_NAMES as readonly string[]).includes(mechanism)) {
    throw new ConfigError('sasl.mechanism', `expected one of ${SASL_MECHANISM_NAMES.join(', ')}`);
  }
  if (s.reauthenticate !== undefined && typeof s.reauthenticate !== 'boolean') {
    throw new ConfigError('sasl.reauthenticate', 'expected a boolean');
  }
  const allowed =
    mechanism === 'OAUTHBEARER'
      ? ['mechanism', 'token', 'reauthenticate']
      : ['mechanism', 'username', 'password', 'reauthenticate'];
  for (const key of Object.keys(s)) {
    if (!allowed.includes(key)) throw new ConfigError(`sasl.${key}`, `not an option of ${mechanism}`);
  }
  if (mechanism === 'OAUTHBEARER') return new OAuthBearerMechanism(s.token as OAuthBearerTokenProvider);
  if (typeof s.username !== 'string' || s.username === '')
    throw new ConfigError('sasl.username', 'expected a non-empty string');
  if (typeof s.password !== 'string' || s.password === '')
    throw new ConfigError('sasl.password', 'expected a non-empty string');
  if (mechanism === 'PLAIN') return new PlainMechanism(s.username, s.password);
  return new ScramMechanism(mechanism as 'SCRAM-SHA-256' | 'SCRAM-SHA-512', s.username, s.password);
}

export interface SecurityConfig {
  tls?: boolean | TlsConfig;
  sasl?: SaslConfig;
  /** Receives the security layer's debug events (never secrets). */
  logger?: SecurityLogger;
}

/** Validates `tls`, `sasl` and `logger` and turns them into the Connection options that apply them. */
export function securityOptions(config: SecurityConfig): Pick<ConnectionOptions, 'socketFactory' | 'authenticate'> {
  if (config.logger !== undefined && typeof config.logger !== 'function') {
    throw new ConfigError('logger', 'expected a function (event, fields) => void');
  }
  const tls = validateTls(config.tls);
  const mechanism = saslMechanism(config.sasl);
  return {
    socketFactory: tls === undefined ? undefined : tlsSocketFactory(tls, config.logger),
    authenticate:
      mechanism === undefined
        ? undefined
        : saslAuthenticator(mechanism, { reauthenticate: config.sasl?.reauthenticate, log: config.logger }),
  };
}
