/** Sends one SaslAuthenticate round with the client's bytes and resolves with the broker's bytes. */
export type SaslExchange = (clientBytes: Buffer) => Promise<Buffer>;

/**
 * One SASL mechanism with its credentials. `authenticate` runs a complete exchange (called again for every
 * re-authentication) and throws AuthenticationError when the broker's answers break the mechanism's rules.
 */
export interface SaslMechanism {
  /** The name sent in SaslHandshake, e.g. `SCRAM-SHA-512`. */
  readonly name: string;
  authenticate(exchange: SaslExchange): Promise<void>;
  /** Strings that must never appear in a log line or error message (scrubbed from broker messages too). */
  secrets(): readonly string[];
}
