export { BrokerApiVersions, clientVersions } from './api-versions.js';
export { CLIENT_SOFTWARE_NAME, CLIENT_SOFTWARE_VERSION } from './client-software.js';
export { Connection, type ConnectionOptions } from './connection.js';
export * from './connection-options.js';
export {
  type BrokerAddress,
  ConnectionError,
  FrameSizeError,
  ImplausibleResponseError,
  NotKafkaBrokerError,
  RequestAbortedError,
  RequestTimeoutError,
  UnsupportedVersionError,
  type VersionSpan,
} from './errors.js';
export {
  AuthenticationError,
  type AuthenticationFailure,
  type OAuthBearerToken,
  type OAuthBearerTokenProvider,
  type SaslConfig,
  type SecurityLogger,
  type TlsConfig,
  TlsError,
  TlsNameMismatchError,
  UnsupportedMechanismError,
} from './security/index.js';
export { type SocketFactory, type SocketTarget, tcpSocketFactory } from './socket.js';
