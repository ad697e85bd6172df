import { defineApi, field, type RequestInput, type RequestOf, type ResponseOf, structs } from '../schema.js';

/**
 * AlterUserScramCredentials (key 51, KIP-554): delete or upsert users' SCRAM
 * credentials. The client sends the salt and the salted password (PBKDF2),
 * never the password itself. One flexible version on Kafka 3.9 and 4.x.
 */
export const AlterUserScramCredentials = defineApi({
  name: 'AlterUserScramCredentials',
  key: 51,
  versions: '0',
  flexible: '0+',
  request: [
    field(
      'deletions',
      structs('ScramCredentialDeletion', [field('name', 'string', '0+'), field('mechanism', 'int8', '0+')]),
      '0+',
    ),
    field(
      'upsertions',
      structs('ScramCredentialUpsertion', [
        field('name', 'string', '0+'),
        field('mechanism', 'int8', '0+'),
        field('iterations', 'int32', '0+'),
        field('salt', 'bytes', '0+'),
        field('saltedPassword', 'bytes', '0+'),
      ]),
      '0+',
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+'),
    // One result per user named in the request.
    field(
      'results',
      structs('AlterUserScramCredentialsResult', [
        field('user', 'string', '0+'),
        field('errorCode', 'int16', '0+'),
        field('errorMessage', 'string', '0+', { nullable: '0+' }),
      ]),
      '0+',
    ),
  ],
});

export type AlterUserScramCredentialsRequest = RequestOf<typeof AlterUserScramCredentials>;
export type AlterUserScramCredentialsRequestInput = RequestInput<typeof AlterUserScramCredentials>;
export type AlterUserScramCredentialsResponse = ResponseOf<typeof AlterUserScramCredentials>;
