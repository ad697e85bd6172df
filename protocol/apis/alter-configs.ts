import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/** One result per resource; IncrementalAlterConfigs answers with the same structure (so does Kafka's schema). */
export const AlterConfigsResourceResponses = structs('AlterConfigsResourceResponse', [
  field('errorCode', 'int16', '0+', {
    doc: 'Error for this resource; 0 if its configs were changed (or valid, with validateOnly).',
  }),
  field('errorMessage', 'string', '0+', { doc: "Broker's explanation of the error, or null.", nullable: '0+' }),
  field('resourceType', 'int8', '0+', {
    doc: 'Resource type code: 2 TOPIC, 4 BROKER, 8 BROKER_LOGGER, 16 CLIENT_METRICS, 32 GROUP.',
  }),
  field('resourceName', 'string', '0+', {
    doc: 'Resource name (a topic name, or a broker id as text; empty for the cluster default).',
  }),
]);

/**
 * AlterConfigs (key 33): replaces a resource's whole set of dynamic configs
 * (any config not named returns to its default). Same versions on Kafka 3.9
 * and 4.x. IncrementalAlterConfigs changes single entries instead.
 */
export const AlterConfigs = defineApi({
  name: 'AlterConfigs',
  key: 33,
  versions: '0-2',
  flexible: '2+',
  request: [
    field(
      'resources',
      structs('AlterConfigsResource', [
        field('resourceType', 'int8', '0+', { doc: 'Resource type code: 2 TOPIC, 4 BROKER, 8 BROKER_LOGGER.' }),
        field('resourceName', 'string', '0+', {
          doc: 'Resource name (a topic name, or a broker id as text; empty for the cluster default).',
        }),
        field(
          'configs',
          structs('AlterableConfig', [
            field('name', 'string', '0+', { doc: 'Config key, e.g. "retention.ms".' }),
            field('value', 'string', '0+', { doc: 'Config value as text, or null.', nullable: '0+' }),
          ]),
          '0+',
          { doc: 'The complete set of configs the resource should have.' },
        ),
      ]),
      '0+',
      { doc: 'Resources whose whole config set to replace (a config left out returns to its default).' },
    ),
    field('validateOnly', 'bool', '0+', { doc: 'True to check the changes without applying them.' }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field('responses', AlterConfigsResourceResponses, '0+', { doc: 'Result for each resource of the request.' }),
  ],
});

export type AlterConfigsRequestInput = RequestInput<typeof AlterConfigs>;
export type AlterConfigsRequest = RequestOf<typeof AlterConfigs>;
export type AlterConfigsResponse = ResponseOf<typeof AlterConfigs>;
