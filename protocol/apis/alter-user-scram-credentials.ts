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
      structs('ScramCredentialDeletion', [
        field('name', 'string', '0+', { doc: 'User name.' }),
        field('mechanism', 'int8', '0+', {
          doc: 'Mechanism whose credential to delete: 1 SCRAM-SHA-256, 2 SCRAM-SHA-512.',
        }),
      ]),
      '0+',
      { doc: 'SCRAM credentials to delete.' },
    ),
    field(
      'upsertions',
      structs('ScramCredentialUpsertion', [
        field('name', 'string', '0+', { doc: 'User name.' }),
        field('mechanism', 'int8', '0+', { doc: 'Mechanism: 1 SCRAM-SHA-256, 2 SCRAM-SHA-512.' }),
        field('iterations', 'int32', '0+', {
          doc: 'Hash iterations the salted password was computed with (at least 4096).',
        }),
        field('salt', 'bytes', '0+', { doc: 'Random salt the password was salted with.' }),
        field('saltedPassword', 'bytes', '0+', {
          doc: 'Salted password (Hi(password, salt, iterations)); the password itself is never sent.',
        }),
      ]),
      '0+',
      { doc: 'SCRAM credentials to create or replace.' },
    ),
  ],
  response: [
    field('throttleTimeMs', 'int32', '0+', {
      doc: 'Time the client should wait before the next request because of a quota; 0 if not throttled.',
    }),
    // One result per user named in the request.
    field(
      'results',
      structs('AlterUserScramCredentialsResult', [
        field('user', 'string', '0+', { doc: 'User name.' }),
        field('errorCode', 'int16', '0+', { doc: 'Error for this user; 0 if every change for the user applied.' }),
        field('errorMessage', 'string', '0+', { doc: "Broker's explanation of the error, or null.", nullable: '0+' }),
      ]),
      '0+',
      { doc: 'Result for each user of the request.' },
    ),
  ],
});

export type AlterUserScramCredentialsRequest = RequestOf<typeof AlterUserScramCredentials>;
export type AlterUserScramCredentialsRequestInput = RequestInput<typeof AlterUserScramCredentials>;
export type AlterUserScramCredentialsResponse = ResponseOf<typeof AlterUserScramCredentials>;
