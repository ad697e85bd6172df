import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * CreateTopics (key 19).
 *
 * v0 and v1 exist only on Kafka 3.9 (4.0 removed them); v2-7 are spoken by
 * both generations. From v4 on, `numPartitions` and `replicationFactor` may be
 * -1 to take the broker's defaults even without a manual assignment. From v5
 * the response echoes the created topic's settings and configs, and from v7
 * its topic id.
 */
export const CreateTopics = defineApi({
  name: 'CreateTopics',
  key: 19,
  versions: '0-7',
  flexible: '5+',
  request: [
    field(
      'topics',
      structs('CreatableTopic', [
        field('name', 'string', '0+'),
        // -1 with a manual assignment, or (v4+) to use the broker's default.
        field('numPartitions', 'int32', '0+'),
        field('replicationFactor', 'int16', '0+'),
        // Empty unless the caller places every partition itself.
        field(
          'assignments',
          structs('CreatableReplicaAssignment', [
            field('partitionIndex', 'int32', '0+'),
            field('brokerIds', array('int32'), '0+'),
          ]),
          '0+',
        ),
        field(
          'configs',
          structs('CreatableTopicConfig', [
            field('name', 'string', '0+'),
            field('value', 'string', '0+', { nullable: '0+' }),
          ]),
          '0+',
        ),
      ]),
      '0+',
    ),
    field('timeoutMs', 'int32', '0+', { default: 60000 }),
    // Not ignorable: a dry run must never be sent as a real creation.
    field('validateOnly', 'bool', '1+', { default: false, ignorable: false }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '2+', { ignorable: true }),
    field(
      'topics',
      structs('CreatableTopicResult', [
        field('name', 'string', '0+'),
        field('topicId', 'uuid', '7+', { ignorable: true }),
        field('errorCode', 'int16', '0+'),
        // Kafka declares the nullability from v0 although the field starts at v1.
        field('errorMessage', 'string', '1+', { nullable: '0+', ignorable: true }),
        // Set when the topic was created but its configs could not be described.
        field('topicConfigErrorCode', 'int16', '5+', { tag: 0, taggedVersions: '5+', ignorable: true }),
        field('numPartitions', 'int32', '5+', { default: -1, ignorable: true }),
        field('replicationFactor', 'int16', '5+', { default: -1, ignorable: true }),
        field(
          'configs',
          structs('CreatableTopicConfigs', [
            field('name', 'string', '5+'),
            field('value', 'string', '5+', { nullable: '5+' }),
            field('readOnly', 'bool', '5+'),
            field('configSource', 'int8', '5+', { default: -1, ignorable: true }),
            field('isSensitive', 'bool', '5+'),
          ]),
          '5+',
          { nullable: '5+', ignorable: true },
        ),
      ]),
      '0+',
    ),
  ],
});

export type CreateTopicsRequest = RequestOf<typeof CreateTopics>;
export type CreateTopicsRequestInput = RequestInput<typeof CreateTopics>;
export type CreateTopicsResponse = ResponseOf<typeof CreateTopics>;
export type CreatableTopicResult = CreateTopicsResponse['topics'][number];
