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
        field('name', 'string', '0+', { doc: 'Name of the topic to create.' }),
        // -1 with a manual assignment, or (v4+) to use the broker's default.
        field('numPartitions', 'int32', '0+', {
          doc: 'Partition count; -1 for the broker default, and -1 when assignments are given.',
        }),
        field('replicationFactor', 'int16', '0+', {
          doc: 'Replicas per partition; -1 for the broker default, and -1 when assignments are given.',
        }),
        // Empty unless the caller places every partition itself.
        field(
          'assignments',
          structs('CreatableReplicaAssignment', [
            field('partitionIndex', 'int32', '0+', { doc: 'Partition index the placement is for.' }),
            field('brokerIds', array('int32'), '0+', {
              doc: "Broker ids holding the partition's replicas, preferred leader first.",
            }),
          ]),
          '0+',
          { doc: 'Manual replica placement per partition; empty to let the controller place them.' },
        ),
        field(
          'configs',
          structs('CreatableTopicConfig', [
            field('name', 'string', '0+', { doc: 'Config key, e.g. "cleanup.policy".' }),
            field('value', 'string', '0+', { doc: 'Config value as text, or null.', nullable: '0+' }),
          ]),
          '0+',
          { doc: 'Topic configs to set, overriding the broker defaults.' },
        ),
      ]),
      '0+',
      { doc: 'Topics to create.' },
    ),
    field('timeoutMs', 'int32', '0+', {
      doc: 'How long (ms) the broker waits for the topics to be created before answering.',
      default: 60000,
    }),
    // Not ignorable: a dry run must never be sent as a real creation.
    field('validateOnly', 'bool', '1+', {
      doc: 'v1+: true to check the request without creating anything.',
      default: false,
      ignorable: false,
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '2+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field(
      'topics',
      structs('CreatableTopicResult', [
        field('name', 'string', '0+', { doc: 'Topic name.' }),
        field('topicId', 'uuid', '7+', { doc: 'v7+: id of the created topic.', ignorable: true }),
        field('errorCode', 'int16', '0+', {
          doc: 'Error for this topic; 0 if created (TOPIC_ALREADY_EXISTS if it exists).',
        }),
        // Kafka declares the nullability from v0 although the field starts at v1.
        field('errorMessage', 'string', '1+', {
          doc: "v1+: broker's explanation of the error, or null.",
          nullable: '0+',
          ignorable: true,
        }),
        // Set when the topic was created but its configs could not be described.
        field('topicConfigErrorCode', 'int16', '5+', {
          doc: "v5+ (tagged): error reading back the topic's configs, e.g. not authorized to describe them; 0 for none.",
          tag: 0,
          taggedVersions: '5+',
          ignorable: true,
        }),
        field('numPartitions', 'int32', '5+', {
          doc: 'v5+: partition count the topic got; -1 if unknown.',
          default: -1,
          ignorable: true,
        }),
        field('replicationFactor', 'int16', '5+', {
          doc: 'v5+: replication factor the topic got; -1 if unknown.',
          default: -1,
          ignorable: true,
        }),
        field(
          'configs',
          structs('CreatableTopicConfigs', [
            field('name', 'string', '5+', { doc: 'Config key.' }),
            field('value', 'string', '5+', {
              doc: 'Config value as text, or null (always null for a sensitive config).',
              nullable: '5+',
            }),
            field('readOnly', 'bool', '5+', { doc: 'Whether the config cannot be changed.' }),
            field('configSource', 'int8', '5+', {
              doc: 'Where the value comes from, e.g. 1 topic override, 4 static broker config, 5 default; -1 if unknown.',
              default: -1,
              ignorable: true,
            }),
            field('isSensitive', 'bool', '5+', { doc: 'Whether the value is secret (and so not returned).' }),
          ]),
          '5+',
          {
            doc: "v5+: the topic's resulting configs, or null if they could not be read.",
            nullable: '5+',
            ignorable: true,
          },
        ),
      ]),
      '0+',
      { doc: 'Result for each topic of the request.' },
    ),
  ],
});

export type CreateTopicsRequest = RequestOf<typeof CreateTopics>;
export type CreateTopicsRequestInput = RequestInput<typeof CreateTopics>;
export type CreateTopicsResponse = ResponseOf<typeof CreateTopics>;
export type CreatableTopicResult = CreateTopicsResponse['topics'][number];
