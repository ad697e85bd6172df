import type { TidemarkError } from '../../codecs/errors.js';
import { OffsetFetch } from '../../protocol/apis/offset-fetch.js';
import { isKafkaError } from '../../protocol/kafka-error.js';
import { type CallOptions, Deadline, isRetriable } from '../cluster/deadline.js';
import { throwGroupFailures } from '../coordinator/group-errors.js';
import { type GroupAnswers, perCoordinator } from '../coordinator/per-coordinator.js';
import type { Connection } from '../network/connection.js';
import { RequestAbortedError } from '../network/errors.js';
import { checkGroupId } from './offset-commit.js';
import { fetchRequest, readFetchResponse } from './offset-fetch-wire.js';
import { topicIdsOf, versionForTopics } from './topic-ids.js';
import type { CommitContext, CommittedOffset, GroupOffsetsQuery } from './types.js';

export type { GroupOffsetsQuery };

export interface FetchOffsetsOptions extends CallOptions {
  /**
   * Wait for pending transactional offset commits instead of returning the previous offsets (KIP-447,
   * OffsetFetch v7+): the coordinator answers UNSTABLE_OFFSET_COMMIT until they settle, and this call retries.
   */
  requireStable?: boolean;
  /** Forces the OffsetFetch version (tests of each version). */
  version?: number;
}

/**
 * Reads the committed offsets of one or more groups. Groups that share a coordinator go in one request where
 * the version allows (v8+); before v8, one request per group. A group whose coordinator moved, or whose
 * offsets are unstable, is asked again with backoff until the deadline. Requested partitions without a commit
 * come back with offset null; without a partition list, only committed partitions come back.
 */
export async function fetchCommittedOffsets(
  ctx: CommitContext,
  queries: readonly GroupOffsetsQuery[],
  options: FetchOffsetsOptions = {},
): Promise<Map<string, CommittedOffset[]>> {
  const deadline = Deadline.of('OffsetFetch', options, ctx.requestTimeoutMs);
  const byGroup = new Map<string, GroupOffsetsQuery>();
  for (const q of queries) {
    checkGroupId(q.groupId);
    if (byGroup.has(q.groupId)) throw new TypeError(`group ${q.groupId} is asked for twice`);
    byGroup.set(q.groupId, q);
  }
  const { results, failures } = await perCoordinator(
    ctx.coordinators,
    [...byGroup.keys()],
    deadline,
    (connection, _node, ids) =>
      fetchFromCoordinator(
        ctx,
        connection,
        ids.map((id) => byGroup.get(id)!),
        options,
        deadline,
      ),
  );
  throwGroupFailures('OffsetFetch', failures, results);
  return results;
}

/** One coordinator's groups: one request (v8+) or one per group; each group's offsets, or its error. */
async function fetchFromCoordinator(
  ctx: CommitContext,
  connection: Connection,
  groups: GroupOffsetsQuery[],
  options: FetchOffsetsOptions,
  deadline: Deadline,
): Promise<GroupAnswers<CommittedOffset[]>> {
  // Topic ids (v10) only when every group names its partitions: a "fetch all" is answered by name from v9.
  const explicit = groups.every((g) => g.partitions != null);
  const topics = explicit ? groups.flatMap((g) => g.partitions!.map((p) => p.topic)) : undefined;
  const ids = topics === undefined ? undefined : await topicIdsOf(ctx.cluster, topics, deadline);
  const version = versionForTopics(connection, OffsetFetch, options.version, ids !== undefined);
  const batches: GroupOffsetsQuery[][] = version >= 8 ? [groups] : groups.map((g) => [g]);
  const outcome: GroupAnswers<CommittedOffset[]> = new Map();
  await Promise.all(
    batches.map(async (batch) => {
      const request = fetchRequest(batch, version, options.requireStable === true, ids, connection.address);
      try {
        const response = await connection.request(OffsetFetch, request, {
          ...deadline.requestOptions(ctx.requestTimeoutMs),
          version,
        });
        for (const [groupId, result] of readFetchResponse(response, batch, version, ids)) {
          // A topic re-created under a new id: look its id up again before the retry.
          if (isKafkaError(result, 'UNKNOWN_TOPIC_ID')) ctx.cluster.metadataCache.invalidate();
          outcome.set(groupId, result);
        }
      } catch (err) {
        // A failure that another attempt may cure is recorded for the groups concerned; any other ends the call.
        if (!isRetriable(err) && !(err instanceof RequestAbortedError)) throw err;
        for (const g of batch) outcome.set(g.groupId, err as TidemarkError);
      }
    }),
  );
  return outcome;
}
