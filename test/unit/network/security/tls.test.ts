/** tlsSocketFactory against a local node:tls server with certificates made by the harness (openssl). */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../../../src/network/connection.js';
import { ConnectionError } from '../../../../src/network/errors.js';
import { TLS_CLOSE_HINT } from '../../../../src/network/response-stream.js';
import { TlsError, TlsNameMismatchError } from '../../../../src/network/security/errors.js';
import { explainAlert, type TlsConfig, tlsFailure, tlsSocketFactory } from '../../../../src/network/security/tls.js';
import { generateTlsMaterial, type TlsMaterial } from '../../../harness/tls-certs.js';

let dir: string;
let material: TlsMaterial;
let server: Server;
let port: number;
const peers: (string | undefined)[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tidemark-tls-unit-'));
  material = await generateTlsMaterial(dir);
  const { readFile } = await import('node:fs/promises');
  const [key, cert] = await Promise.all([
    readFile(path.join(dir, 'broker.key')),
    readFile(path.join(dir, 'broker.crt')),
  ]);
  server = createServer({ key, cert, ca: material.ca, requestCert: true, rejectUnauthorized: false }, (socket) => {
    peers.push(socket.getPeerCertificate().subject?.CN as string | undefined);
    socket.end();
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const open = (config: TlsConfig, host = '127.0.0.1') =>
  tlsSocketFactory(config)({ host, port, timeoutMs: 5_000 }) as Promise<TLSSocket>;

describe('tlsSocketFactory', () => {
  it('verifies the chain and the name (IP SAN, DNS SAN) and presents a client certificate', async () => {
    const s1 = await open({ ca: material.ca });
    expect(s1.authorized).toBe(true);
    s1.destroy();
    const s2 = await open({ ca: material.ca, cert: material.clientCert, key: material.clientKey }, 'localhost');
    expect(s2.authorized).toBe(true);
    await new Promise((r) => s2.once('close', r));
    expect(peers).toContain('tidemark-client');
  });

  it('a name the certificate does not carry is a TlsNameMismatchError listing the names it does', async () => {
    const err = await open({ ca: material.ca, servername: 'kafka.example.com' }).catch((e) => e);
    expect(err).toBeInstanceOf(TlsNameMismatchError);
    expect(err.message).toContain('does not match the name "kafka.example.com"');
    expect(err.certificateNames).toEqual(['DNS:localhost', 'IP Address:127.0.0.1']);
    expect(err.broker).toBe(`127.0.0.1:${port}`);
    expect(err.retriable).toBe(false);
  });

  it('an unknown CA is an untrusted-certificate TlsError; turning verification off is explicit', async () => {
    const err = await open({}).catch((e) => e);
    expect(err).toBeInstanceOf(TlsError);
    expect(err.code).toBe('SELF_SIGNED_CERT_IN_CHAIN');
    expect(err.message).toMatch(/not trusted/);
    const s = await open({ rejectUnauthorized: false, servername: 'kafka.example.com' });
    expect(s.authorized).toBe(false);
    s.destroy();
  });

  it('a peer that is not TLS fails with a hint, a silent one times out', async () => {
    const { createServer: plain } = await import('node:net');
    // Both read (resume) so they notice the client's close and server.close() can finish.
    const notTls = plain((socket) => socket.resume().end('HTTP/1.0 400 Bad Request\r\n\r\n'));
    const silent = plain((socket) => socket.resume());
    await Promise.all([notTls, silent].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
    try {
      const p1 = (notTls.address() as { port: number }).port;
      const e1 = await tlsSocketFactory({})({ host: '127.0.0.1', port: p1, timeoutMs: 5_000 }).catch((e) => e);
      expect(e1).toBeInstanceOf(TlsError);
      expect(e1.message).toMatch(/TLS listener/);
      const p2 = (silent.address() as { port: number }).port;
      const e2 = await tlsSocketFactory({})({ host: '127.0.0.1', port: p2, timeoutMs: 300 }).catch((e) => e);
      expect(e2).toBeInstanceOf(TlsError);
      expect(e2.message).toMatch(/no TLS session within 300 ms/);
    } finally {
      await Promise.all([notTls, silent].map((s) => new Promise((r) => s.close(r))));
    }
  });

  it('a TLS broker that closes before its first answer gets the client certificate hint', async () => {
    // A server that ends every connection after the handshake, as a broker refusing a client certificate may be
    // seen to do on Deno (rustls reports the close, not the alert). Its own, so its sockets are destroyed here.
    const { readFile } = await import('node:fs/promises');
    const [key, cert] = await Promise.all(['broker.key', 'broker.crt'].map((f) => readFile(path.join(dir, f))));
    const sockets: TLSSocket[] = [];
    const closing = createServer({ key, cert }, (socket) => {
      sockets.push(socket);
      socket.end();
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const closingPort = (closing.address() as { port: number }).port;
    const conn = new Connection({
      host: '127.0.0.1',
      port: closingPort,
      socketFactory: tlsSocketFactory({ ca: material.ca }),
    });
    try {
      const err = await conn.connect().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectionError);
      expect((err as Error).message).toContain(`connection closed by the broker${TLS_CLOSE_HINT}`);
    } finally {
      await conn.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => closing.close(resolve));
    }
  });

  it('nothing listening is a plain connect failure, not a TLS error', async () => {
    const { createServer: plain } = await import('node:net');
    const probe = plain();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closedPort = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const err = await tlsSocketFactory({})({ host: '127.0.0.1', port: closedPort, timeoutMs: 2_000 }).catch((e) => e);
    expect(err).not.toBeInstanceOf(TlsError);
    expect(err.code).toBe('ECONNREFUSED');
  });
});

describe('tlsFailure reads OpenSSL (Node, Deno) and BoringSSL (Bun) messages alike', () => {
  it.each([
    'error:0A00010B:SSL routines:ssl3_get_record:wrong version number',
    'error:100000f7:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER',
  ])('a plaintext peer gets the TLS listener hint: %s', (message) => {
    const err = tlsFailure(Object.assign(new Error(message), { code: 'ERR_SSL_WRONG_VERSION_NUMBER' }), 'h', 1, 'h');
    expect(err).toBeInstanceOf(TlsError);
    expect(err.message).toContain(`${message} (is this a TLS listener, and does it require a client certificate?)`);
  });
});

describe('explainAlert names a refused client certificate in OpenSSL, BoringSSL and rustls words', () => {
  it.each([
    'error:0A000412:SSL routines:ssl3_read_bytes:sslv3 alert bad certificate', // Node
    'error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required', // Node, TLS 1.3
    'error:10000412:SSL routines:OPENSSL_internal:SSLV3_ALERT_BAD_CERTIFICATE', // Bun
    'received fatal alert: BadCertificate', // Deno
    'received fatal alert: CertificateRequired', // Deno, TLS 1.3
  ])('%s', (message) => {
    expect(explainAlert(message)).toBe(
      `the broker refused the client certificate (check tls.cert and tls.key): ${message}`,
    );
  });

  it('leaves other socket errors as they are', () => {
    expect(explainAlert('read ECONNRESET')).toBe('read ECONNRESET');
    expect(explainAlert('received fatal alert: DecodeError')).toBe('received fatal alert: DecodeError');
  });
});
