import type { FetchRequestInput } from '../../../protocol/apis/fetch.js';
import { groupBy } from '../../cluster/group-by.js';
import type { SessionRequest } from './fetch-session.js';

/** The fetch settings every request uses (resolved consumer options). */
export interface FetchSettings {
  /** How many bytes the broker waits for before answering (Java's fetch.min.bytes). */
  minBytes: number;
  /** How long the broker may wait for minBytes (fetch.max.wait.ms). */
  maxWaitMs: number;
  /** Bytes per response, all partitions together (fetch.max.bytes). */
  maxBytes: number;
  /** Bytes per partition per response (max.partition.fetch.bytes). */
  maxPartitionBytes: number;
  readCommitted: boolean;
  /** The consumer's rack (client.rack), so a broker with a rack-aware selector can name a nearby follower. */
  rackId: string;
  /** Use incremental fetch sessions (KIP-227) where the broker speaks Fetch v7+. */
  sessions: boolean;
  /** Highest Fetch version to use (tests pin versions); undefined for the highest the broker speaks. */
  maxVersion: number | undefined;
  requestTimeoutMs: number;
  checkCrc: boolean;
  /** How long a follower named by preferredReadReplica is used before asking the leader again. */
  preferredReplicaTtlMs: number;
}

/** Fetch v13 switched from topic names to topic ids; v12 is the last version that names topics. */
export const LAST_VERSION_WITH_NAMES = 12;

/**
 * The Fetch request for one session step. Fields a version lacks are left at their defaults, since the encoder
 * refuses a non-default value for a field the version cannot carry (lastFetchedEpoch before v12, for one).
 */
export function buildFetchRequest(
  version: number,
  session: SessionRequest,
  settings: FetchSettings,
  maxBytes: number,
): FetchRequestInput {
  const request: FetchRequestInput = {
    replicaId: -1,
    maxWaitMs: settings.maxWaitMs,
    minBytes: settings.minBytes,
    maxBytes,
    isolationLevel: settings.readCommitted ? 1 : 0,
    sessionId: session.sessionId,
    sessionEpoch: session.sessionEpoch,
    // Topics in first-seen order: the broker answers in request order.
    topics: [...groupBy(session.send, (p) => p.topic).values()].map((list) => ({
      topic: list[0].topic,
      topicId: list[0].topicId,
      partitions: list.map((p) => ({
        partition: p.partition,
        currentLeaderEpoch: p.currentLeaderEpoch,
        fetchOffset: p.fetchOffset,
        lastFetchedEpoch: version >= 12 ? p.lastFetchedEpoch : -1,
        logStartOffset: -1n,
        partitionMaxBytes: p.maxBytes,
      })),
    })),
    rackId: settings.rackId,
  };
  if (version >= 7) {
    request.forgottenTopicsData = [...groupBy(session.forget, (p) => p.topic).values()].map((list) => ({
      topic: list[0].topic,
      topicId: list[0].topicId,
      partitions: list.map((p) => p.partition),
    }));
  }
  return request;
}
