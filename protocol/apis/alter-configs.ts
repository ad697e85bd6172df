import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/** One result per resource; IncrementalAlterConfigs answers with the same structure (so does Kafka's schema). */
export const AlterConfigsResourceResponses = structs('AlterConfigsResourceResponse', [
  field('errorCode', 'int16', '0+'),
  field('errorMessage', 'string', '0+', { nullable: '0+' }),
  field('resourceType', 'int8', '0+'),
  field('resourceName', 'string', '0+'),
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
        field('resourceType', 'int8', '0+'),
        field('resourceName', 'string', '0+'),
        field(
          'configs',
          structs('AlterableConfig', [
            field('name', 'string', '0+'),
            field('value', 'string', '0+', { nullable: '0+' }),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
    field('validateOnly', 'bool', '0+'),
  ],
  response: [field('throttleTimeMs', 'int32', '0+'), field('responses', AlterConfigsResourceResponses, '0+')],
});

export type AlterConfigsRequestInput = RequestInput<typeof AlterConfigs>;
export type AlterConfigsRequest = RequestOf<typeof AlterConfigs>;
export type AlterConfigsResponse = ResponseOf<typeof AlterConfigs>;
