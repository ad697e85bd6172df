import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/** A quota entity: its components, each a type (user, client-id, ip) and a name (null: the default). */
const EntityData = structs('EntityData', [
  field('entityType', 'string', '0+'),
  field('entityName', 'string', '0+', { nullable: '0+' }),
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
        field('entity', EntityData, '0+'),
        field(
          'ops',
          structs('OpData', [
            field('key', 'string', '0+'),
            field('value', 'float64', '0+'),
            field('remove', 'bool', '0+'),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
    field('validateOnly', 'bool', '0+'),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field(
      'entries',
      structs('EntryData', [
        field('errorCode', 'int16', '0+'),
        field('errorMessage', 'string', '0+', { nullable: '0+' }),
        field('entity', EntityData, '0+'),
      ]),
      '0+',
    ),
  ],
});

export type AlterClientQuotasRequest = RequestOf<typeof AlterClientQuotas>;
export type AlterClientQuotasRequestInput = RequestInput<typeof AlterClientQuotas>;
export type AlterClientQuotasResponse = ResponseOf<typeof AlterClientQuotas>;
