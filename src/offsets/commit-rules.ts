import { INT32_MAX, INT64_MAX } from '../../codecs/limits.js';
import { type BackwardCommit, BackwardCommitError, InvalidOffsetCommitError } from './errors.js';
import type { CommitOptions, OffsetCommit, StoredOffset } from './offset-store.js';

/**
 * The rules every store applies to a commit call, in one place so the memory store (the reference) and the
 * file store cannot drift: validate each entry, refuse backward moves, and produce the new per-topic maps.
 */

/** topic → partition → offset: what a store holds for one group. */
export type GroupOffsets = Map<string, Map<number, StoredOffset>>;

function validate(entry: OffsetCommit): void {
  const where = `${entry.topic}-${entry.partition}`;
  if (typeof entry.topic !== 'string' || entry.topic.length === 0) {
    throw new InvalidOffsetCommitError(`commit names an empty topic`);
  }
  if (!Number.isInteger(entry.partition) || entry.partition < 0 || entry.partition > INT32_MAX) {
    throw new InvalidOffsetCommitError(`${where}: partition must be an int32 >= 0`);
  }
  if (typeof entry.offset !== 'bigint' || entry.offset < 0n || entry.offset > INT64_MAX) {
    throw new InvalidOffsetCommitError(`${where}: offset ${String(entry.offset)} is not an int64 >= 0`);
  }
  const epoch = entry.leaderEpoch;
  // -1 is Kafka's "no epoch" on the wire; anything else below 0 is a bug.
  if (epoch !== undefined && (!Number.isInteger(epoch) || epoch < -1 || epoch > INT32_MAX)) {
    throw new InvalidOffsetCommitError(`${where}: leader epoch ${epoch} is not an int32 >= -1`);
  }
  if (entry.metadata != null && typeof entry.metadata !== 'string') {
    throw new InvalidOffsetCommitError(`${where}: metadata must be a string or null`);
  }
}

/**
 * The state after applying `offsets` to `current`, restricted to the topics the call touches. `current` is
 * not modified, so a store can swap the result in only once it is durable. Throws before returning anything
 * when an entry is invalid or moves backwards without `allowBackward`: a call is accepted whole or not at all.
 *
 * `currentFor` returns the stored partitions of a topic (an empty map when none).
 */
export function applyCommit(
  group: string,
  currentFor: (topic: string) => ReadonlyMap<number, StoredOffset>,
  offsets: readonly OffsetCommit[],
  options: CommitOptions | undefined,
  now: number,
): GroupOffsets {
  const next: GroupOffsets = new Map();
  const backward: BackwardCommit[] = [];
  for (const entry of offsets) {
    validate(entry);
    let topicMap = next.get(entry.topic);
    if (topicMap === undefined) {
      topicMap = new Map(currentFor(entry.topic));
      next.set(entry.topic, topicMap);
    }
    const stored = topicMap.get(entry.partition);
    if (stored !== undefined && entry.offset < stored.offset && options?.allowBackward !== true) {
      backward.push({ topic: entry.topic, partition: entry.partition, stored: stored.offset, attempted: entry.offset });
      continue;
    }
    const epoch = entry.leaderEpoch === undefined || entry.leaderEpoch < 0 ? null : entry.leaderEpoch;
    const value: StoredOffset = { offset: entry.offset, leaderEpoch: epoch, committedAt: now };
    if (entry.metadata != null && entry.metadata !== '') value.metadata = entry.metadata;
    topicMap.set(entry.partition, value);
  }
  if (backward.length > 0) throw new BackwardCommitError(group, backward);
  return next;
}
