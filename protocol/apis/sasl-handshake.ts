import { array, defineApi, field } from '../schema.js';

/** Picks the SASL mechanism for a connection; v1 moves the mechanism's exchange into SaslAuthenticate frames. */
export const SaslHandshake = defineApi({
  name: 'SaslHandshake',
  key: 17,
  versions: '0-1',
  flexible: 'none',
  request: [
    field('mechanism', 'string', '0+', {
      doc: 'SASL mechanism the client wants, e.g. "PLAIN", "SCRAM-SHA-512", "OAUTHBEARER".',
    }),
  ],
  response: [
    field('errorCode', 'int16', '0+', {
      doc: 'Error; 0 for none (UNSUPPORTED_SASL_MECHANISM if the mechanism is not enabled).',
    }),
    field('mechanisms', array('string'), '0+', { doc: 'Mechanisms the broker has enabled on this listener.' }),
  ],
});
