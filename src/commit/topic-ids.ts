import { isKafkaError } from '../../protocol/kafka-error.js';
import type { Deadline } from '../cluster/deadline.js';
import type { Connection } from '../network/connection.js';
import type { CommitCluster } from './types.js';

/** Kafka's "no topic id". */
const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA';

/**
 * The ids of `topics`, for the OffsetCommit / OffsetFetch versions that name topics by id (v10, Kafka 4.x).
 * Undefined when any topic has no id that metadata knows (e.g. it does not exist): the caller then uses the
 * last version that names topics, as Kafka's Java client does.
 */
export async function topicIdsOf(
  cluster: CommitCluster,
  topics: Iterable<string>,
  deadline: Deadline,
): Promise<Map<string, string> | undefined> {
  const ids = new Map<string, string>();
  for (const name of new Set(topics)) {
    try {
      const t = await deadline.race(cluster.metadataCache.topic(name));
      if (t.topicId === undefined || t.topicId === ZERO_UUID) return undefined;
      ids.set(name, t.topicId);
    } catch (err) {
      if (isKafkaError(err, 'UNKNOWN_TOPIC_OR_PARTITION')) return undefined;
      throw err;
    }
  }
  return ids;
}

/**
 * The version to send: the negotiated one, except that v10+ (topics by id) needs every topic's id, so without
 * them the request goes out as v9, the last version with names.
 */
export function versionForTopics(
  connection: Connection,
  api: Parameters<Connection['versionFor']>[0],
  forced: number | undefined,
  haveIds: boolean,
): number {
  if (forced !== undefined) return forced;
  const version = connection.versionFor(api);
  return version >= 10 && !haveIds ? 9 : version;
}
