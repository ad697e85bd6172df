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
  request: [
    field('groupsNames', array('string'), '0+', {
      doc: 'Ids of the groups to delete; each must be empty (no members).',
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field(
      'results',
      structs('DeletableGroupResult', [
        field('groupId', 'string', '0+', { doc: 'Id of the group.' }),
        field('errorCode', 'int16', '0+', {
          doc: 'Error; 0 if the group and its committed offsets are deleted (NON_EMPTY_GROUP if it has members).',
        }),
        field('errorMessage', 'string', '3+', {
          doc: "v3+: broker's explanation of the error, or null.",
          nullable: '3+',
          default: null,
          ignorable: true,
        }),
      ]),
      '0+',
      { doc: 'Result for each requested group.' },
    ),
  ],
});

export type DeleteGroupsRequest = RequestOf<typeof DeleteGroups>;
export type DeleteGroupsRequestInput = RequestInput<typeof DeleteGroups>;
export type DeleteGroupsResponse = ResponseOf<typeof DeleteGroups>;
