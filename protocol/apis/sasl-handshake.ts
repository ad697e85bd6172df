import { array, defineApi, field } from '../schema.js';

/** Picks the SASL mechanism for a connection; v1 moves the mechanism's exchange into SaslAuthenticate frames. */
export const SaslHandshake = defineApi({
  name: 'SaslHandshake',
  key: 17,
  versions: '0-1',
  flexible: 'none',
  request: [field('mechanism', 'string', '0+')],
  response: [field('errorCode', 'int16', '0+'), field('mechanisms', array('string'), '0+')],
});
