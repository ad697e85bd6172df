import { TidemarkError } from '../../codecs/errors.js';
import { CallTimeoutError, type Deadline, isRetriable } from '../cluster/deadline.js';
import { groupBy } from '../cluster/group-by.js';
import type { Connection } from '../network/connection.js';
import { RequestAbortedError } from '../network/errors.js';
import { type Coordinators, shouldRediscover } from './coordinators.js';
import type { CoordinatorNode } from './find-coordinator.js';

/** Each group's answer from its coordinator: a result, or the typed error the group failed with. */
export type GroupAnswers<R> = Map<string, R | TidemarkError>;

export interface PerCoordinatorResult<R> {
  results: Map<string, R>;
  failures: Map<string, TidemarkError>;
}

/**
 * Sends a group request to each coordinator with the groups it coordinates (one batch per broker), and sends
 * again, after rediscovery and backoff, for the groups that failed retriably (coordinator moved or loading,
 * connection lost, request timed out) until the deadline. Groups that fail for good are collected; an error
 * that is no group's own (an unsupported version) ends the call.
 */
export async function perCoordinator<R>(
  coordinators: Coordinators,
  groupIds: readonly string[],
  deadline: Deadline,
  send: (connection: Connection, node: CoordinatorNode, groupIds: string[]) => Promise<GroupAnswers<R>>,
): Promise<PerCoordinatorResult<R>> {
  const results = new Map<string, R>();
  const failures = new Map<string, TidemarkError>();
  let pending = [...new Set(groupIds)];
  let lastError: unknown;
  for (let round = 0; pending.length > 0; round++) {
    if (round > 0) await deadline.backoff(round, lastError, coordinators.backoff);
    const nodes = await coordinators.find('group', pending, deadline);
    const byNode = groupBy(pending, (groupId) => nodes.get(groupId)!.nodeId);
    const answers = await Promise.all(
      [...byNode.values()].map(async (groups): Promise<GroupAnswers<R>> => {
        const node = nodes.get(groups[0])!;
        try {
          const { connection } = await coordinators.connection('group', groups[0], deadline);
          return await deadline.race(send(connection, node, groups));
        } catch (err) {
          if (!isRetriable(err) && !(err instanceof RequestAbortedError)) throw err;
          return new Map(groups.map((g) => [g, err as TidemarkError]));
        }
      }),
    );
    const retry: string[] = [];
    for (const answer of answers) {
      for (const [groupId, result] of answer) {
        if (!(result instanceof TidemarkError)) {
          results.set(groupId, result);
          continue;
        }
        if (result instanceof CallTimeoutError || result instanceof RequestAbortedError || deadline.isOver) {
          throw deadline.failure(result);
        }
        if (shouldRediscover(result)) coordinators.invalidate('group', groupId);
        if (isRetriable(result)) {
          lastError = result;
          retry.push(groupId);
        } else failures.set(groupId, result);
      }
    }
    for (const groupId of pending) {
      if (!results.has(groupId) && !failures.has(groupId) && !retry.includes(groupId)) {
        lastError = new TidemarkError(`no answer for group ${groupId}`, { retriable: true });
        retry.push(groupId);
      }
    }
    pending = retry;
  }
  return { results, failures };
}
