import { array, defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * DescribeGroups (key 15): state, protocol and members of classic groups.
 *
 * v0-5 on Kafka 3.9 and 4.x; v6 (a per-group error message) only on 4.x.
 */
export const DescribeGroups = defineApi({
  name: 'DescribeGroups',
  key: 15,
  versions: '0-6',
  flexible: '5+',
  request: [field('groups', array('string'), '0+'), field('includeAuthorizedOperations', 'bool', '3+')],
  response: [
    field('throttleTimeMs', 'int32', '1+', { ignorable: true }),
    field(
      'groups',
      structs('DescribedGroup', [
        field('errorCode', 'int16', '0+'),
        field('errorMessage', 'string', '6+', { nullable: '6+', default: null }),
        field('groupId', 'string', '0+'),
        field('groupState', 'string', '0+'),
        field('protocolType', 'string', '0+'),
        // The chosen assignor, once the group is stable.
        field('protocolData', 'string', '0+'),
        field(
          'members',
          structs('DescribedGroupMember', [
            field('memberId', 'string', '0+'),
            field('groupInstanceId', 'string', '4+', { nullable: '4+', default: null, ignorable: true }),
            field('clientId', 'string', '0+'),
            field('clientHost', 'string', '0+'),
            field('memberMetadata', 'bytes', '0+'),
            field('memberAssignment', 'bytes', '0+'),
          ]),
          '0+',
        ),
        // INT32_MIN means "not requested"; otherwise a bit set of ACL operations.
        field('authorizedOperations', 'int32', '3+', { default: -2147483648 }),
      ]),
      '0+',
    ),
  ],
});

export type DescribeGroupsRequest = RequestOf<typeof DescribeGroups>;
export type DescribeGroupsRequestInput = RequestInput<typeof DescribeGroups>;
export type DescribeGroupsResponse = ResponseOf<typeof DescribeGroups>;
