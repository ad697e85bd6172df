import { ConfigError } from '../../../options/config-error.js';
import type { SaslExchange, SaslMechanism } from './mechanism.js';

/** SASL PLAIN (RFC 4616): the username and password in one message. Use it only over TLS. */
export class PlainMechanism implements SaslMechanism {
  readonly name = 'PLAIN';

  constructor(
    private readonly username: string,
    private readonly password: string,
  ) {
    if (username.includes('\0')) throw new ConfigError('sasl.username', 'must not contain a NUL character');
    if (password.includes('\0')) throw new ConfigError('sasl.password', 'must not contain a NUL character');
  }

  async authenticate(exchange: SaslExchange): Promise<void> {
    // authzid (empty: act as the authenticated user) NUL authcid NUL passwd
    await exchange(Buffer.from(`\0${this.username}\0${this.password}`, 'utf8'));
  }

  secrets(): readonly string[] {
    return [this.password];
  }
}
