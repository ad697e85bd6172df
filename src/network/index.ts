export { BrokerApiVersions, clientVersions } from './api-versions.js';
export { CLIENT_SOFTWARE_NAME, CLIENT_SOFTWARE_VERSION } from './client-software.js';
export {
  Connection,
  type ConnectionOptions,
  DEFAULT_CLIENT_ID,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type RequestFn,
  type RequestOptions,
} from './connection.js';
export {
  type BrokerAddress,
  ConfigError,
  ConnectionError,
  FrameSizeError,
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
