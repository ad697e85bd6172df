import { TidemarkError } from '../../codecs/errors.js';
import { OffsetCommit as OffsetCommitApi, type OffsetCommitRequestInput } from '../../protocol/apis/offset-commit.js';
import { kafkaError } from '../../protocol/kafka-error.js';
import { type CallOptions, Deadline, isRetriable } from '../cluster/deadline.js';
import { groupBy } from '../cluster/group-by.js';
import { type PartitionFailure, partitionKey, throwPartitionFailures } from '../cluster/partition-errors.js';
import { clientVersions } from '../network/api-versions.js';
import type { Connection } from '../network/connection.js';
import { UnsupportedVersionError } from '../network/errors.js';
import type { ConsumerGroupMetadata } from '../offsets/group-metadata.js';
import type { OffsetCommit } from '../offsets/offset-store.js';
import { topicIdsOf, versionForTopics } from './topic-ids.js';
import type { CommitContext, GroupMembership } from './types.js';

export interface CommitOffsetsOptions extends CallOptions {
  /** Commit as this group member; without it the commit is standalone (generation -1, no member id). */
  member?: ConsumerGroupMetadata | GroupMembership;
  /** Forces the OffsetCommit version (tests of each version). */
  version?: number;
}

/**
 * Commits offsets for a group at its coordinator. Partitions that fail retriably (coordinator moved or loading,
 * request timed out, connection lost) are sent again, alone, after rediscovery and backoff, until the deadline;
 * partitions the coordinator accepted are never sent twice. Partitions that fail for good throw their typed
 * error: the shared one when all failed alike (ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID…), else PartitionErrors.
 */
export async function commitOffsets(
  ctx: CommitContext,
  groupId: string,
  offsets: readonly OffsetCommit[],
  options: CommitOffsetsOptions = {},
): Promise<void> {
  checkGroupId(groupId);
  const deadline = Deadline.of('OffsetCommit', options, ctx.requestTimeoutMs);
  // Within one call a later entry for the same partition wins.
  const pending = new Map<string, OffsetCommit>();
  for (const o of offsets) {
    checkOffset(o);
    pending.set(partitionKey(o.topic, o.partition), o);
  }
  const failures: PartitionFailure[] = [];
  const committed: OffsetCommit[] = [];
  if (pending.size === 0) return;
  await ctx.coordinators.call('group', groupId, deadline, async (connection) => {
    const ids = await topicIdsOf(
      ctx.cluster,
      [...pending.values()].map((o) => o.topic),
      deadline,
    );
    const version = versionForTopics(connection, OffsetCommitApi, options.version, ids !== undefined);
    const request = commitRequest(groupId, [...pending.values()], options.member, version, ids, connection);
    const response = await connection.request(OffsetCommitApi, request, {
      ...deadline.requestOptions(ctx.requestTimeoutMs),
      version,
    });
    const names = new Map([...(ids ?? [])].map(([name, id]) => [id, name]));
    let retryWith: TidemarkError | undefined;
    for (const t of response.topics) {
      const topic = version >= 10 ? names.get(t.topicId) : t.name;
      if (topic === undefined) continue;
      for (const p of t.partitions) {
        const key = partitionKey(topic, p.partitionIndex);
        const sent = pending.get(key);
        if (sent === undefined) continue;
        if (p.errorCode === 0) {
          pending.delete(key);
          committed.push(sent);
          continue;
        }
        const error = kafkaError(p.errorCode, {
          context: { api: 'OffsetCommit', version, groupId, topic, partition: p.partitionIndex },
        });
        if (error.errorName === 'UNKNOWN_TOPIC_ID') ctx.cluster.metadataCache.invalidate(topic);
        if (isRetriable(error)) retryWith ??= error;
        else {
          pending.delete(key);
          failures.push({ topic, partition: p.partitionIndex, error });
        }
      }
    }
    // A partition the coordinator did not mention stays pending and is sent again.
    if (pending.size > 0) {
      throw (
        retryWith ??
        new TidemarkError(`OffsetCommit: the coordinator did not answer for every partition`, {
          retriable: true,
        })
      );
    }
  });
  throwPartitionFailures('OffsetCommit', failures, committed);
}

/** The generation id (or member epoch) of either shape; the deprecated GroupMembership spells it differently. */
function generationOf(member: ConsumerGroupMetadata | GroupMembership): number {
  return 'generationId' in member ? member.generationId : member.generationIdOrMemberEpoch;
}

function commitRequest(
  groupId: string,
  offsets: OffsetCommit[],
  member: ConsumerGroupMetadata | GroupMembership | undefined,
  version: number,
  ids: Map<string, string> | undefined,
  connection: Connection,
): OffsetCommitRequestInput {
  if (member !== undefined && version < 1)
    unsupported('committing as a group member needs OffsetCommit v1+', version, connection);
  if (member?.groupInstanceId != null && version < 7) {
    unsupported('a group instance id (static membership) needs OffsetCommit v7+', version, connection);
  }
  const byTopic = groupBy(offsets, (o) => o.topic);
  return {
    groupId,
    // Standalone: generation -1 and no member id tell the coordinator this is not a member's commit.
    generationIdOrMemberEpoch: member === undefined ? -1 : generationOf(member),
    memberId: member?.memberId ?? '',
    groupInstanceId: member?.groupInstanceId ?? null,
    topics: [...byTopic].map(([name, list]) => ({
      name,
      topicId: ids?.get(name),
      partitions: list.map((o) => ({
        partitionIndex: o.partition,
        committedOffset: o.offset,
        committedLeaderEpoch: o.leaderEpoch ?? -1,
        committedMetadata: o.metadata ?? '',
      })),
    })),
  };
}

function unsupported(what: string, version: number, connection: Connection): never {
  const err = new UnsupportedVersionError(
    'OffsetCommit',
    OffsetCommitApi.key,
    clientVersions(OffsetCommitApi),
    undefined,
  );
  err.message = `${what}, but v${version} is in use with broker ${connection.address}`;
  throw err;
}

export function checkGroupId(groupId: string): void {
  if (typeof groupId !== 'string' || groupId === '') {
    throw new TypeError(`a group id must be a non-empty string, got ${JSON.stringify(groupId)}`);
  }
}

function checkOffset(o: OffsetCommit): void {
  if (typeof o.topic !== 'string' || o.topic === '') throw new TypeError(`invalid topic ${JSON.stringify(o.topic)}`);
  if (!Number.isInteger(o.partition) || o.partition < 0) throw new RangeError(`invalid partition ${o.partition}`);
  if (typeof o.offset !== 'bigint' || o.offset < 0n) {
    throw new RangeError(`invalid offset ${String(o.offset)} for ${o.topic}-${o.partition}: expected a bigint >= 0`);
  }
}
