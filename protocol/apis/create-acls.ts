import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';
import { ACL_ENTRY_FIELDS } from './acl-fields.js';

/**
 * CreateAcls (key 30): add access-control entries to the cluster's
 * authorizer. v0-3 on Kafka 3.9, v1-3 on 4.x (KIP-896 dropped v0); v0 has
 * no pattern type, which then means LITERAL.
 */
export const CreateAcls = defineApi({
  name: 'CreateAcls',
  key: 30,
  versions: '0-3',
  flexible: '2+',
  request: [
    field(
      'creations',
      structs('AclCreation', [
        field('resourceType', 'int8', '0+', {
          doc: 'Resource type code, e.g. 2 TOPIC, 3 GROUP, 4 CLUSTER, 5 TRANSACTIONAL_ID.',
        }),
        field('resourceName', 'string', '0+', { doc: 'Resource name, or "*" for every resource of the type.' }),
        // 3 is LITERAL, the only pattern v0 can express.
        field('resourcePatternType', 'int8', '1+', {
          doc: 'v1+: 3 LITERAL (the exact name) or 4 PREFIXED (every name starting with it).',
          default: 3,
        }),
        ...ACL_ENTRY_FIELDS,
      ]),
      '0+',
      { doc: 'ACL entries to create.' },
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    // One result per creation, in request order.
    field(
      'results',
      structs('AclCreationResult', [
        field('errorCode', 'int16', '0+', { doc: 'Error for this entry; 0 if created.' }),
        field('errorMessage', 'string', '0+', { doc: "Broker's explanation of the error, or null.", nullable: '0+' }),
      ]),
      '0+',
      { doc: 'Result for each creation, in request order.' },
    ),
  ],
});

export type CreateAclsRequest = RequestOf<typeof CreateAcls>;
export type CreateAclsRequestInput = RequestInput<typeof CreateAcls>;
export type CreateAclsResponse = ResponseOf<typeof CreateAcls>;
