import { TidemarkError } from '../../codecs/errors.js';

/**
 * Kafka's ACL enumerations (ResourceType, PatternType, AclOperation, AclPermissionType) by the names Java's
 * AdminClient prints, and the int8 codes the ACL APIs carry. Tidemark's ACL results use the names; a code
 * this table does not know (a newer broker) is shown as UNKNOWN rather than dropped.
 */

const RESOURCE_TYPES = {
  UNKNOWN: 0,
  ANY: 1,
  TOPIC: 2,
  GROUP: 3,
  CLUSTER: 4,
  TRANSACTIONAL_ID: 5,
  DELEGATION_TOKEN: 6,
  USER: 7,
} as const;

const PATTERN_TYPES = { UNKNOWN: 0, ANY: 1, MATCH: 2, LITERAL: 3, PREFIXED: 4 } as const;

const OPERATIONS = {
  UNKNOWN: 0,
  ANY: 1,
  ALL: 2,
  READ: 3,
  WRITE: 4,
  CREATE: 5,
  DELETE: 6,
  ALTER: 7,
  DESCRIBE: 8,
  CLUSTER_ACTION: 9,
  DESCRIBE_CONFIGS: 10,
  ALTER_CONFIGS: 11,
  IDEMPOTENT_WRITE: 12,
  CREATE_TOKENS: 13,
  DESCRIBE_TOKENS: 14,
  TWO_PHASE_COMMIT: 15,
} as const;

const PERMISSIONS = { UNKNOWN: 0, ANY: 1, DENY: 2, ALLOW: 3 } as const;

export type AclResourceType = keyof typeof RESOURCE_TYPES;
export type AclPatternType = keyof typeof PATTERN_TYPES;
export type AclOperation = keyof typeof OPERATIONS;
export type AclPermission = keyof typeof PERMISSIONS;

interface Enumeration<N extends string> {
  what: string;
  codes: Readonly<Record<N, number>>;
}

export const RESOURCE_TYPE: Enumeration<AclResourceType> = { what: 'resource type', codes: RESOURCE_TYPES };
export const PATTERN_TYPE: Enumeration<AclPatternType> = { what: 'pattern type', codes: PATTERN_TYPES };
export const OPERATION: Enumeration<AclOperation> = { what: 'operation', codes: OPERATIONS };
export const PERMISSION: Enumeration<AclPermission> = { what: 'permission type', codes: PERMISSIONS };

/**
 * The code of a name for a request; an unknown name (a typo, lower case) is refused before anything is sent,
 * and so is UNKNOWN: a broker cannot parse a request carrying it and closes the connection (Java's AdminClient
 * refuses it too).
 */
export function codeOf<N extends string>(e: Enumeration<N>, name: N): number {
  const code = Object.hasOwn(e.codes, name) ? e.codes[name] : undefined;
  if (code === undefined || name === 'UNKNOWN') {
    throw new TidemarkError(
      `unknown ACL ${e.what} ${JSON.stringify(name)}; expected one of ${Object.keys(e.codes).join(', ')}`,
    );
  }
  return code;
}

/** The name of a code from a response; UNKNOWN for a code newer than this table. */
export function nameOf<N extends string>(e: Enumeration<N>, code: number): N {
  for (const [name, c] of Object.entries(e.codes)) if (c === code) return name as N;
  return 'UNKNOWN' as N;
}

/** The names, for a CLI's help and parsing. */
export function namesOf<N extends string>(e: Enumeration<N>): N[] {
  return Object.keys(e.codes) as N[];
}
