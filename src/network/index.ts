export { BrokerApiVersions, clientVersions } from './api-versions.js';
export { CLIENT_SOFTWARE_NAME, CLIENT_SOFTWARE_VERSION } from './client-software.js';
export {
  Connection,
  type ConnectionOptions,
  DEFAULT_CLIENT_ID,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
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
export { type SocketFactory, type SocketTarget, tcpSocketFactory } from './socket.js';
