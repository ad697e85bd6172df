import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * ListGroups (key 16): the groups a broker coordinates. Same versions on
 * Kafka 3.9 and 4.x. v4 filters by state, v5 by type (classic / consumer /
 * share / streams); an empty filter matches every group.
 */
export const ListGroups = defineApi({
  name: 'ListGroups',
  key: 16,
  versions: '0-5',
  flexible: '3+',
  request: [field('statesFilter', array('string'), '4+'), field('typesFilter', array('string'), '5+')],
  response: [
    field('throttleTimeMs', 'int32', '1+', { ignorable: true }),
    field('errorCode', 'int16', '0+'),
    field(
      'groups',
      structs('ListedGroup', [
        field('groupId', 'string', '0+'),
        field('protocolType', 'string', '0+'),
        field('groupState', 'string', '4+', { ignorable: true }),
        field('groupType', 'string', '5+', { ignorable: true }),
      ]),
      '0+',
    ),
  ],
});

export type ListGroupsRequest = RequestOf<typeof ListGroups>;
export type ListGroupsRequestInput = RequestInput<typeof ListGroups>;
export type ListGroupsResponse = ResponseOf<typeof ListGroups>;
