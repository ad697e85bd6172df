import { createHash, createHmac, pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { AuthenticationError } from '../errors.js';
import type { SaslExchange, SaslMechanism } from './mechanism.js';

const pbkdf2Async = promisify(pbkdf2);

export type ScramHash = 'sha1' | 'sha256' | 'sha512';
export type ScramMechanismName = 'SCRAM-SHA-256' | 'SCRAM-SHA-512';

export const SCRAM_HASHES: Record<ScramMechanismName, ScramHash> = {
  'SCRAM-SHA-256': 'sha256',
  'SCRAM-SHA-512': 'sha512',
};

/** Kafka refuses fewer (ScramMechanism.minIterations); a broker asking for fewer is not to be trusted. */
export const MIN_ITERATIONS = 4096;
/** An upper bound so a hostile broker cannot make the client spin: far above anything Kafka stores. */
export const MAX_ITERATIONS = 1_000_000;
/** "n,," base64: no channel binding, no authzid. */
const CHANNEL_BINDING = 'biws';

/**
 * The username as a SCRAM `saslname` (RFC 5802 5.1), the same way Kafka's ScramFormatter writes it: `=` becomes
 * `=3D` and `,` becomes `=2C`. Kafka applies no SASLprep to usernames or passwords — its stored credentials
 * are derived from the UTF-8 bytes as given — so neither does tidemark (SASLprep would change a password with,
 * e.g., a non-breaking space and then fail against the broker's stored key).
 */
export function saslName(username: string): string {
  return username.replace(/=/g, '=3D').replace(/,/g, '=2C');
}

function hmac(hash: ScramHash, key: Buffer, data: string | Buffer): Buffer {
  return createHmac(hash, key).update(data).digest();
}

function xor(a: Buffer, b: Buffer): Buffer {
  const out = Buffer.allocUnsafe(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] ^ b[i];
  return out;
}

/** `k=v,k=v` attributes; a value may itself contain `=` (base64). */
function attributes(message: string, mechanism: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of message.split(',')) {
    const eq = part.indexOf('=');
    if (eq !== 1) throw new AuthenticationError(mechanism, 'server', 'the broker sent a malformed SCRAM message');
    out.set(part[0], part.slice(2));
  }
  return out;
}

/**
 * One SCRAM conversation (RFC 5802, RFC 7677) from the client's side: the first message, the proof, and the
 * check of the server's signature — the broker must prove it holds the credential too.
 */
export class ScramConversation {
  private readonly clientFirstBare: string;
  private serverSignature: Buffer | undefined;

  constructor(
    readonly mechanism: string,
    private readonly hash: ScramHash,
    username: string,
    private readonly password: string,
    /** Printable, no commas; random by default (tests pass the RFC's). */
    private readonly clientNonce: string = randomBytes(24).toString('base64'),
  ) {
    this.clientFirstBare = `n=${saslName(username)},r=${clientNonce}`;
  }

  clientFirst(): Buffer {
    return Buffer.from(`n,,${this.clientFirstBare}`, 'utf8');
  }

  /** Checks the server-first message and computes the client-final message with the proof. */
  async clientFinal(serverFirstBytes: Buffer): Promise<Buffer> {
    const m = this.mechanism;
    const serverFirst = serverFirstBytes.toString('utf8');
    const attrs = attributes(serverFirst, m);
    if (attrs.has('m')) throw new AuthenticationError(m, 'server', 'the broker requires an unknown SCRAM extension');
    const nonce = attrs.get('r');
    const salt = attrs.get('s');
    const iterations = Number(attrs.get('i'));
    if (nonce === undefined || salt === undefined || !attrs.has('i')) {
      throw new AuthenticationError(m, 'server', 'the broker sent a SCRAM server-first message without r, s or i');
    }
    if (!nonce.startsWith(this.clientNonce) || nonce.length <= this.clientNonce.length) {
      throw new AuthenticationError(m, 'server', "the broker's nonce does not extend the client's nonce");
    }
    if (!Number.isInteger(iterations) || iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
      throw new AuthenticationError(
        m,
        'server',
        `the broker asked for ${attrs.get('i')} iterations (accepted: ${MIN_ITERATIONS} to ${MAX_ITERATIONS})`,
      );
    }
    const saltBytes = Buffer.from(salt, 'base64');
    if (saltBytes.length === 0) throw new AuthenticationError(m, 'server', 'the broker sent an empty salt');
    const keyLength = createHash(this.hash).digest().length;
    const salted = await pbkdf2Async(Buffer.from(this.password, 'utf8'), saltBytes, iterations, keyLength, this.hash);
    const clientKey = hmac(this.hash, salted, 'Client Key');
    const storedKey = createHash(this.hash).update(clientKey).digest();
    const withoutProof = `c=${CHANNEL_BINDING},r=${nonce}`;
    const authMessage = `${this.clientFirstBare},${serverFirst},${withoutProof}`;
    const proof = xor(clientKey, hmac(this.hash, storedKey, authMessage));
    this.serverSignature = hmac(this.hash, hmac(this.hash, salted, 'Server Key'), authMessage);
    return Buffer.from(`${withoutProof},p=${proof.toString('base64')}`, 'utf8');
  }

  /** Verifies the server-final message: `v=` must be the expected server signature; `e=` is a refusal. */
  verifyServerFinal(serverFinalBytes: Buffer): void {
    const m = this.mechanism;
    if (this.serverSignature === undefined) throw new Error('clientFinal() must run before verifyServerFinal()');
    const attrs = attributes(serverFinalBytes.toString('utf8'), m);
    const error = attrs.get('e');
    if (error !== undefined) throw new AuthenticationError(m, 'credentials', `the broker refused: ${error}`);
    const v = attrs.get('v');
    if (v === undefined) throw new AuthenticationError(m, 'server', 'the broker sent no server signature');
    const signature = Buffer.from(v, 'base64');
    if (signature.length !== this.serverSignature.length || !timingSafeEqual(signature, this.serverSignature)) {
      throw new AuthenticationError(
        m,
        'server',
        "the broker's server signature is wrong: it does not hold the credential",
      );
    }
  }
}

/** SASL SCRAM-SHA-256 / SCRAM-SHA-512 against Kafka's SCRAM credentials. */
export class ScramMechanism implements SaslMechanism {
  constructor(
    readonly name: ScramMechanismName,
    private readonly username: string,
    private readonly password: string,
  ) {}

  async authenticate(exchange: SaslExchange): Promise<void> {
    const conversation = new ScramConversation(this.name, SCRAM_HASHES[this.name], this.username, this.password);
    const serverFirst = await exchange(conversation.clientFirst());
    const serverFinal = await exchange(await conversation.clientFinal(serverFirst));
    conversation.verifyServerFinal(serverFinal);
  }

  secrets(): readonly string[] {
    return [this.password];
  }
}
