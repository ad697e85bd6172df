import { type BrokerAddress, ConnectionError } from '../errors.js';

/**
 * Why authentication did not succeed:
 * - `credentials`: the broker refused the username, password or token (SASL_AUTHENTICATION_FAILED);
 * - `mechanism`: the broker does not enable the configured mechanism (UNSUPPORTED_SASL_MECHANISM);
 * - `server`: the broker could not prove it knows the credential (SCRAM nonce or signature wrong), or answered
 *   outside the mechanism's rules;
 * - `token`: the application's token function failed or returned no token;
 * - `state`: the broker rejected the exchange as out of order (ILLEGAL_SASL_STATE).
 */
export type AuthenticationFailure = 'credentials' | 'mechanism' | 'server' | 'token' | 'state';

/**
 * SASL authentication failed. Never retriable: the same credentials fail the same way. The message names the
 * mechanism and the reason but never a password, token or SASL payload.
 */
export class AuthenticationError extends ConnectionError {
  override name = 'AuthenticationError';

  constructor(
    readonly mechanism: string,
    readonly reason: AuthenticationFailure,
    message: string,
    broker?: BrokerAddress,
    options?: { cause?: unknown },
  ) {
    super(`SASL ${mechanism} authentication failed: ${message}`, broker, { cause: options?.cause, retriable: false });
  }
}

/** The broker's listener does not enable the configured mechanism; `enabledMechanisms` lists what it offers. */
export class UnsupportedMechanismError extends AuthenticationError {
  override name = 'UnsupportedMechanismError';

  constructor(
    mechanism: string,
    readonly enabledMechanisms: readonly string[],
    broker?: BrokerAddress,
  ) {
    const offered = enabledMechanisms.length === 0 ? 'none' : enabledMechanisms.join(', ');
    super(mechanism, 'mechanism', `the broker does not enable ${mechanism}; it enables: ${offered}`, broker);
  }
}

/** The TLS handshake failed: an untrusted or expired certificate, a name mismatch, or a peer that is not TLS. */
export class TlsError extends ConnectionError {
  override name = 'TlsError';

  constructor(
    message: string,
    /** Node's or OpenSSL's code, e.g. `UNABLE_TO_VERIFY_LEAF_SIGNATURE`, when there is one. */
    readonly code: string | undefined,
    broker: BrokerAddress,
    options: { cause?: unknown; retriable: boolean },
  ) {
    super(`TLS handshake failed: ${message}`, broker, options);
  }
}

/** The broker's certificate is valid but does not name the host (or `servername`) the client checked it for. */
export class TlsNameMismatchError extends TlsError {
  override name = 'TlsNameMismatchError';

  constructor(
    /** The name that was checked. */
    readonly expectedName: string,
    /** The names the certificate carries (subjectAltName entries, else the subject CN). */
    readonly certificateNames: readonly string[],
    broker: BrokerAddress,
    cause: unknown,
  ) {
    const names = certificateNames.length === 0 ? 'no names' : certificateNames.join(', ');
    super(
      `the broker's certificate does not match the name "${expectedName}" (the certificate is for: ${names})`,
      'ERR_TLS_CERT_ALTNAME_INVALID',
      broker,
      { cause, retriable: false },
    );
  }
}
