import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * DescribeCluster (key 60): cluster id, controller and brokers as one broker
 * sees them. Flexible from its first version; v2 (fenced brokers) only on 4.x.
 */
export const DescribeCluster = defineApi({
  name: 'DescribeCluster',
  key: 60,
  versions: '0-2',
  flexible: '0+',
  request: [
    field('includeClusterAuthorizedOperations', 'bool', '0+', {
      doc: 'Whether to return the operations the caller may perform on the cluster.',
    }),
    // 1 brokers, 2 controllers (the latter only when sent to a controller).
    field('endpointType', 'int8', '1+', {
      doc: 'v1+: which endpoints to describe: 1 brokers, 2 controllers.',
      default: 1,
    }),
    field('includeFencedBrokers', 'bool', '2+', { doc: 'v2+: whether to include fenced brokers in the list.' }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field('errorCode', 'int16', '0+', { doc: 'Error; 0 for none.' }),
    field('errorMessage', 'string', '0+', {
      doc: "Broker's explanation of the error, or null.",
      nullable: '0+',
      default: null,
    }),
    field('endpointType', 'int8', '1+', {
      doc: 'v1+: which endpoints the list holds: 1 brokers, 2 controllers.',
      default: 1,
    }),
    field('clusterId', 'string', '0+', { doc: 'Id of the cluster.' }),
    field('controllerId', 'int32', '0+', {
      doc: 'Id of a controller (a random broker when describing brokers under KRaft); -1 if unknown.',
      default: -1,
    }),
    field(
      'brokers',
      structs('DescribeClusterBroker', [
        field('brokerId', 'int32', '0+', { doc: 'Node id.' }),
        field('host', 'string', '0+', { doc: 'Host name to connect to.' }),
        field('port', 'int32', '0+', { doc: 'Port to connect to.' }),
        field('rack', 'string', '0+', { doc: 'Rack of the node, or null.', nullable: '0+', default: null }),
        field('isFenced', 'bool', '2+', { doc: 'v2+: whether the broker is fenced (registered but not serving).' }),
      ]),
      '0+',
      { doc: 'Brokers (or controllers) of the cluster.' },
    ),
    // A bit set of AclOperation codes; INT32_MIN when not asked for.
    field('clusterAuthorizedOperations', 'int32', '0+', {
      doc: 'Bit set of the ACL operation codes the caller may perform on the cluster; INT32_MIN if not requested.',
      default: -2147483648,
    }),
  ],
});

export type DescribeClusterRequestInput = RequestInput<typeof DescribeCluster>;
export type DescribeClusterRequest = RequestOf<typeof DescribeCluster>;
export type DescribeClusterResponse = ResponseOf<typeof DescribeCluster>;
