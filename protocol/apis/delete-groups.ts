import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * DeleteGroups (key 42): delete empty groups and their committed offsets.
 *
 * v0-2 on Kafka 3.9 and 4.x; v3 (a per-group error message) only on 4.x.
 */
export const DeleteGroups = defineApi({
  name: 'DeleteGroups',
  key: 42,
  versions: '0-3',
  flexible: '2+',
  // Kafka's spelling, with the extra "s".
  request: [field('groupsNames', array('string'), '0+')],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field(
      'results',
      structs('DeletableGroupResult', [
        field('groupId', 'string', '0+'),
        field('errorCode', 'int16', '0+'),
        field('errorMessage', 'string', '3+', { nullable: '3+', default: null, ignorable: true }),
      ]),
      '0+',
    ),
  ],
});

export type DeleteGroupsRequest = RequestOf<typeof DeleteGroups>;
export type DeleteGroupsRequestInput = RequestInput<typeof DeleteGroups>;
export type DeleteGroupsResponse = ResponseOf<typeof DeleteGroups>;
