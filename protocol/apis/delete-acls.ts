import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';
import { ACL_ENTRY_FIELDS, ACL_FILTER_FIELDS } from './acl-fields.js';

/**
 * DeleteAcls (key 31): remove every access-control entry matching each of
 * several filters, answering per filter with the entries it removed.
 * v0-3 on Kafka 3.9, v1-3 on 4.x.
 */
export const DeleteAcls = defineApi({
  name: 'DeleteAcls',
  key: 31,
  versions: '0-3',
  flexible: '2+',
  request: [
    field('filters', structs('DeleteAclsFilter', [...ACL_FILTER_FIELDS]), '0+', {
      doc: 'Filters; every ACL matching any of them is deleted.',
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field(
      'filterResults',
      structs('DeleteAclsFilterResult', [
        field('errorCode', 'int16', '0+', { doc: 'Error for this filter; 0 for none.' }),
        field('errorMessage', 'string', '0+', { doc: "Broker's explanation of the error, or null.", nullable: '0+' }),
        field(
          'matchingAcls',
          structs('DeleteAclsMatchingAcl', [
            field('errorCode', 'int16', '0+', { doc: 'Error deleting this ACL; 0 if deleted.' }),
            field('errorMessage', 'string', '0+', {
              doc: "Broker's explanation of the error, or null.",
              nullable: '0+',
            }),
            field('resourceType', 'int8', '0+', { doc: 'Resource type code of the matched ACL.' }),
            field('resourceName', 'string', '0+', { doc: 'Resource name of the matched ACL.' }),
            field('patternType', 'int8', '1+', {
              doc: 'v1+: pattern type code of the matched ACL: 3 LITERAL or 4 PREFIXED.',
              default: 3,
              ignorable: false,
            }),
            ...ACL_ENTRY_FIELDS,
          ]),
          '0+',
          { doc: 'ACLs the filter matched, each with its own deletion result.' },
        ),
      ]),
      '0+',
      { doc: 'Result for each filter, in request order.' },
    ),
  ],
});

export type DeleteAclsRequest = RequestOf<typeof DeleteAcls>;
export type DeleteAclsRequestInput = RequestInput<typeof DeleteAcls>;
export type DeleteAclsResponse = ResponseOf<typeof DeleteAcls>;
