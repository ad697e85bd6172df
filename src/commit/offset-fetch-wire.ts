import { TidemarkError } from '../../codecs/errors.js';
import {
  OffsetFetch,
  type OffsetFetchRequestInput,
  type OffsetFetchResponse,
} from '../../protocol/apis/offset-fetch.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import { isRetriable } from '../cluster/deadline.js';
import { groupByTopic } from '../cluster/group-by.js';
import { PartitionErrors, type PartitionFailure, partitionKey } from '../cluster/partition-errors.js';
import { clientVersions } from '../network/api-versions.js';
import { UnsupportedVersionError } from '../network/errors.js';
import type { CommittedOffset, GroupOffsetsQuery } from './types.js';

/**
 * OffsetFetch's two shapes: up to v7 one group at the top level, from v8 a list of groups; from v10 topics by
 * id. This file turns queries into either shape and answers back into offsets or typed errors per group.
 */

export function fetchRequest(
  groups: readonly GroupOffsetsQuery[],
  version: number,
  requireStable: boolean,
  ids: Map<string, string> | undefined,
  broker: string,
): OffsetFetchRequestInput {
  if (requireStable && version < 7) unsupported('requireStable needs OffsetFetch v7+', version, broker);
  if (version < 8) {
    if (groups.length !== 1) throw new TypeError('OffsetFetch before v8 asks about one group');
    const [g] = groups;
    if (g.partitions == null && version < 2) {
      unsupported('reading every committed partition (no partition list) needs OffsetFetch v2+', version, broker);
    }
    return {
      groupId: g.groupId,
      topics:
        g.partitions == null
          ? null
          : groupByTopic(g.partitions).map(({ topic, partitions }) => ({ name: topic, partitionIndexes: partitions })),
      requireStable,
    };
  }
  return {
    groups: groups.map((g) => ({
      groupId: g.groupId,
      memberId: g.memberId ?? null,
      memberEpoch: g.memberEpoch ?? -1,
      topics:
        g.partitions == null
          ? null
          : groupByTopic(g.partitions).map(({ topic, partitions }) => ({
              name: topic,
              topicId: ids?.get(topic),
              partitionIndexes: partitions,
            })),
    })),
    requireStable,
  };
}

/** Each group's committed offsets, or the error it should be retried with (retriable) or fail with. */
export function readFetchResponse(
  response: OffsetFetchResponse,
  groups: readonly GroupOffsetsQuery[],
  version: number,
  ids: Map<string, string> | undefined,
): Map<string, CommittedOffset[] | TidemarkError> {
  const names = new Map([...(ids ?? [])].map(([name, id]) => [id, name]));
  const answers =
    version < 8
      ? [{ groupId: groups[0].groupId, errorCode: version >= 2 ? response.errorCode : 0, topics: response.topics }]
      : response.groups;
  const out = new Map<string, CommittedOffset[] | TidemarkError>();
  for (const answer of answers) {
    const query = groups.find((g) => g.groupId === answer.groupId);
    if (query === undefined) continue;
    const context = { api: 'OffsetFetch', version, groupId: answer.groupId };
    if (answer.errorCode !== 0) {
      out.set(answer.groupId, kafkaError(answer.errorCode, { context }));
      continue;
    }
    const offsets: CommittedOffset[] = [];
    const failures: PartitionFailure[] = [];
    let retry: TidemarkError | undefined;
    for (const t of answer.topics) {
      const topic = version >= 10 ? names.get((t as { topicId?: string }).topicId ?? '') : t.name;
      if (topic === undefined) continue;
      for (const p of t.partitions) {
        if (p.errorCode !== 0) {
          const error = kafkaError(p.errorCode, { context: { ...context, topic, partition: p.partitionIndex } });
          if (isRetriable(error)) retry ??= error;
          else failures.push({ topic, partition: p.partitionIndex, error });
          continue;
        }
        offsets.push({
          topic,
          partition: p.partitionIndex,
          offset: p.committedOffset < 0n ? null : p.committedOffset,
          leaderEpoch: p.committedLeaderEpoch < 0 ? null : p.committedLeaderEpoch,
          metadata: p.metadata,
        });
      }
    }
    if (retry !== undefined) out.set(answer.groupId, retry);
    else if (failures.length === 1) out.set(answer.groupId, failures[0].error);
    else if (failures.length > 1) out.set(answer.groupId, new PartitionErrors('OffsetFetch', failures, offsets));
    else out.set(answer.groupId, withRequested(offsets, query));
  }
  for (const g of groups) {
    if (!out.has(g.groupId)) {
      out.set(g.groupId, new TidemarkError(`OffsetFetch: no answer for group ${g.groupId}`, { retriable: true }));
    }
  }
  return out;
}

/** Every requested partition in the answer, in request order (offset null where the broker named none). */
function withRequested(offsets: CommittedOffset[], query: GroupOffsetsQuery): CommittedOffset[] {
  if (query.partitions == null)
    return offsets.sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
  const found = new Map(offsets.map((o) => [partitionKey(o.topic, o.partition), o]));
  return query.partitions.map(
    (p) =>
      found.get(partitionKey(p.topic, p.partition)) ?? {
        topic: p.topic,
        partition: p.partition,
        offset: null,
        leaderEpoch: null,
        metadata: null,
      },
  );
}

function unsupported(what: string, version: number, broker: string): never {
  const err = new UnsupportedVersionError('OffsetFetch', OffsetFetch.key, clientVersions(OffsetFetch), undefined);
  err.message = `${what}, but v${version} is in use with broker ${broker}`;
  throw err;
}
