import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * DeleteTopics (key 20).
 *
 * v0 exists only on Kafka 3.9 (4.0 removed it); v1-6 are spoken by both
 * generations. v6 replaces the list of names with a list of name-or-id
 * entries, so a topic can be deleted by id; the response names the id too,
 * and its name may then be null.
 */
export const DeleteTopics = defineApi({
  name: 'DeleteTopics',
  key: 20,
  versions: '0-6',
  flexible: '4+',
  request: [
    field(
      'topics',
      structs('DeleteTopicState', [
        // Null when deleting by id.
        field('name', 'string', '6+', {
          doc: 'Topic name, or null when deleting by id.',
          nullable: '6+',
          default: null,
        }),
        field('topicId', 'uuid', '6+', { doc: 'Topic id; the zero uuid when deleting by name.' }),
      ]),
      '6+',
      { doc: 'v6+: topics to delete, each by name or by id.' },
    ),
    field('topicNames', array('string'), '0-5', { doc: 'v0-5: names of the topics to delete.', ignorable: true }),
    field('timeoutMs', 'int32', '0+', {
      doc: 'How long (ms) the broker waits for the deletion to complete before answering.',
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '1+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field(
      'responses',
      structs('DeletableTopicResult', [
        field('name', 'string', '0+', {
          doc: 'Topic name; v6+ null if the topic was given by an unknown id.',
          nullable: '6+',
        }),
        field('topicId', 'uuid', '6+', { doc: 'v6+: topic id.', ignorable: true }),
        field('errorCode', 'int16', '0+', { doc: 'Error for this topic; 0 if deleted.' }),
        field('errorMessage', 'string', '5+', {
          doc: "v5+: broker's explanation of the error, or null.",
          nullable: '5+',
          ignorable: true,
          default: null,
        }),
      ]),
      '0+',
      { doc: 'Result for each topic of the request.' },
    ),
  ],
});

export type DeleteTopicsRequest = RequestOf<typeof DeleteTopics>;
export type DeleteTopicsRequestInput = RequestInput<typeof DeleteTopics>;
export type DeleteTopicsResponse = ResponseOf<typeof DeleteTopics>;
export type DeletableTopicResult = DeleteTopicsResponse['responses'][number];
