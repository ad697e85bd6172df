import { field } from '../schema.js';

/**
 * The fields Kafka repeats across the three ACL APIs (CreateAcls, DescribeAcls, DeleteAcls): an ACL filter,
 * and the four fields that describe one access-control entry. The codes are Kafka's ResourceType,
 * PatternType, AclOperation and AclPermissionType (src/admin/acl-codes.ts names them).
 */

/** An ACL filter: null strings match anything; the pattern type (v1+) may be ANY (1) or MATCH (2) as well. */
export const ACL_FILTER_FIELDS = [
  field('resourceTypeFilter', 'int8', '0+', {
    doc: 'Resource type code to match (e.g. 2 TOPIC, 3 GROUP); 1 (ANY) matches every type.',
  }),
  field('resourceNameFilter', 'string', '0+', { doc: 'Resource name to match, or null for any name.', nullable: '0+' }),
  // 3 is LITERAL, the only pattern v0 can express.
  field('patternTypeFilter', 'int8', '1+', {
    doc: 'v1+: pattern type code to match: 3 LITERAL, 4 PREFIXED, 1 ANY, or 2 MATCH (every ACL that applies to the name).',
    default: 3,
    ignorable: false,
  }),
  field('principalFilter', 'string', '0+', {
    doc: 'Principal to match, e.g. "User:alice", or null for any.',
    nullable: '0+',
  }),
  field('hostFilter', 'string', '0+', { doc: 'Host to match, or null for any.', nullable: '0+' }),
  field('operation', 'int8', '0+', {
    doc: 'Operation code to match (e.g. 3 READ, 4 WRITE); 1 (ANY) matches every operation.',
  }),
  field('permissionType', 'int8', '0+', { doc: 'Permission code to match: 3 ALLOW, 2 DENY, or 1 ANY.' }),
] as const;

/** Who may do what from where, once the resource is known. */
export const ACL_ENTRY_FIELDS = [
  field('principal', 'string', '0+', { doc: 'Principal the entry applies to, e.g. "User:alice" or "User:*".' }),
  field('host', 'string', '0+', { doc: 'Client host the entry applies to, or "*" for any host.' }),
  field('operation', 'int8', '0+', { doc: 'Operation code the entry governs, e.g. 3 READ, 4 WRITE, 2 ALL.' }),
  field('permissionType', 'int8', '0+', { doc: 'Whether the entry allows (3) or denies (2) the operation.' }),
] as const;
