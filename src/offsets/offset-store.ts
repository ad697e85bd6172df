import type { TopicPartition } from '../cluster/partition-errors.js';
import type { ConsumerGroupMetadata } from './group-metadata.js';
import type { OutOfRangePolicy } from './range-check.js';

/**
 * The contract between the commit engine and wherever offsets live: the broker (OffsetCommit/OffsetFetch),
 * a local gtoffset file, memory, or the application's own database. See docs/ARCHITECTURE.md, "The offset contract".
 *
 * Every implementation promises:
 * - a committed offset is the next record to read (last processed + 1);
 * - `commit` resolves only once the offsets are durable in that store (for a file: fsynced and renamed;
 *   for a database: the transaction committed), so the engine may acknowledge the processed records;
 * - offsets never move backwards unless the call says `allowBackward` (the user seeked): otherwise the
 *   whole call is refused with `BackwardCommitError` and nothing of it is stored;
 * - `load` answers every partition asked for, `undefined` where nothing is stored, and never invents
 *   a position: corrupt state is a typed error, not an empty answer.
 */

/**
 * One partition's offset to commit: the one shape the application (`consumer.commit({ offsets })`,
 * `client.offsets.commit`), the commit engine, every OffsetStore and the coordinator's OffsetCommit take.
 */
export interface OffsetCommit {
  topic: string;
  partition: number;
  /** The next offset to read: last processed + 1. */
  offset: bigint;
  /** The leader epoch of the last processed record, when known (KIP-320 truncation detection). */
  leaderEpoch?: number;
  /** Free text stored with the offset (Kafka's commit metadata); null or absent: none. */
  metadata?: string | null;
}

/** @deprecated The same as {@link OffsetCommit}, the one offset-to-commit type; this name will go. */
export type OffsetToCommit = OffsetCommit;

/** @deprecated The same as {@link OffsetCommit}, the one offset-to-commit type; this name will go. */
export type OffsetToStore = OffsetCommit;

/** One partition's stored position. */
export interface StoredOffset {
  offset: bigint;
  leaderEpoch: number | null;
  /** When the offset was committed, in ms since the epoch. */
  committedAt: number;
  /** Absent when empty: Kafka's default commit metadata is the empty string. */
  metadata?: string;
}

/** @deprecated The same as {@link ConsumerGroupMetadata}, the one member-identity type; this name will go. */
export type GroupGeneration = ConsumerGroupMetadata;

export interface CommitOptions {
  /** The user seeked: accept offsets below the stored ones. */
  allowBackward?: boolean;
  /**
   * The member the commit is made under: the broker store fences with it, local stores ignore it. Absent with
   * manual assignment.
   */
  generation?: ConsumerGroupMetadata;
}

/** topic → partition → stored offset (`undefined`: nothing stored for a partition that was asked for). */
export type LoadedOffsets = Map<string, Map<number, StoredOffset | undefined>>;

export interface OffsetStore {
  /**
   * What a consumer does by default with a loaded position outside the log when its `offsetOutOfRange` option
   * is not set. Absent: the consumer's own default (Java's: follow autoOffsetReset). FileOffsetStore: `clamp`.
   */
  readonly outOfRangeDefault?: OutOfRangePolicy;

  /** Stored positions of `partitions` for `group`. Every requested partition appears in the answer. */
  load(group: string, partitions: readonly TopicPartition[]): Promise<LoadedOffsets>;

  /**
   * Stores `offsets` for `group`, merged with what is stored (partitions not named keep their offsets).
   * Within one call a later entry for the same partition wins. Resolves when durable.
   */
  commit(group: string, offsets: readonly OffsetCommit[], options?: CommitOptions): Promise<void>;

  /**
   * The member gave up these topics (revoke): finish pending writes and let another owner take them.
   * Stores without ownership (broker, memory) may treat it as a no-op.
   */
  release?(group: string, topics: readonly string[]): Promise<void>;

  /** Finishes pending writes and releases everything; later calls fail with `OffsetStoreClosedError`. */
  close(): Promise<void>;
}

/** An empty answer for `partitions`, to be filled by a store. */
export function emptyLoadResult(partitions: readonly TopicPartition[]): LoadedOffsets {
  const result: LoadedOffsets = new Map();
  for (const { topic, partition } of partitions) {
    let byPartition = result.get(topic);
    if (byPartition === undefined) {
      byPartition = new Map();
      result.set(topic, byPartition);
    }
    byPartition.set(partition, undefined);
  }
  return result;
}
