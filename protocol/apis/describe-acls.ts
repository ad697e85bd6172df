import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';
import { ACL_ENTRY_FIELDS, ACL_FILTER_FIELDS } from './acl-fields.js';

/**
 * DescribeAcls (key 29): list the access-control entries that match one
 * filter. v0-3 on Kafka 3.9, v1-3 on 4.x. The filter's null strings match
 * anything; its pattern type (v1+) may be ANY (1) or MATCH (2), v0 only
 * LITERAL (3).
 */
export const DescribeAcls = defineApi({
  name: 'DescribeAcls',
  key: 29,
  versions: '0-3',
  flexible: '2+',
  request: [...ACL_FILTER_FIELDS],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field('errorCode', 'int16', '0+', { doc: 'Error; 0 for none (SECURITY_DISABLED if no authorizer is configured).' }),
    field('errorMessage', 'string', '0+', { doc: "Broker's explanation of the error, or null.", nullable: '0+' }),
    field(
      'resources',
      structs('DescribeAclsResource', [
        field('resourceType', 'int8', '0+', { doc: 'Resource type code.' }),
        field('resourceName', 'string', '0+', { doc: 'Resource name, or "*".' }),
        field('patternType', 'int8', '1+', {
          doc: 'v1+: pattern type code of the resource: 3 LITERAL or 4 PREFIXED.',
          default: 3,
          ignorable: false,
        }),
        field('acls', structs('AclDescription', [...ACL_ENTRY_FIELDS]), '0+', { doc: 'ACL entries on this resource.' }),
      ]),
      '0+',
      { doc: 'Matching ACLs, grouped by resource.' },
    ),
  ],
});

export type DescribeAclsRequest = RequestOf<typeof DescribeAcls>;
export type DescribeAclsRequestInput = RequestInput<typeof DescribeAcls>;
export type DescribeAclsResponse = ResponseOf<typeof DescribeAcls>;
