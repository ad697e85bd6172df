import { TidemarkError } from '../../codecs/errors.js';
import { DeleteGroups } from '../../protocol/apis/delete-groups.js';
import { OffsetDelete } from '../../protocol/apis/offset-delete.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import { type CallOptions, Deadline, isRetriable } from '../cluster/deadline.js';
import { groupBy } from '../cluster/group-by.js';
import {
  type PartitionFailure,
  partitionKey,
  type TopicPartition,
  throwPartitionFailures,
} from '../cluster/partition-errors.js';
import { checkGroupId } from '../commit/offset-commit.js';
import { throwGroupFailures } from '../coordinator/group-errors.js';
import { type GroupAnswers, perCoordinator } from '../coordinator/per-coordinator.js';
import type { GroupAdminContext } from './group-context.js';

/**
 * Deletes groups and their committed offsets. Only groups without live members can be deleted: the
 * coordinator answers NON_EMPTY_GROUP otherwise (GROUP_ID_NOT_FOUND for no such group), thrown as typed errors.
 */
export async function deleteGroups(
  ctx: GroupAdminContext,
  groupIds: readonly string[],
  options: CallOptions = {},
): Promise<void> {
  for (const g of groupIds) checkGroupId(g);
  const deadline = Deadline.of('DeleteGroups', options, ctx.requestTimeoutMs);
  const { results, failures } = await perCoordinator(
    ctx.coordinators,
    groupIds,
    deadline,
    async (connection, _n, ids) => {
      const version = connection.versionFor(DeleteGroups);
      const response = await connection.request(
        DeleteGroups,
        { groupsNames: ids },
        { ...deadline.requestOptions(ctx.requestTimeoutMs), version },
      );
      const answers: GroupAnswers<true> = new Map();
      for (const r of response.results) {
        const context = { api: 'DeleteGroups', version, groupId: r.groupId };
        answers.set(
          r.groupId,
          r.errorCode === 0 ? true : kafkaError(r.errorCode, { message: r.errorMessage, context }),
        );
      }
      return answers;
    },
  );
  throwGroupFailures('DeleteGroups', failures, results);
}

/**
 * Deletes a group's committed offsets for some partitions (KIP-496). The coordinator refuses partitions of topics
 * the group's live members subscribe to (GROUP_SUBSCRIBED_TO_TOPIC); those are thrown as typed errors per
 * partition, after the others were deleted.
 */
export async function deleteCommittedOffsets(
  ctx: GroupAdminContext,
  groupId: string,
  partitions: readonly TopicPartition[],
  options: CallOptions = {},
): Promise<void> {
  checkGroupId(groupId);
  const deadline = Deadline.of('OffsetDelete', options, ctx.requestTimeoutMs);
  const pending = new Map(partitions.map((p) => [partitionKey(p.topic, p.partition), p]));
  const failures: PartitionFailure[] = [];
  const deleted: TopicPartition[] = [];
  if (pending.size === 0) return;
  await ctx.coordinators.call('group', groupId, deadline, async (connection) => {
    const version = connection.versionFor(OffsetDelete);
    const byTopic = groupBy(pending.values(), (p) => p.topic);
    const response = await connection.request(
      OffsetDelete,
      {
        groupId,
        topics: [...byTopic].map(([name, list]) => ({
          name,
          partitions: list.map((p) => ({ partitionIndex: p.partition })),
        })),
      },
      { ...deadline.requestOptions(ctx.requestTimeoutMs), version },
    );
    const context = { api: 'OffsetDelete', version, groupId };
    // A group-level error (coordinator moved, GROUP_ID_NOT_FOUND, NON_EMPTY…) is thrown: retried when retriable.
    if (response.errorCode !== 0) throw kafkaError(response.errorCode, { context });
    let retryWith: TidemarkError | undefined;
    for (const t of response.topics) {
      for (const p of t.partitions) {
        const key = partitionKey(t.name, p.partitionIndex);
        const asked = pending.get(key);
        if (asked === undefined) continue;
        if (p.errorCode === 0) {
          pending.delete(key);
          deleted.push(asked);
          continue;
        }
        const error = kafkaError(p.errorCode, { context: { ...context, topic: t.name, partition: p.partitionIndex } });
        if (isRetriable(error)) retryWith ??= error;
        else {
          pending.delete(key);
          failures.push({ topic: t.name, partition: p.partitionIndex, error });
        }
      }
    }
    if (pending.size > 0) {
      throw (
        retryWith ??
        new TidemarkError('OffsetDelete: the coordinator did not answer for every partition', {
          retriable: true,
        })
      );
    }
  });
  throwPartitionFailures('OffsetDelete', failures, deleted);
}
