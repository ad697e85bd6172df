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
        field('entityType', 'string', '0+'),
        // 0: exactly `match` (null: the default entity), 1: the default entity, 2: any entity of the type.
        field('matchType', 'int8', '0+'),
        field('match', 'string', '0+', { nullable: '0+' }),
      ]),
      '0+',
    ),
    // Only entities with no components beyond those filtered on.
    field('strict', 'bool', '0+'),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field('errorCode', 'int16', '0+'),
    field('errorMessage', 'string', '0+', { nullable: '0+' }),
    field(
      'entries',
      structs('EntryData', [
        field(
          'entity',
          structs('EntityData', [
            field('entityType', 'string', '0+'),
            // Null names the default entity of the type.
            field('entityName', 'string', '0+', { nullable: '0+' }),
          ]),
          '0+',
        ),
        field('values', structs('ValueData', [field('key', 'string', '0+'), field('value', 'float64', '0+')]), '0+'),
      ]),
      '0+',
      { nullable: '0+' },
    ),
  ],
});

export type DescribeClientQuotasRequest = RequestOf<typeof DescribeClientQuotas>;
export type DescribeClientQuotasRequestInput = RequestInput<typeof DescribeClientQuotas>;
export type DescribeClientQuotasResponse = ResponseOf<typeof DescribeClientQuotas>;
