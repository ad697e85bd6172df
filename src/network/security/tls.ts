import { isIP, type OnReadOpts } from 'node:net';
import {
  checkServerIdentity as defaultCheck,
  type ConnectionOptions as NodeTlsOptions,
  type PeerCertificate,
  connect as tlsConnect,
} from 'node:tls';
import type { SocketFactory } from '../socket.js';
import { TlsError, TlsNameMismatchError } from './errors.js';
import type { SecurityLogger } from './logger.js';

export type Pem = string | Buffer;

/** Transport security for every broker connection (`ClientConfig.tls`). */
export interface TlsConfig {
  /** Trusted CA certificates (PEM). Default: Node's bundled root CAs. */
  ca?: Pem | readonly Pem[];
  /** Client certificate chain (PEM), for brokers that require mutual TLS (`ssl.client.auth=required`). */
  cert?: Pem;
  /** The client certificate's private key (PEM). */
  key?: Pem;
  /** Decrypts `key` when it is encrypted. */
  passphrase?: string;
  /**
   * The name the broker's certificate must carry. Default: the host being connected to (the bootstrap or
   * advertised address). Also sent as SNI when it is a DNS name.
   */
  servername?: string;
  /** Verify the broker's certificate chain and name. Default true; false is for throwaway test setups only. */
  rejectUnauthorized?: boolean;
  /** Replaces Node's name check (`tls.checkServerIdentity`); return an Error to refuse the certificate. */
  checkServerIdentity?: (host: string, cert: PeerCertificate) => Error | undefined;
  /** Lowest protocol version accepted. Default TLSv1.2. */
  minVersion?: 'TLSv1.2' | 'TLSv1.3';
}

/** OpenSSL verification codes that mean "this certificate is not trusted", as opposed to a network failure. */
const TRUST_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

// OpenSSL (Node) writes "wrong version number", BoringSSL (Bun) "WRONG_VERSION_NUMBER", rustls (Deno's TLS)
// "received fatal alert: BadCertificate": `_` matches a space, and the words may run together.
const CLIENT_CERT_ALERT =
  /alert[ _:]*(bad[ _]?certificate|certificate[ _]?required|unknown[ _]?ca|certificate[ _]?unknown)/i;
const NOT_TLS_PEER =
  /wrong[ _]version[ _]number|packet[ _]length[ _]too[ _]long|unexpected[ _]eof|ECONNRESET|socket disconnected/i;

function certificateNames(cert: PeerCertificate | undefined): string[] {
  if (cert === undefined) return [];
  if (cert.subjectaltname) return cert.subjectaltname.split(',').map((s) => s.trim());
  const cn = cert.subject?.CN;
  return cn === undefined ? [] : [`CN=${Array.isArray(cn) ? cn.join('+') : cn}`];
}

/** Turns a handshake failure into a typed error that says what went wrong, without key material. */
export function tlsFailure(
  err: Error & { code?: string; cert?: PeerCertificate },
  host: string,
  port: number,
  name: string,
): TlsError {
  const broker = { host, port };
  const code = err.code;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return new TlsNameMismatchError(name, certificateNames(err.cert), broker, err);
  if (code !== undefined && TRUST_CODES.has(code)) {
    return new TlsError(
      `the broker's certificate is not trusted (${code}: ${err.message}); check tls.ca`,
      code,
      broker,
      {
        cause: err,
        retriable: false,
      },
    );
  }
  const hint = NOT_TLS_PEER.test(`${code} ${err.message}`)
    ? ' (is this a TLS listener, and does it require a client certificate?)'
    : '';
  return new TlsError(`${err.message}${hint}`, code, broker, { cause: err, retriable: true });
}

/** A socket error's message, prefixed with what it means when it is the broker refusing the client certificate. */
export function explainAlert(message: string): string {
  return CLIENT_CERT_ALERT.test(message)
    ? `the broker refused the client certificate (check tls.cert and tls.key): ${message}`
    : message;
}

/**
 * A SocketFactory that opens TLS: resolves with the TLSSocket once the handshake is done and the broker's
 * certificate chain and name are verified (both on by default). Connect timeout covers TCP and handshake.
 */
export function tlsSocketFactory(config: TlsConfig, log?: SecurityLogger): SocketFactory {
  return ({ host, port, timeoutMs, onread }) =>
    new Promise((resolve, reject) => {
      const name = config.servername ?? host;
      // tls.connect takes net.connect's options too (its typings omit onread): the socket reads decrypted bytes
      // straight into the connection's frame reader, on Node 20+, Bun and Deno alike.
      const options: NodeTlsOptions & { onread?: OnReadOpts } = {
        host,
        port,
        onread,
        // RFC 6066 forbids an IP address as SNI; the certificate is still checked against it.
        servername: isIP(name) === 0 ? name : undefined,
        ca: config.ca as NodeTlsOptions['ca'],
        cert: config.cert,
        key: config.key,
        passphrase: config.passphrase,
        rejectUnauthorized: config.rejectUnauthorized ?? true,
        minVersion: config.minVersion ?? 'TLSv1.2',
        checkServerIdentity: (_host, cert) => (config.checkServerIdentity ?? defaultCheck)(name, cert),
      };
      const socket = tlsConnect(options);
      socket.setNoDelay(true);
      // Until TCP is up a failure is a plain connect failure (refused, unreachable), not a TLS one.
      let tcpUp = false;
      socket.once('connect', () => {
        tcpUp = true;
      });
      const timer = setTimeout(() => {
        socket.destroy();
        if (!tcpUp) reject(new Error(`connect timed out after ${timeoutMs} ms`));
        else
          reject(
            new TlsError(`no TLS session within ${timeoutMs} ms`, 'ETIMEDOUT', { host, port }, { retriable: true }),
          );
      }, timeoutMs);
      const onError = (err: Error) => {
        clearTimeout(timer);
        socket.destroy();
        log?.('tls.failed', { broker: `${host}:${port}`, code: (err as { code?: string }).code, tcpUp });
        reject(tcpUp ? tlsFailure(err, host, port, name) : err);
      };
      socket.once('error', onError);
      socket.once('secureConnect', () => {
        clearTimeout(timer);
        socket.off('error', onError);
        // With TLS 1.3 the broker checks the client certificate after the handshake has completed on this side, so
        // a refusal arrives as a later socket error: say what it means before the connection reports it.
        socket.prependListener('error', (err) => {
          err.message = explainAlert(err.message);
        });
        log?.('tls.connected', {
          broker: `${host}:${port}`,
          protocol: socket.getProtocol(),
          cipher: socket.getCipher().name,
          clientCertificate: config.cert !== undefined,
        });
        resolve(socket);
      });
    });
}
