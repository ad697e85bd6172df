import { ProtocolError, TidemarkError } from '../../codecs/errors.js';

/** Where a connection goes: `host:port`, plus the broker's node id once metadata has named it. */
export interface BrokerAddress {
  host: string;
  port: number;
  nodeId?: number;
}

export function formatAddress(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * The connection to a broker failed, closed, or lost track of its stream. Retriable unless the broker's bytes
 * themselves were unacceptable (a frame larger than allowed): a new connection gets a fresh stream.
 */
export class ConnectionError extends TidemarkError {
  override name = 'ConnectionError';
  /** `host:port` of the broker; undefined when no single broker is to blame (e.g. the client was closed). */
  readonly broker: string | undefined;
  readonly nodeId: number | undefined;

  constructor(message: string, broker: BrokerAddress | undefined, options?: { cause?: unknown; retriable?: boolean }) {
    const address = broker === undefined ? undefined : formatAddress(broker.host, broker.port);
    const who = broker?.nodeId === undefined ? address : `${address} (node ${broker.nodeId})`;
    super(who === undefined ? message : `${message} [broker ${who}]`, {
      cause: options?.cause,
      retriable: options?.retriable ?? true,
    });
    this.broker = address;
    this.nodeId = broker?.nodeId;
  }
}

/** No response arrived within the request's timeout; the connection stays usable. */
export class RequestTimeoutError extends TidemarkError {
  override name = 'RequestTimeoutError';

  constructor(
    readonly api: string,
    readonly version: number,
    readonly correlationId: number,
    readonly timeoutMs: number,
    readonly broker: string,
  ) {
    super(
      `${api} v${version} request (correlation id ${correlationId}) got no response from ${broker} within ${timeoutMs} ms`,
      { retriable: true },
    );
  }
}

/** The caller's AbortSignal fired before the response arrived. */
export class RequestAbortedError extends TidemarkError {
  override name = 'RequestAbortedError';

  constructor(
    readonly api: string,
    readonly correlationId: number | undefined,
    reason: unknown,
  ) {
    super(`${api} request was aborted`, { cause: reason });
  }
}

export interface VersionSpan {
  min: number;
  max: number;
}

/**
 * The broker and tidemark share no version of an API, or a forced version is outside what one of them speaks.
 * `broker` is undefined when the broker does not offer the API at all.
 */
export class UnsupportedVersionError extends TidemarkError {
  override name = 'UnsupportedVersionError';

  constructor(
    readonly api: string,
    readonly apiKey: number,
    readonly client: VersionSpan,
    readonly broker: VersionSpan | undefined,
    readonly requestedVersion?: number,
    brokerAddress?: string,
  ) {
    const theirs = broker === undefined ? 'does not offer it' : `speaks v${broker.min}-${broker.max}`;
    const at = brokerAddress === undefined ? 'the broker' : `broker ${brokerAddress}`;
    const asked = requestedVersion === undefined ? 'no common version' : `v${requestedVersion} was requested`;
    super(`${api} (key ${apiKey}): ${asked}; tidemark speaks v${client.min}-${client.max}, ${at} ${theirs}`);
  }
}

/** A response size prefix that is negative or above the configured maximum; nothing was allocated for it. */
export class FrameSizeError extends ProtocolError {
  override name = 'FrameSizeError';

  constructor(
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(
      size < 0
        ? `response size prefix is negative (${size})`
        : `response of ${size} bytes exceeds the maximum response size of ${maxBytes} bytes`,
    );
  }
}

/**
 * The peer at a broker address does not speak Kafka: its first answer is another protocol (an HTTP server,
 * a TLS listener spoken to in plaintext). Not retriable: the address or the security settings are wrong.
 */
export class NotKafkaBrokerError extends ConnectionError {
  override name = 'NotKafkaBrokerError';

  constructor(broker: BrokerAddress, detail: string, cause?: unknown) {
    super(`not a Kafka broker: ${detail}`, broker, { cause, retriable: false });
  }
}

/**
 * A response that decodes but says something no broker can mean: a log start above the log end, records at or
 * past the high watermark the same response names, an acknowledged offset below zero, a throttle longer than
 * any timeout. A bit flipped on the way (in a field no checksum covers) looks like this, so it is retried like
 * a garbled response, and what it says is never applied.
 */
export class ImplausibleResponseError extends ProtocolError {
  override name = 'ImplausibleResponseError';
  override readonly retriable: boolean = true;

  constructor(reason: string, context: { api: string; version?: number; field?: string }) {
    super(reason, context);
  }
}
