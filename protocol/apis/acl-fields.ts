import { field } from '../schema.js';

/**
 * The fields Kafka repeats across the three ACL APIs (CreateAcls, DescribeAcls, DeleteAcls): an ACL filter,
 * and the four fields that describe one access-control entry. The codes are Kafka's ResourceType,
 * PatternType, AclOperation and AclPermissionType (src/admin/acl-codes.ts names them).
 */

/** An ACL filter: null strings match anything; the pattern type (v1+) may be ANY (1) or MATCH (2) as well. */
export const ACL_FILTER_FIELDS = [
  field('resourceTypeFilter', 'int8', '0+'),
  field('resourceNameFilter', 'string', '0+', { nullable: '0+' }),
  // 3 is LITERAL, the only pattern v0 can express.
  field('patternTypeFilter', 'int8', '1+', { default: 3, ignorable: false }),
  field('principalFilter', 'string', '0+', { nullable: '0+' }),
  field('hostFilter', 'string', '0+', { nullable: '0+' }),
  field('operation', 'int8', '0+'),
  field('permissionType', 'int8', '0+'),
] as const;

/** Who may do what from where, once the resource is known. */
export const ACL_ENTRY_FIELDS = [
  field('principal', 'string', '0+'),
  field('host', 'string', '0+'),
  field('operation', 'int8', '0+'),
  field('permissionType', 'int8', '0+'),
] as const;
