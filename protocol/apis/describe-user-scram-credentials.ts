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
  request: [
    field('users', structs('UserName', [field('name', 'string', '0+', { doc: 'User name.' })]), '0+', {
      doc: 'Users to describe, or null (or empty) for every user.',
      nullable: '0+',
    }),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    field('errorCode', 'int16', '0+', { doc: 'Error for the whole request; 0 for none.' }),
    field('errorMessage', 'string', '0+', { doc: "Broker's explanation of the error, or null.", nullable: '0+' }),
    field(
      'results',
      structs('DescribeUserScramCredentialsResult', [
        field('user', 'string', '0+', { doc: 'User name.' }),
        field('errorCode', 'int16', '0+', {
          doc: 'Error for this user; 0 for none (RESOURCE_NOT_FOUND if the user has no credentials).',
        }),
        field('errorMessage', 'string', '0+', { doc: "Broker's explanation of the error, or null.", nullable: '0+' }),
        field(
          'credentialInfos',
          structs('CredentialInfo', [
            field('mechanism', 'int8', '0+', { doc: 'Mechanism: 1 SCRAM-SHA-256, 2 SCRAM-SHA-512.' }),
            field('iterations', 'int32', '0+', { doc: 'Hash iterations of the credential.' }),
          ]),
          '0+',
          { doc: "The user's credentials, one per mechanism (never the salt or password)." },
        ),
      ]),
      '0+',
      { doc: 'Result for each user.' },
    ),
  ],
});

export type DescribeUserScramCredentialsRequest = RequestOf<typeof DescribeUserScramCredentials>;
export type DescribeUserScramCredentialsRequestInput = RequestInput<typeof DescribeUserScramCredentials>;
export type DescribeUserScramCredentialsResponse = ResponseOf<typeof DescribeUserScramCredentials>;
