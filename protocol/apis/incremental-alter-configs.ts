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
        field('resourceType', 'int8', '0+', {
          doc: 'Resource type code: 2 TOPIC, 4 BROKER, 8 BROKER_LOGGER, 16 CLIENT_METRICS, 32 GROUP.',
        }),
        field('resourceName', 'string', '0+', {
          doc: 'Resource name (a topic name, or a broker id as text; empty for the cluster default).',
        }),
        field(
          'configs',
          structs('AlterableConfig', [
            field('name', 'string', '0+', { doc: 'Config key, e.g. "retention.ms".' }),
            // 0 set, 1 delete, 2 append, 3 subtract (list-valued configs only).
            field('configOperation', 'int8', '0+', {
              doc: '0 SET, 1 DELETE (back to default), 2 APPEND or 3 SUBTRACT (list configs).',
            }),
            field('value', 'string', '0+', {
              doc: 'Value as text for SET, APPEND or SUBTRACT; null for DELETE.',
              nullable: '0+',
            }),
          ]),
          '0+',
          { doc: 'Config changes; configs not listed keep their value.' },
        ),
      ]),
      '0+',
      { doc: 'Resources whose configs to change.' },
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

export type IncrementalAlterConfigsRequestInput = RequestInput<typeof IncrementalAlterConfigs>;
export type IncrementalAlterConfigsRequest = RequestOf<typeof IncrementalAlterConfigs>;
export type IncrementalAlterConfigsResponse = ResponseOf<typeof IncrementalAlterConfigs>;
