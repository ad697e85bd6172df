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
    field('includeClusterAuthorizedOperations', 'bool', '0+'),
    // 1 brokers, 2 controllers (the latter only when sent to a controller).
    field('endpointType', 'int8', '1+', { default: 1 }),
    field('includeFencedBrokers', 'bool', '2+'),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field('errorCode', 'int16', '0+'),
    field('errorMessage', 'string', '0+', { nullable: '0+', default: null }),
    field('endpointType', 'int8', '1+', { default: 1 }),
    field('clusterId', 'string', '0+'),
    field('controllerId', 'int32', '0+', { default: -1 }),
    field(
      'brokers',
      structs('DescribeClusterBroker', [
        field('brokerId', 'int32', '0+'),
        field('host', 'string', '0+'),
        field('port', 'int32', '0+'),
        field('rack', 'string', '0+', { nullable: '0+', default: null }),
        field('isFenced', 'bool', '2+'),
      ]),
      '0+',
    ),
    // A bit set of AclOperation codes; INT32_MIN when not asked for.
    field('clusterAuthorizedOperations', 'int32', '0+', { default: -2147483648 }),
  ],
});

export type DescribeClusterRequestInput = RequestInput<typeof DescribeCluster>;
export type DescribeClusterRequest = RequestOf<typeof DescribeCluster>;
export type DescribeClusterResponse = ResponseOf<typeof DescribeCluster>;
