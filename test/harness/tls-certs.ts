/**
 * Certificates for the SSL and SASL_SSL listeners, made at test time with openssl (no checked-in keys): a CA,
 * a broker certificate for 127.0.0.1 / localhost, and a client certificate for mutual TLS. The broker reads
 * them as PEM (Kafka's PEM key and trust stores, KIP-651), so no keytool or store password is needed.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TlsMaterial {
  dir: string;
  /** PEM: the CA that signed both certificates; what clients trust. */
  ca: string;
  /** PEM: the client certificate (CN=tidemark-client) and its key, for mTLS. */
  clientCert: string;
  clientKey: string;
  /** Files the broker reads. */
  files: {
    caCert: string;
    /** Broker private key (PKCS#8) followed by its certificate chain. */
    brokerKeystore: string;
  };
}

/** Broker certificate names; tests check name mismatches against anything else. */
export const BROKER_CERT_NAMES = ['localhost', '127.0.0.1'];
export const CLIENT_CERT_CN = 'tidemark-client';

async function openssl(cwd: string, args: string[]): Promise<void> {
  try {
    await run('openssl', args, { cwd });
  } catch (err) {
    const e = err as Error & { stderr?: string };
    throw new Error(`openssl ${args[0]} failed: ${e.stderr ?? e.message}`);
  }
}

/** A leaf certificate signed by the CA in `dir`. */
async function leaf(dir: string, name: string, subject: string, extensions: string): Promise<void> {
  const ext = path.join(dir, `${name}.ext`);
  await writeFile(ext, extensions);
  await openssl(dir, [
    'req',
    '-new',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    subject,
  ]);
  await openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-sha256',
    '-extfile',
    ext,
    '-out',
    `${name}.crt`,
  ]);
}

/** Writes a fresh CA, broker and client certificate into `dir` (which must exist). Takes well under a second. */
export async function generateTlsMaterial(dir: string): Promise<TlsMaterial> {
  await openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-sha256',
    '-subj',
    '/CN=tidemark test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  const san = BROKER_CERT_NAMES.map((n) => (/^[\d.]+$/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
  await leaf(
    dir,
    'broker',
    '/CN=localhost',
    `subjectAltName=${san}\nextendedKeyUsage=serverAuth,clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n`,
  );
  await leaf(
    dir,
    'client',
    `/CN=${CLIENT_CERT_CN}`,
    'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n',
  );
  const read = (f: string) => readFile(path.join(dir, f), 'utf8');
  const [ca, brokerKey, brokerCert, clientCert, clientKey] = await Promise.all(
    ['ca.crt', 'broker.key', 'broker.crt', 'client.crt', 'client.key'].map(read),
  );
  const brokerKeystore = path.join(dir, 'broker-keystore.pem');
  await writeFile(brokerKeystore, `${brokerKey.trim()}\n${brokerCert.trim()}\n${ca.trim()}\n`);
  return { dir, ca, clientCert, clientKey, files: { caCert: path.join(dir, 'ca.crt'), brokerKeystore } };
}
