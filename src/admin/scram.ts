import { createHash, pbkdf2, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { TidemarkError } from '../../codecs/errors.js';
import {
  AlterUserScramCredentials,
  type AlterUserScramCredentialsRequestInput,
} from '../../protocol/apis/alter-user-scram-credentials.js';
import { DescribeUserScramCredentials } from '../../protocol/apis/describe-user-scram-credentials.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import { MIN_ITERATIONS, SCRAM_HASHES, type ScramMechanismName } from '../network/security/sasl/scram.js';
import { type AdminCallOptions, type AdminContext, adminRequest } from './admin-context.js';
import { throwResourceErrors } from './resource-errors.js';

/**
 * Users' SCRAM credentials (KIP-554), as Java's AdminClient `describeUserScramCredentials` and
 * `alterUserScramCredentials` offer them. Describing shows mechanisms and iteration counts, never secrets; an
 * upsert sends a salt and the PBKDF2-salted password (RFC 5802's Hi), never the password itself.
 */

const pbkdf2Async = promisify(pbkdf2);

/** Kafka's ScramMechanism codes on the wire. */
const MECHANISM_CODES: Record<ScramMechanismName, number> = { 'SCRAM-SHA-256': 1, 'SCRAM-SHA-512': 2 };

export type { ScramMechanismName };

export interface ScramCredentialInfo {
  /** UNKNOWN for a mechanism newer than this client. */
  mechanism: ScramMechanismName | 'UNKNOWN';
  iterations: number;
}

export interface UserScramCredentials {
  user: string;
  credentials: ScramCredentialInfo[];
}

/** Adds or replaces the user's credential for one mechanism. */
export interface ScramUpsertion {
  user: string;
  mechanism: ScramMechanismName;
  password: string;
  /** Defaults to 4096, the least Kafka accepts. */
  iterations?: number;
  /** Defaults to 32 random bytes. */
  salt?: Uint8Array;
}

/** Removes the user's credential for one mechanism. */
export interface ScramDeletion {
  user: string;
  mechanism: ScramMechanismName;
  delete: true;
}

export type ScramAlteration = ScramUpsertion | ScramDeletion;

function mechanismCode(name: ScramMechanismName): number {
  const code = Object.hasOwn(MECHANISM_CODES, name) ? MECHANISM_CODES[name] : undefined;
  if (code === undefined) throw new TidemarkError(`unknown SCRAM mechanism ${JSON.stringify(name)}`);
  return code;
}

function mechanismName(code: number): ScramMechanismName | 'UNKNOWN' {
  for (const [name, c] of Object.entries(MECHANISM_CODES)) if (c === code) return name as ScramMechanismName;
  return 'UNKNOWN';
}

/** The salted password Kafka stores the keys of: PBKDF2 with the mechanism's hash, one hash length long. */
export async function scramSaltedPassword(
  mechanism: ScramMechanismName,
  password: string,
  salt: Uint8Array,
  iterations: number,
): Promise<Buffer> {
  const hash = SCRAM_HASHES[mechanism];
  const keyLength = createHash(hash).digest().length;
  return pbkdf2Async(Buffer.from(password, 'utf8'), salt, iterations, keyLength, hash);
}

/** Describing and altering users' SCRAM credentials. Every call takes `timeoutMs` and `signal`. */
export class ScramCredentialAdmin {
  constructor(private readonly ctx: AdminContext) {}

  /**
   * The credentials of the named users (all users with credentials when none are named). A user without
   * any is thrown as RESOURCE_NOT_FOUND naming it (several failures as ResourceErrors, with the others).
   */
  async describe(users?: readonly string[], options: AdminCallOptions = {}): Promise<UserScramCredentials[]> {
    const { response, version } = await adminRequest(
      this.ctx,
      DescribeUserScramCredentials,
      () => ({ users: users === undefined || users.length === 0 ? null : users.map((name) => ({ name })) }),
      options,
    );
    const api = 'DescribeUserScramCredentials';
    if (response.errorCode !== 0) {
      throw kafkaError(response.errorCode, { message: response.errorMessage, context: { api, version } });
    }
    const errors = new Map<string, TidemarkError>();
    const described: UserScramCredentials[] = [];
    for (const r of response.results) {
      if (r.errorCode !== 0) {
        const context = { api, version, user: r.user };
        errors.set(r.user, kafkaError(r.errorCode, { message: r.errorMessage, context }));
      } else {
        const credentials = r.credentialInfos.map((c) => ({
          mechanism: mechanismName(c.mechanism),
          iterations: c.iterations,
        }));
        described.push({ user: r.user, credentials });
      }
    }
    throwResourceErrors(api, errors, described);
    return described;
  }

  /**
   * Upserts and deletes credentials; resolves with the users altered. A user the broker refused (an unknown
   * credential to delete, too few iterations, a user named twice) is thrown as its KafkaError naming the user,
   * several as ResourceErrors whose `succeeded` are the users that were altered.
   */
  async alter(alterations: readonly ScramAlteration[], options: AdminCallOptions = {}): Promise<string[]> {
    if (alterations.length === 0) throw new TidemarkError('no SCRAM credential alterations given');
    const deletions: NonNullable<AlterUserScramCredentialsRequestInput['deletions']> = [];
    const upsertions: NonNullable<AlterUserScramCredentialsRequestInput['upsertions']> = [];
    for (const a of alterations) {
      if ('delete' in a) {
        deletions.push({ name: a.user, mechanism: mechanismCode(a.mechanism) });
        continue;
      }
      const iterations = a.iterations ?? MIN_ITERATIONS;
      const salt = a.salt ?? randomBytes(32);
      upsertions.push({
        name: a.user,
        mechanism: mechanismCode(a.mechanism),
        iterations,
        salt,
        saltedPassword: await scramSaltedPassword(a.mechanism, a.password, salt, iterations),
      });
    }
    const { response, version } = await adminRequest(
      this.ctx,
      AlterUserScramCredentials,
      () => ({ deletions, upsertions }),
      options,
    );
    const api = 'AlterUserScramCredentials';
    const errors = new Map<string, TidemarkError>();
    const altered: string[] = [];
    for (const r of response.results) {
      if (r.errorCode === 0) altered.push(r.user);
      else
        errors.set(
          r.user,
          kafkaError(r.errorCode, { message: r.errorMessage, context: { api, version, user: r.user } }),
        );
    }
    throwResourceErrors(api, errors, altered);
    return altered;
  }
}
