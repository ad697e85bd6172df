import { defineApi, field } from '../schema.js';

/** One round of a SASL exchange, wrapped in a Kafka frame (KIP-152); v1 adds the session lifetime (KIP-368). */
export const SaslAuthenticate = defineApi({
  name: 'SaslAuthenticate',
  key: 36,
  versions: '0-2',
  flexible: '2+',
  request: [field('authBytes', 'bytes', '0+')],
  response: [
    field('errorCode', 'int16', '0+'),
    field('errorMessage', 'string', '0+', { nullable: '0+' }),
    field('authBytes', 'bytes', '0+'),
    field('sessionLifetimeMs', 'int64', '1+', { default: 0n, ignorable: true }),
  ],
});
