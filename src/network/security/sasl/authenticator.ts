import { SaslAuthenticate } from '../../../../protocol/apis/sasl-authenticate.js';
import { SaslHandshake } from '../../../../protocol/apis/sasl-handshake.js';
import { errorName } from '../../../../protocol/kafka-error.js';
import type { Connection, RequestFn } from '../../connection.js';
import { type BrokerAddress, ConnectionError } from '../../errors.js';
import { AuthenticationError, UnsupportedMechanismError } from '../errors.js';
import { redact, type SecurityLogger } from '../logger.js';
import type { SaslMechanism } from './mechanism.js';

const UNSUPPORTED_SASL_MECHANISM = 33;
const ILLEGAL_SASL_STATE = 34;
const SASL_AUTHENTICATION_FAILED = 58;

export interface AuthenticatorOptions {
  /** Re-authenticate before the session lifetime the broker reports runs out (KIP-368). Default true. */
  reauthenticate?: boolean;
  log?: SecurityLogger;
}

/**
 * One SASL authentication over `request`: SaslHandshake, then the mechanism's rounds in SaslAuthenticate
 * frames (KIP-152). Resolves with the session lifetime the broker reported (0: no limit).
 */
export async function authenticateSasl(
  request: RequestFn,
  mechanism: SaslMechanism,
  broker: BrokerAddress,
  log?: SecurityLogger,
): Promise<number> {
  const name = mechanism.name;
  const handshake = await request(SaslHandshake, { mechanism: name });
  if (handshake.errorCode === UNSUPPORTED_SASL_MECHANISM) {
    throw new UnsupportedMechanismError(name, handshake.mechanisms, broker);
  }
  if (handshake.errorCode !== 0) {
    const reason = handshake.errorCode === ILLEGAL_SASL_STATE ? 'state' : 'server';
    throw new AuthenticationError(name, reason, `SaslHandshake answered ${errorName(handshake.errorCode)}`, broker);
  }
  let lifetimeMs = 0;
  let rounds = 0;
  const exchange = async (clientBytes: Buffer): Promise<Buffer> => {
    rounds++;
    const response = await request(SaslAuthenticate, { authBytes: clientBytes });
    if (response.errorCode !== 0) {
      const said = response.errorMessage === null ? '' : `: ${redact(response.errorMessage, mechanism.secrets())}`;
      const code = errorName(response.errorCode);
      if (response.errorCode === SASL_AUTHENTICATION_FAILED) {
        throw new AuthenticationError(
          name,
          'credentials',
          `the broker refused the credentials (${code})${said}`,
          broker,
        );
      }
      const reason = response.errorCode === ILLEGAL_SASL_STATE ? 'state' : 'server';
      throw new AuthenticationError(name, reason, `SaslAuthenticate answered ${code}${said}`, broker);
    }
    lifetimeMs = Number(response.sessionLifetimeMs);
    return response.authBytes;
  };
  try {
    await mechanism.authenticate(exchange);
  } catch (err) {
    // The mechanism does not know the broker's address; add it.
    if (err instanceof AuthenticationError && err.broker === undefined) {
      throw new AuthenticationError(
        name,
        err.reason,
        err.message.replace(/^SASL \S+ authentication failed: /, ''),
        broker,
        {
          cause: err.cause,
        },
      );
    }
    throw err;
  }
  log?.('sasl.authenticated', {
    broker: `${broker.host}:${broker.port}`,
    mechanism: name,
    rounds,
    sessionLifetimeMs: lifetimeMs,
  });
  return lifetimeMs;
}

/** When to re-authenticate: at 85-95% of the session lifetime, like the Java client, so not all at once. */
export function reauthDelay(lifetimeMs: number, random = Math.random()): number {
  return Math.max(0, Math.floor(lifetimeMs * (0.85 + 0.1 * random)));
}

/**
 * The `authenticate` hook for Connection: authenticates once, then keeps the session alive by re-authenticating
 * on the same connection before it expires. While re-authentication runs, new requests wait and in-flight ones
 * finish first (Connection.exclusive). A failed re-authentication closes the connection with its error.
 */
export function saslAuthenticator(
  mechanism: SaslMechanism,
  options: AuthenticatorOptions = {},
): (connection: Connection) => Promise<void> {
  const { log } = options;
  return async (connection) => {
    const broker = { host: connection.host, port: connection.port, nodeId: connection.nodeId };
    const versions = {
      handshake: connection.versionFor(SaslHandshake),
      authenticate: connection.versionFor(SaslAuthenticate),
    };
    log?.('sasl.start', { broker: connection.address, mechanism: mechanism.name, ...versions });
    const request: RequestFn = (api, body, opts) => connection.request(api, body, opts);
    const lifetimeMs = await authenticateSasl(request, mechanism, broker, log);
    if (options.reauthenticate === false || lifetimeMs <= 0) return;

    let timer: NodeJS.Timeout | undefined;
    const schedule = (lifetime: number) => {
      if (connection.isClosed || lifetime <= 0) return;
      const delay = reauthDelay(lifetime);
      log?.('sasl.reauth.scheduled', { broker: connection.address, sessionLifetimeMs: lifetime, inMs: delay });
      timer = setTimeout(reauthenticate, delay);
      timer.unref();
    };
    const reauthenticate = () => {
      timer = undefined;
      const started = Date.now();
      connection
        .exclusive((exclusiveRequest) => authenticateSasl(exclusiveRequest, mechanism, broker, log))
        .then(
          (lifetime) => {
            log?.('sasl.reauthenticated', { broker: connection.address, tookMs: Date.now() - started });
            schedule(lifetime);
          },
          (err: unknown) => {
            if (connection.isClosed) return;
            log?.('sasl.reauth.failed', { broker: connection.address, error: (err as Error).name });
            const reason =
              err instanceof ConnectionError
                ? err
                : new ConnectionError(`re-authentication failed: ${(err as Error).message}`, broker, { cause: err });
            connection.destroy(reason);
          },
        );
    };
    connection.once('close', () => {
      if (timer !== undefined) clearTimeout(timer);
    });
    schedule(lifetimeMs);
  };
}
