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
        field('resourceType', 'int8', '0+', {
          doc: 'Resource type code: 2 TOPIC, 4 BROKER, 8 BROKER_LOGGER, 16 CLIENT_METRICS, 32 GROUP.',
        }),
        field('resourceName', 'string', '0+', {
          doc: 'Resource name (a topic name, or a broker id as text; empty for the cluster default).',
        }),
        // Null for every config of the resource.
        field('configurationKeys', array('string'), '0+', {
          doc: 'Config keys to return, or null for all of them.',
          nullable: '0+',
        }),
      ]),
      '0+',
      { doc: 'Resources whose configs to describe.' },
    ),
    // Not ignorable: a caller that asked for synonyms must not silently get none.
    field('includeSynonyms', 'bool', '1+', {
      doc: "v1+: whether to return each config's synonyms (the values it overrides, in precedence order).",
      default: false,
      ignorable: false,
    }),
    field('includeDocumentation', 'bool', '3+', {
      doc: "v3+: whether to return each config's documentation text.",
      default: false,
      ignorable: false,
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field(
      'results',
      structs('DescribeConfigsResult', [
        field('errorCode', 'int16', '0+', { doc: 'Error for this resource; 0 for none.' }),
        field('errorMessage', 'string', '0+', { doc: "Broker's explanation of the error, or null.", nullable: '0+' }),
        field('resourceType', 'int8', '0+', { doc: 'Resource type code.' }),
        field('resourceName', 'string', '0+', { doc: 'Name of the described resource.' }),
        field(
          'configs',
          structs('DescribeConfigsResourceResult', [
            field('name', 'string', '0+', { doc: 'Config key, e.g. "retention.ms".' }),
            // Null for a sensitive value: the broker never sends passwords.
            field('value', 'string', '0+', {
              doc: 'Config value as text, or null (always null for a sensitive config).',
              nullable: '0+',
            }),
            field('readOnly', 'bool', '0+', { doc: 'Whether the config cannot be changed.' }),
            field('isDefault', 'bool', '0', {
              doc: 'v0 only: whether the value is the default (v1+ says so in configSource).',
            }),
            field('configSource', 'int8', '1+', {
              doc: 'v1+: where the value comes from, e.g. 1 topic override, 2 broker override, 4 static, 5 default; -1 if unknown.',
              default: -1,
              ignorable: true,
            }),
            field('isSensitive', 'bool', '0+', { doc: 'Whether the value is secret (and so not returned).' }),
            field(
              'synonyms',
              structs('DescribeConfigsSynonym', [
                field('name', 'string', '1+', {
                  doc: 'Config key of the synonym (a broker key may differ from the topic key).',
                }),
                field('value', 'string', '1+', { doc: 'Value from this source as text, or null.', nullable: '0+' }),
                field('source', 'int8', '1+', { doc: 'Source code of this value (as configSource).' }),
              ]),
              '1+',
              {
                doc: "v1+: the config's values from every source that sets it, highest precedence first.",
                ignorable: true,
              },
            ),
            field('configType', 'int8', '3+', {
              doc: 'v3+: value type code, e.g. 1 BOOLEAN, 2 STRING, 3 INT, 5 LONG, 7 LIST, 9 PASSWORD; 0 if unknown.',
              default: 0,
              ignorable: true,
            }),
            field('documentation', 'string', '3+', {
              doc: "v3+: the config's documentation text, or null if not requested.",
              nullable: '0+',
              ignorable: true,
            }),
          ]),
          '0+',
          { doc: "The resource's configs." },
        ),
      ]),
      '0+',
      { doc: 'Result for each resource of the request.' },
    ),
  ],
});

export type DescribeConfigsRequestInput = RequestInput<typeof DescribeConfigs>;
export type DescribeConfigsRequest = RequestOf<typeof DescribeConfigs>;
export type DescribeConfigsResponse = ResponseOf<typeof DescribeConfigs>;
