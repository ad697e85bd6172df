import { type CallOptions, Deadline } from '../cluster/deadline.js';
import {
  type ListedOffset,
  type ListOffsetsOptions,
  type ListOffsetsQuery,
  listOffsets,
} from '../cluster/list-offsets.js';
import {
  checkTruncation,
  type EpochEndOffset,
  type EpochPosition,
  type EpochQuery,
  epochEndOffsets,
  type TruncationCheck,
} from '../cluster/offset-for-leader-epoch.js';
import type { TopicPartition } from '../cluster/partition-errors.js';
import { type CommitOffsetsOptions, commitOffsets } from '../commit/offset-commit.js';
import { type FetchOffsetsOptions, fetchCommittedOffsets, type GroupOffsetsQuery } from '../commit/offset-fetch.js';
import type { CommittedOffset } from '../commit/types.js';
import type { OffsetCommit } from '../offsets/offset-store.js';
import type { GroupAdminContext } from './group-context.js';

/** The answer of offsetsForTimes for one partition. */
export interface OffsetForTime {
  topic: string;
  partition: number;
  /** The first offset whose record timestamp is at or after the one asked for; null when there is none. */
  offset: bigint | null;
  /** That record's timestamp; null when there is none. */
  timestamp: bigint | null;
  /** That record's leader epoch; null when unknown. */
  leaderEpoch: number | null;
}

/** Options of the OffsetForLeaderEpoch calls; `version` forces the request version (tests of each version). */
export type EpochOptions = CallOptions & { version?: number };

/** Partitions, or every partition of a topic. */
export type PartitionsOf = string | readonly TopicPartition[];

/**
 * Offsets of the log (earliest, latest, by time, any ListOffsets spec), KIP-320 truncation checks, and the
 * committed offsets of groups. Every call takes `timeoutMs` and `signal` and settles by then with a typed error.
 */
export class Offsets {
  constructor(private readonly ctx: GroupAdminContext) {}

  /** The log start offset of each partition. */
  earliest(partitions: PartitionsOf, options?: ListOffsetsOptions): Promise<ListedOffset[]> {
    return this.listAll(partitions, 'earliest', options);
  }

  /** The log end offset (next offset to be written) of each partition; the last stable one with read_committed. */
  latest(partitions: PartitionsOf, options?: ListOffsetsOptions): Promise<ListedOffset[]> {
    return this.listAll(partitions, 'latest', options);
  }

  /** For each partition, the first record at or after its timestamp (ms), as Java's consumer.offsetsForTimes. */
  async offsetsForTimes(
    queries: readonly (TopicPartition & { timestamp: number | bigint | Date })[],
    options?: ListOffsetsOptions,
  ): Promise<OffsetForTime[]> {
    const listed = await this.list(
      queries.map((q) => ({ topic: q.topic, partition: q.partition, spec: { timestamp: q.timestamp } })),
      options,
    );
    return listed.map((l) => ({
      topic: l.topic,
      partition: l.partition,
      offset: l.offset < 0n ? null : l.offset,
      timestamp: l.offset < 0n ? null : l.timestamp,
      leaderEpoch: l.offset < 0n || l.leaderEpoch < 0 ? null : l.leaderEpoch,
    }));
  }

  /** Any ListOffsets lookup (max-timestamp, earliest-local, latest-tiered, etc., where the broker's version allows). */
  list(queries: readonly ListOffsetsQuery[], options?: ListOffsetsOptions): Promise<ListedOffset[]> {
    return listOffsets(this.ctx, queries, options);
  }

  /** Where leader epochs end in the partitions' logs (OffsetForLeaderEpoch). */
  epochEndOffsets(queries: readonly EpochQuery[], options?: EpochOptions): Promise<EpochEndOffset[]> {
    return epochEndOffsets(this.ctx, queries, options);
  }

  /** Whether stored positions (offset + leader epoch) survived in the log, and where reading may resume. */
  checkTruncation(positions: readonly EpochPosition[], options?: EpochOptions): Promise<TruncationCheck[]> {
    return checkTruncation(this.ctx, positions, options);
  }

  /** Commits offsets for a group: standalone by default, or as a member (`options.member`). */
  commit(groupId: string, offsets: readonly OffsetCommit[], options?: CommitOffsetsOptions): Promise<void> {
    return commitOffsets(this.ctx, groupId, offsets, options);
  }

  /** A group's committed offsets: the given partitions (null offset where none), or every committed one. */
  async committed(
    groupId: string,
    partitions?: readonly TopicPartition[] | null,
    options?: FetchOffsetsOptions,
  ): Promise<CommittedOffset[]> {
    const result = await fetchCommittedOffsets(this.ctx, [{ groupId, partitions }], options);
    return result.get(groupId) ?? [];
  }

  /** Several groups' committed offsets, in one request per coordinator where the broker allows (v8+). */
  committedOfGroups(
    queries: readonly GroupOffsetsQuery[],
    options?: FetchOffsetsOptions,
  ): Promise<Map<string, CommittedOffset[]>> {
    return fetchCommittedOffsets(this.ctx, queries, options);
  }

  /** One spec for the given partitions, or (a topic name) for all of the topic's partitions. */
  private async listAll(
    partitions: PartitionsOf,
    spec: 'earliest' | 'latest',
    options: ListOffsetsOptions = {},
  ): Promise<ListedOffset[]> {
    if (typeof partitions !== 'string')
      return this.list(
        partitions.map((p) => ({ ...p, spec })),
        options,
      );
    // The topic's partitions come from metadata, within the same time budget as the lookup itself.
    const deadline = Deadline.of('ListOffsets', options, this.ctx.requestTimeoutMs);
    const topic = await deadline.race(this.ctx.cluster.metadataCache.topic(partitions));
    const queries = topic.partitions.map((p) => ({ topic: partitions, partition: p.partition, spec }));
    return this.list(queries, { ...options, timeoutMs: deadline.remaining() });
  }
}
