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
  request: [field('filters', structs('DeleteAclsFilter', [...ACL_FILTER_FIELDS]), '0+')],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field(
      'filterResults',
      structs('DeleteAclsFilterResult', [
        field('errorCode', 'int16', '0+'),
        field('errorMessage', 'string', '0+', { nullable: '0+' }),
        field(
          'matchingAcls',
          structs('DeleteAclsMatchingAcl', [
            field('errorCode', 'int16', '0+'),
            field('errorMessage', 'string', '0+', { nullable: '0+' }),
            field('resourceType', 'int8', '0+'),
            field('resourceName', 'string', '0+'),
            field('patternType', 'int8', '1+', { default: 3, ignorable: false }),
            ...ACL_ENTRY_FIELDS,
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
});

export type DeleteAclsRequest = RequestOf<typeof DeleteAcls>;
export type DeleteAclsRequestInput = RequestInput<typeof DeleteAcls>;
export type DeleteAclsResponse = ResponseOf<typeof DeleteAcls>;
