import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/** A quota entity: its components, each a type (user, client-id, ip) and a name (null: the default). */
const EntityData = structs('EntityData', [
  field('entityType', 'string', '0+', { doc: 'Entity type: "user", "client-id" or "ip".' }),
  field('entityName', 'string', '0+', { doc: "Entity name, or null for the type's default entity.", nullable: '0+' }),
]);

/**
 * AlterClientQuotas (key 49, KIP-546): set or remove quota values per
 * entity, optionally only validating. v0-1 on Kafka 3.9 and 4.x; v1 is
 * flexible.
 */
export const AlterClientQuotas = defineApi({
  name: 'AlterClientQuotas',
  key: 49,
  versions: '0-1',
  flexible: '1+',
  request: [
    field(
      'entries',
      structs('EntryData', [
        field('entity', EntityData, '0+', {
          doc: 'Components naming the entity, e.g. a user and a client id together.',
        }),
        field(
          'ops',
          structs('OpData', [
            field('key', 'string', '0+', { doc: 'Quota name, e.g. "producer_byte_rate" or "request_percentage".' }),
            field('value', 'float64', '0+', { doc: 'Value to set; ignored when removing.' }),
            field('remove', 'bool', '0+', { doc: 'True to remove the quota instead of setting it.' }),
          ]),
          '0+',
          { doc: 'Quota values to set or remove on the entity.' },
        ),
      ]),
      '0+',
      { doc: 'Quota changes, one entry per entity.' },
    ),
    field('validateOnly', 'bool', '0+', { doc: 'True to check the changes without applying them.' }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field(
      'entries',
      structs('EntryData', [
        field('errorCode', 'int16', '0+', {
          doc: 'Error for this entity; 0 if applied (or valid, with validateOnly).',
        }),
        field('errorMessage', 'string', '0+', { doc: "Broker's explanation of the error, or null.", nullable: '0+' }),
        field('entity', EntityData, '0+', { doc: 'The entity the result is for.' }),
      ]),
      '0+',
      { doc: 'Result for each entity of the request.' },
    ),
  ],
});

export type AlterClientQuotasRequest = RequestOf<typeof AlterClientQuotas>;
export type AlterClientQuotasRequestInput = RequestInput<typeof AlterClientQuotas>;
export type AlterClientQuotasResponse = ResponseOf<typeof AlterClientQuotas>;
