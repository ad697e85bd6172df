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
  request: [
    field('statesFilter', array('string'), '4+', {
      doc: 'v4+: only list groups in these states; empty for any state.',
    }),
    field('typesFilter', array('string'), '5+', {
      doc: 'v5+: only list groups of these types ("classic", "consumer", "share"); empty for any.',
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '1+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field('errorCode', 'int16', '0+', { doc: 'Error; 0 for none.' }),
    field(
      'groups',
      structs('ListedGroup', [
        field('groupId', 'string', '0+', { doc: 'Id of the listed group.' }),
        field('protocolType', 'string', '0+', {
          doc: 'Protocol type of the group, e.g. "consumer"; empty if it has none.',
        }),
        field('groupState', 'string', '4+', { doc: 'v4+: group state, e.g. "Stable" or "Empty".', ignorable: true }),
        field('groupType', 'string', '5+', { doc: 'v5+: group type, e.g. "classic" or "consumer".', ignorable: true }),
      ]),
      '0+',
      { doc: 'Groups this broker coordinates that match the filters.' },
    ),
  ],
});

export type ListGroupsRequest = RequestOf<typeof ListGroups>;
export type ListGroupsRequestInput = RequestInput<typeof ListGroups>;
export type ListGroupsResponse = ResponseOf<typeof ListGroups>;
