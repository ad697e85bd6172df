import { defineApi, field } from '../schema.js';

/** One round of a SASL exchange, wrapped in a Kafka frame (KIP-152); v1 adds the session lifetime (KIP-368). */
export const SaslAuthenticate = defineApi({
  name: 'SaslAuthenticate',
  key: 36,
  versions: '0-2',
  flexible: '2+',
  request: [
    field('authBytes', 'bytes', '0+', {
      doc: 'Next SASL token of the client for the mechanism chosen in SaslHandshake.',
    }),
  ],
  response: [
    field('errorCode', 'int16', '0+', { doc: 'Error; 0 for none (SASL_AUTHENTICATION_FAILED on bad credentials).' }),
    field('errorMessage', 'string', '0+', { doc: "Broker's explanation of the error, or null.", nullable: '0+' }),
    field('authBytes', 'bytes', '0+', {
      doc: 'Next SASL token of the broker (the server challenge or final message).',
    }),
    field('sessionLifetimeMs', 'int64', '1+', {
      doc: 'v1+: ms until the client must re-authenticate on this connection (KIP-368); 0 if never.',
      default: 0n,
      ignorable: true,
    }),
  ],
});
