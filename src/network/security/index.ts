export { type SaslConfig, type SecurityConfig, securityOptions } from './config.js';
export {
  AuthenticationError,
  type AuthenticationFailure,
  TlsError,
  TlsNameMismatchError,
  UnsupportedMechanismError,
} from './errors.js';
export type { SecurityLogger } from './logger.js';
export { authenticateSasl, saslAuthenticator } from './sasl/authenticator.js';
export type { SaslExchange, SaslMechanism } from './sasl/mechanism.js';
export { OAuthBearerMechanism, type OAuthBearerToken, type OAuthBearerTokenProvider } from './sasl/oauthbearer.js';
export { PlainMechanism } from './sasl/plain.js';
export { ScramMechanism } from './sasl/scram.js';
export { type TlsConfig, tlsSocketFactory } from './tls.js';
