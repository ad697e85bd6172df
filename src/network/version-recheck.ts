/**
 * A second ApiVersions answer when the first lacks an API that every Kafka broker serves (issue 22).
 *
 * A bit flipped on the way can take Produce or Fetch out of a version table (a key id changed, a range moved
 * out of reach) and leave a table that passes every sanity rule of handshake.ts. Accepted, it makes the
 * connection refuse that API before sending anything (UnsupportedVersionError) for as long as the connection
 * stays open, on a connection that otherwise looks healthy: a producer that can never send, a consumer that can
 * never fetch. Java's client trusts its ApiVersions answer; it closes a connection only when a response fails
 * to parse. tidemark goes one step further, at the one moment it is cheap: during the handshake.
 *
 * The rule: when the table offers no usable version of an API in ALWAYS_SERVED, the connection asks once more
 * before it is ready. Two answers that agree are the broker's real table (a Kafka-compatible broker that
 * lacks an API pays one extra round trip per connection, and requests for that API fail with the typed
 * UnsupportedVersionError as before). Two that disagree show that one of them was corrupted, and which one
 * cannot be told: the handshake fails as garbled, so the pool closes the connection and opens a new one after
 * its backoff, as for any garbled handshake.
 *
 * Why here and not when the API is first refused: every layer calls `connection.versionFor()` synchronously to
 * build its request, so a refusal cannot wait for a fresh table; and a connection closed at that point would
 * fail every request in flight on it, where during the handshake there are none.
 */
import { API_DEFINITIONS } from '../../protocol/index.js';
import type { ApiDef } from '../../protocol/schema.js';
import type { BrokerApiVersions } from './api-versions.js';
import { ImplausibleResponseError } from './errors.js';

/**
 * Produce, Fetch, ListOffsets, Metadata, OffsetCommit, OffsetFetch, FindCoordinator, JoinGroup, Heartbeat,
 * LeaveGroup, SyncGroup, ApiVersions, InitProducerId, OffsetForLeaderEpoch, AddPartitionsToTxn,
 * AddOffsetsToTxn, EndTxn and TxnOffsetCommit: the APIs tidemark's producer, consumer and group code use, which
 * every Kafka broker since 0.11 serves on its client listeners (3.9 and 4.x included). Admin APIs are left
 * out: brokers of different generations and Kafka-compatible brokers differ in those.
 */
const ALWAYS_SERVED_KEYS = [0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 18, 22, 23, 24, 25, 26, 28];

export const ALWAYS_SERVED: readonly ApiDef[] = API_DEFINITIONS.filter((api) => ALWAYS_SERVED_KEYS.includes(api.key));

/** The always-served APIs of which the table offers no version tidemark speaks. */
export function missingServedApis(table: BrokerApiVersions): ApiDef[] {
  return ALWAYS_SERVED.filter((api) => !table.offers(api));
}

/**
 * The table to use: `first` when it offers every always-served API, or when `askAgain` (one more ApiVersions
 * request on the same connection) answers the same. Throws ImplausibleResponseError (retriable: the next
 * connection starts over) when the two answers disagree.
 */
export async function confirmVersionTable(
  first: BrokerApiVersions,
  askAgain: () => Promise<BrokerApiVersions>,
): Promise<BrokerApiVersions> {
  const missing = missingServedApis(first);
  if (missing.length === 0) return first;
  const second = await askAgain();
  if (second.sameRanges(first)) return first;
  const names = missing.map((api) => api.name).join(', ');
  throw new ImplausibleResponseError(`two answers disagree; the first offered no usable ${names}`, {
    api: 'ApiVersionsResponse',
    version: first.negotiatedWith,
    field: 'apiKeys',
  });
}
