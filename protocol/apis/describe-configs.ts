import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * DescribeConfigs (key 32): the configs of topics, brokers, broker loggers and
 * (4.x) groups, with where each value comes from.
 *
 * v0 exists only on Kafka 3.9 (4.0 removed it) and has `isDefault` instead of a
 * source; v1 adds the source and synonyms (every place a value could come
 * from, in precedence order); v3 adds the value's type and documentation.
 */
export const DescribeConfigs = defineApi({
  name: 'DescribeConfigs',
  key: 32,
  versions: '0-4',
  flexible: '4+',
  request: [
    field(
      'resources',
      structs('DescribeConfigsResource', [
        // ConfigResource.Type: 2 topic, 4 broker, 8 broker logger, 16 client metrics, 32 group.
        field('resourceType', 'int8', '0+'),
        field('resourceName', 'string', '0+'),
        // Null for every config of the resource.
        field('configurationKeys', array('string'), '0+', { nullable: '0+' }),
      ]),
      '0+',
    ),
    // Not ignorable: a caller that asked for synonyms must not silently get none.
    field('includeSynonyms', 'bool', '1+', { default: false, ignorable: false }),
    field('includeDocumentation', 'bool', '3+', { default: false, ignorable: false }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field(
      'results',
      structs('DescribeConfigsResult', [
        field('errorCode', 'int16', '0+'),
        field('errorMessage', 'string', '0+', { nullable: '0+' }),
        field('resourceType', 'int8', '0+'),
        field('resourceName', 'string', '0+'),
        field(
          'configs',
          structs('DescribeConfigsResourceResult', [
            field('name', 'string', '0+'),
            // Null for a sensitive value: the broker never sends passwords.
            field('value', 'string', '0+', { nullable: '0+' }),
            field('readOnly', 'bool', '0+'),
            field('isDefault', 'bool', '0'),
            field('configSource', 'int8', '1+', { default: -1, ignorable: true }),
            field('isSensitive', 'bool', '0+'),
            field(
              'synonyms',
              structs('DescribeConfigsSynonym', [
                field('name', 'string', '1+'),
                field('value', 'string', '1+', { nullable: '0+' }),
                field('source', 'int8', '1+'),
              ]),
              '1+',
              { ignorable: true },
            ),
            field('configType', 'int8', '3+', { default: 0, ignorable: true }),
            field('documentation', 'string', '3+', { nullable: '0+', ignorable: true }),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
});

export type DescribeConfigsRequestInput = RequestInput<typeof DescribeConfigs>;
export type DescribeConfigsRequest = RequestOf<typeof DescribeConfigs>;
export type DescribeConfigsResponse = ResponseOf<typeof DescribeConfigs>;
