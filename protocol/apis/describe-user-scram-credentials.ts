import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * DescribeUserScramCredentials (key 50, KIP-554): which SCRAM mechanisms
 * and iteration counts each user has credentials for (never the secrets).
 * One flexible version on Kafka 3.9 and 4.x. A null user list means all users.
 */
export const DescribeUserScramCredentials = defineApi({
  name: 'DescribeUserScramCredentials',
  key: 50,
  versions: '0',
  flexible: '0+',
  request: [field('users', structs('UserName', [field('name', 'string', '0+')]), '0+', { nullable: '0+' })],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    field('errorCode', 'int16', '0+'),
    field('errorMessage', 'string', '0+', { nullable: '0+' }),
    field(
      'results',
      structs('DescribeUserScramCredentialsResult', [
        field('user', 'string', '0+'),
        field('errorCode', 'int16', '0+'),
        field('errorMessage', 'string', '0+', { nullable: '0+' }),
        field(
          'credentialInfos',
          structs('CredentialInfo', [field('mechanism', 'int8', '0+'), field('iterations', 'int32', '0+')]),
          '0+',
        ),
      ]),
      '0+',
    ),
  ],
});

export type DescribeUserScramCredentialsRequest = RequestOf<typeof DescribeUserScramCredentials>;
export type DescribeUserScramCredentialsRequestInput = RequestInput<typeof DescribeUserScramCredentials>;
export type DescribeUserScramCredentialsResponse = ResponseOf<typeof DescribeUserScramCredentials>;
