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
        field('name', 'string', '6+', { nullable: '6+', default: null }),
        field('topicId', 'uuid', '6+'),
      ]),
      '6+',
    ),
    field('topicNames', array('string'), '0-5', { ignorable: true }),
    field('timeoutMs', 'int32', '0+'),
  ],
  response: [
    field('throttleTimeMs', 'int32', '1+', { ignorable: true }),
    field(
      'responses',
      structs('DeletableTopicResult', [
        field('name', 'string', '0+', { nullable: '6+' }),
        field('topicId', 'uuid', '6+', { ignorable: true }),
        field('errorCode', 'int16', '0+'),
        field('errorMessage', 'string', '5+', { nullable: '5+', ignorable: true, default: null }),
      ]),
      '0+',
    ),
  ],
});

export type DeleteTopicsRequest = RequestOf<typeof DeleteTopics>;
export type DeleteTopicsRequestInput = RequestInput<typeof DeleteTopics>;
export type DeleteTopicsResponse = ResponseOf<typeof DeleteTopics>;
export type DeletableTopicResult = DeleteTopicsResponse['responses'][number];
