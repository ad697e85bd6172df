import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * DescribeClientQuotas (key 48, KIP-546): the quotas set for entities
 * (user, client-id, ip) matching a filter. v0-1 on Kafka 3.9 and 4.x;
 * v1 is flexible.
 */
export const DescribeClientQuotas = defineApi({
  name: 'DescribeClientQuotas',
  key: 48,
  versions: '0-1',
  flexible: '1+',
  request: [
    field(
      'components',
      structs('ComponentData', [
        field('entityType', 'string', '0+', { doc: 'Entity type the condition is on: "user", "client-id" or "ip".' }),
        // 0: exactly `match` (null: the default entity), 1: the default entity, 2: any entity of the type.
        field('matchType', 'int8', '0+', {
          doc: '0 to match the name in match exactly, 1 the default entity, 2 any specified entity.',
        }),
        field('match', 'string', '0+', { doc: 'Name to match when matchType is 0; null otherwise.', nullable: '0+' }),
      ]),
      '0+',
      { doc: "Conditions on the entity's components; an entity must match all of them." },
    ),
    // Only entities with no components beyond those filtered on.
    field('strict', 'bool', '0+', { doc: 'True to return only entities with no components beyond the ones given.' }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field('errorCode', 'int16', '0+', { doc: 'Error; 0 for none.' }),
    field('errorMessage', 'string', '0+', { doc: "Broker's explanation of the error, or null.", nullable: '0+' }),
    field(
      'entries',
      structs('EntryData', [
        field(
          'entity',
          structs('EntityData', [
            field('entityType', 'string', '0+', { doc: 'Entity type: "user", "client-id" or "ip".' }),
            // Null names the default entity of the type.
            field('entityName', 'string', '0+', {
              doc: "Entity name, or null for the type's default entity.",
              nullable: '0+',
            }),
          ]),
          '0+',
          { doc: 'Components naming the entity.' },
        ),
        field(
          'values',
          structs('ValueData', [
            field('key', 'string', '0+', { doc: 'Quota name, e.g. "consumer_byte_rate".' }),
            field('value', 'float64', '0+', {
              doc: 'Quota value (bytes/s for byte rates, percent for request_percentage).',
            }),
          ]),
          '0+',
          { doc: 'Quota values set on the entity.' },
        ),
      ]),
      '0+',
      { doc: 'Matching entities with their quotas, or null on error.', nullable: '0+' },
    ),
  ],
});

export type DescribeClientQuotasRequest = RequestOf<typeof DescribeClientQuotas>;
export type DescribeClientQuotasRequestInput = RequestInput<typeof DescribeClientQuotas>;
export type DescribeClientQuotasResponse = ResponseOf<typeof DescribeClientQuotas>;
