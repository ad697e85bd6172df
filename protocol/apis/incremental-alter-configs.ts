import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';
import { AlterConfigsResourceResponses } from './alter-configs.js';

/**
 * IncrementalAlterConfigs (key 44): sets, deletes, appends to or subtracts from
 * single config entries, leaving the others as they are. Same versions on
 * Kafka 3.9 and 4.x.
 */
export const IncrementalAlterConfigs = defineApi({
  name: 'IncrementalAlterConfigs',
  key: 44,
  versions: '0-1',
  flexible: '1+',
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
            // 0 set, 1 delete, 2 append, 3 subtract (list-valued configs only).
            field('configOperation', 'int8', '0+'),
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

export type IncrementalAlterConfigsRequestInput = RequestInput<typeof IncrementalAlterConfigs>;
export type IncrementalAlterConfigsRequest = RequestOf<typeof IncrementalAlterConfigs>;
export type IncrementalAlterConfigsResponse = ResponseOf<typeof IncrementalAlterConfigs>;
