/**
 * kafkajs's `KafkaConfig` translated to the core's `ClientConfig`. Options the core has no use for are
 * accepted (kafkajs programs pass them) and, where ignoring one would change behaviour, a warning goes to the
 * configured logger. What tidemark cannot do (AWS IAM SASL, a `socketFactory`, a custom SASL mechanism) throws
 * at construction naming the option, so a program finds out before it connects.
 */
import type { ClientConfig, SaslConfig, TlsConfig } from '../index.js';
import type { Logger, logCreator, logLevel } from './constants.js';
import { KafkaJSNonRetriableError, KafkaJSUnsupportedOptionError } from './errors.js';

export interface RetryOptions {
  maxRetryTime?: number;
  initialRetryTime?: number;
  factor?: number;
  multiplier?: number;
  retries?: number;
  restartOnFailure?: (e: Error) => Promise<boolean>;
}

export type SASLOptions =
  | { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string }
  | { mechanism: 'oauthbearer'; oauthBearerProvider: () => Promise<{ value: string }> }
  | { mechanism: 'aws'; [key: string]: unknown };

export interface KafkaConfig {
  brokers: string[] | (() => string[] | Promise<string[]>);
  ssl?: (Record<string, unknown> & Partial<TlsConfig>) | boolean;
  sasl?: SASLOptions;
  clientId?: string;
  connectionTimeout?: number;
  authenticationTimeout?: number;
  reauthenticationThreshold?: number;
  requestTimeout?: number;
  enforceRequestTimeout?: boolean;
  retry?: RetryOptions;
  socketFactory?: unknown;
  logLevel?: logLevel;
  logCreator?: logCreator;
}

/** kafkajs's retry defaults (src/retry/defaults.js). */
export const RETRY_DEFAULTS = {
  maxRetryTime: 30 * 1000,
  initialRetryTime: 300,
  factor: 0.2,
  multiplier: 2,
  retries: 5,
};

const TLS_OPTIONS = [
  'ca',
  'cert',
  'key',
  'passphrase',
  'servername',
  'rejectUnauthorized',
  'checkServerIdentity',
  'minVersion',
];

function tlsOf(ssl: KafkaConfig['ssl'], logger: Logger): TlsConfig | undefined {
  if (ssl === undefined || ssl === false) return undefined;
  if (ssl === true) return {};
  if (typeof ssl !== 'object' || ssl === null)
    throw new KafkaJSNonRetriableError('ssl: expected a boolean or tls options');
  const tls: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(ssl)) {
    if (value === undefined) continue;
    if (TLS_OPTIONS.includes(key)) tls[key] = value;
    else logger.warn(`ssl.${key} is not supported by tidemark/kafkajs and is ignored`, { option: `ssl.${key}` });
  }
  return tls as TlsConfig;
}

function saslOf(sasl: KafkaConfig['sasl']): SaslConfig | undefined {
  if (sasl === undefined) return undefined;
  if (typeof sasl !== 'object' || sasl === null || typeof sasl.mechanism !== 'string') {
    throw new KafkaJSNonRetriableError('sasl: expected an object with a mechanism');
  }
  if ('authenticationProvider' in sasl) {
    throw new KafkaJSUnsupportedOptionError('sasl.authenticationProvider', 'custom SASL mechanisms are not supported');
  }
  const mechanism = sasl.mechanism.toLowerCase();
  switch (mechanism) {
    case 'plain':
    case 'scram-sha-256':
    case 'scram-sha-512': {
      const { username, password } = sasl as { username: string; password: string };
      const name = mechanism === 'plain' ? 'PLAIN' : mechanism === 'scram-sha-256' ? 'SCRAM-SHA-256' : 'SCRAM-SHA-512';
      return { mechanism: name, username, password };
    }
    case 'oauthbearer': {
      const provider = (sasl as { oauthBearerProvider?: () => Promise<{ value: string }> }).oauthBearerProvider;
      if (typeof provider !== 'function') {
        throw new KafkaJSNonRetriableError('sasl.oauthBearerProvider: expected a function returning a token');
      }
      return { mechanism: 'OAUTHBEARER', token: async () => ({ value: (await provider()).value }) };
    }
    case 'aws':
      throw new KafkaJSUnsupportedOptionError('sasl.mechanism', 'AWS IAM SASL ("aws") is not implemented by tidemark');
    default:
      throw new KafkaJSNonRetriableError(`SASL ${sasl.mechanism} mechanism is not supported`);
  }
}

function positiveInt(config: KafkaConfig, key: 'connectionTimeout' | 'requestTimeout'): number | undefined {
  const value = config[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new KafkaJSNonRetriableError(`${key}: expected a positive integer, got ${String(value)}`);
  }
  return value;
}

/** Checks the parts of a kafkajs config that do not depend on the broker list; throws naming the option. */
export function checkKafkaConfig(config: KafkaConfig, logger: Logger): Omit<ClientConfig, 'bootstrap'> {
  if (typeof config !== 'object' || config === null) throw new KafkaJSNonRetriableError('config: expected an object');
  if (config.socketFactory !== undefined) {
    throw new KafkaJSUnsupportedOptionError('socketFactory', 'tidemark opens its own sockets (TLS through `ssl`)');
  }
  const { brokers } = config;
  if (typeof brokers !== 'function' && (!Array.isArray(brokers) || brokers.length === 0)) {
    throw new KafkaJSNonRetriableError('Failed to connect: expected brokers array and got nothing');
  }
  if (config.clientId !== undefined && typeof config.clientId !== 'string') {
    throw new KafkaJSNonRetriableError('clientId: expected a string');
  }
  const tls = tlsOf(config.ssl, logger);
  const sasl = saslOf(config.sasl);
  if (config.enforceRequestTimeout === false) {
    logger.warn('enforceRequestTimeout: false is not supported; every request is bounded by requestTimeout', {
      option: 'enforceRequestTimeout',
    });
  }
  return {
    clientId: config.clientId ?? 'kafkajs',
    ...(tls === undefined ? {} : { tls }),
    ...(sasl === undefined ? {} : { sasl }),
    connectTimeoutMs: positiveInt(config, 'connectionTimeout') ?? 1000,
    requestTimeoutMs: positiveInt(config, 'requestTimeout') ?? 30000,
  };
}

/** The broker list: kafkajs accepts an (async) function, called again whenever a client connects. */
export async function resolveBrokers(brokers: KafkaConfig['brokers']): Promise<string[]> {
  const list = typeof brokers === 'function' ? await brokers() : brokers;
  if (!Array.isArray(list) || list.length === 0) {
    throw new KafkaJSNonRetriableError('Failed to connect: brokers function returned nothing');
  }
  return list;
}

/** kafkajs's retry delay: initialRetryTime grown by multiplier, randomized by factor, capped at maxRetryTime. */
export function retryDelay(retry: Required<Omit<RetryOptions, 'restartOnFailure'>>, attempt: number): number {
  const base = retry.initialRetryTime * retry.multiplier ** attempt;
  const jitter = base * retry.factor * (Math.random() * 2 - 1);
  return Math.min(Math.max(0, Math.round(base + jitter)), retry.maxRetryTime);
}
