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
  request: [
    field('groups', array('string'), '0+', { doc: 'Ids of the groups to describe.' }),
    field('includeAuthorizedOperations', 'bool', '3+', {
      doc: 'v3+: whether to return the operations the caller may perform on each group.',
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '1+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
      ignorable: true,
    }),
    field(
      'groups',
      structs('DescribedGroup', [
        field('errorCode', 'int16', '0+', { doc: 'Error for this group; 0 for none.' }),
        field('errorMessage', 'string', '6+', {
          doc: "v6+: broker's explanation of the error, or null.",
          nullable: '6+',
          default: null,
        }),
        field('groupId', 'string', '0+', { doc: 'Id of the described group.' }),
        field('groupState', 'string', '0+', {
          doc: 'Group state, e.g. "Stable", "PreparingRebalance", "Empty", "Dead".',
        }),
        field('protocolType', 'string', '0+', { doc: 'Kind of group, e.g. "consumer"; empty if not known.' }),
        // The chosen assignor, once the group is stable.
        field('protocolData', 'string', '0+', {
          doc: 'Protocol (assignor) the group uses once stable, e.g. "range"; empty otherwise.',
        }),
        field(
          'members',
          structs('DescribedGroupMember', [
            field('memberId', 'string', '0+', { doc: 'Id the coordinator gave the member.' }),
            field('groupInstanceId', 'string', '4+', {
              doc: 'v4+: static member id, or null for a dynamic member.',
              nullable: '4+',
              default: null,
              ignorable: true,
            }),
            field('clientId', 'string', '0+', { doc: 'client.id the member connected with.' }),
            field('clientHost', 'string', '0+', { doc: 'Host the member connected from.' }),
            field('memberMetadata', 'bytes', '0+', {
              doc: "Member's protocol metadata; for consumers an encoded ConsumerProtocolSubscription.",
            }),
            field('memberAssignment', 'bytes', '0+', {
              doc: "Member's assignment; for consumers an encoded ConsumerProtocolAssignment.",
            }),
          ]),
          '0+',
          { doc: "The group's members." },
        ),
        // INT32_MIN means "not requested"; otherwise a bit set of ACL operations.
        field('authorizedOperations', 'int32', '3+', {
          doc: 'v3+: bit set of the ACL operation codes the caller may perform; INT32_MIN if not requested.',
          default: -2147483648,
        }),
      ]),
      '0+',
      { doc: 'Description of each requested group.' },
    ),
  ],
});

export type DescribeGroupsRequest = RequestOf<typeof DescribeGroups>;
export type DescribeGroupsRequestInput = RequestInput<typeof DescribeGroups>;
export type DescribeGroupsResponse = ResponseOf<typeof DescribeGroups>;
