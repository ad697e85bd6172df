/**
 * What a new connection learns before it is used, and how its failures are told apart: ApiVersions
 * negotiation, a garbled answer (the next connection gets a fresh one, so it is retried with backoff), and a
 * peer that is not a Kafka broker at all (an HTTP server, a TLS listener spoken to in plaintext), which no
 * retry can fix.
 */
import { ProtocolError, type TidemarkError } from '../../codecs/errors.js';
import type { Reader } from '../../codecs/reader.js';
import type { ApiVersions } from '../../protocol/apis/api-versions.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import type { ResponseOf } from '../../protocol/schema.js';
import { apiVersionsDecoder, BrokerApiVersions, negotiateApiVersions } from './api-versions.js';
import { CLIENT_SOFTWARE_NAME, CLIENT_SOFTWARE_VERSION, softwareToken } from './client-software.js';
import type { RequestOptions } from './connection-options.js';
import { ImplausibleResponseError } from './errors.js';

type SendApiVersions = (
  body: object,
  options: RequestOptions & { decode: (r: Reader) => unknown },
) => Promise<ResponseOf<typeof ApiVersions>>;

/** Runs ApiVersions from the highest version down until the broker accepts one. */
export function negotiate(
  send: SendApiVersions,
  software: { name?: string; version?: string },
  address: string,
): Promise<BrokerApiVersions> {
  return negotiateApiVersions((version) => sendApiVersions(send, software, version), address);
}

/**
 * One more ApiVersions request at the version negotiation settled on, its table held to the same rules (see
 * version-recheck.ts for when a connection asks twice).
 */
export async function askVersionsAgain(
  send: SendApiVersions,
  software: { name?: string; version?: string },
  negotiated: BrokerApiVersions,
  address: string,
): Promise<BrokerApiVersions> {
  const version = negotiated.negotiatedWith;
  const response = await sendApiVersions(send, software, version);
  if (response.errorCode !== 0) throw kafkaError(response.errorCode, { context: { api: 'ApiVersions', version } });
  return new BrokerApiVersions(response, version, address);
}

async function sendApiVersions(
  send: SendApiVersions,
  software: { name?: string; version?: string },
  version: number,
): Promise<ResponseOf<typeof ApiVersions>> {
  const body = {
    clientSoftwareName: softwareToken(software.name ?? CLIENT_SOFTWARE_NAME),
    clientSoftwareVersion: softwareToken(software.version ?? CLIENT_SOFTWARE_VERSION),
  };
  const response = await send(version >= 3 ? body : {}, { version, decode: apiVersionsDecoder(version) });
  if (response.errorCode === 0) checkPlausible(response, version);
  return response;
}

/** ApiVersions (18) and Metadata (3): offered by every broker that answers ApiVersions at all. */
const ALWAYS_OFFERED = [18, 3];

/**
 * A version table no broker sends (a range upside down, a key twice, ApiVersions or Metadata missing) is a
 * garbled answer: accepted, it would make every later request on the connection fail as unsupported, on a
 * connection that otherwise looks healthy. Refused, the handshake is retried on a new connection.
 */
function checkPlausible(response: ResponseOf<typeof ApiVersions>, version: number): void {
  const seen = new Set<number>();
  let problem: string | undefined;
  for (const k of response.apiKeys) {
    if (k.minVersion < 0 || k.minVersion > k.maxVersion)
      problem = `API key ${k.apiKey} has range v${k.minVersion}-${k.maxVersion}`;
    else if (seen.has(k.apiKey)) problem = `API key ${k.apiKey} is listed twice`;
    seen.add(k.apiKey);
  }
  // Every Kafka broker offers these two (it just answered the first): a table without them is garbled.
  for (const required of ALWAYS_OFFERED) if (!seen.has(required)) problem ??= `API key ${required} is missing`;
  if (problem !== undefined)
    throw new ImplausibleResponseError(problem, { api: 'ApiVersionsResponse', version, field: 'apiKeys' });
}

/**
 * Whether a handshake that failed with `err` may succeed on a new connection. Bytes that do not decode are a
 * garbled answer, not a verdict: retried. Everything else keeps its own retriability (a broker's error code,
 * an authentication refusal).
 */
export function handshakeRetriable(err: unknown): boolean {
  if (err instanceof ProtocolError) return true;
  return (err as TidemarkError).retriable ?? true;
}

/**
 * What a first response's size prefix says when it cannot be one: the peer speaks another protocol. Four
 * printable ASCII bytes are text (an HTTP server answers "HTTP"); 0x15 0x03 or 0x16 0x03 is a TLS record (a
 * TLS listener answering a plaintext client). Undefined when it is just a bad size.
 */
export function foreignProtocol(sizePrefix: number): string | undefined {
  const bytes = Buffer.allocUnsafe(4);
  bytes.writeInt32BE(sizePrefix, 0);
  if ((bytes[0] === 0x15 || bytes[0] === 0x16) && bytes[1] === 0x03) {
    return 'it answered with a TLS record (is this a TLS listener? configure tls)';
  }
  if (bytes.every((b) => b >= 0x20 && b < 0x7f)) {
    return `it answered with text beginning ${JSON.stringify(bytes.toString('latin1'))}`;
  }
  return undefined;
}
