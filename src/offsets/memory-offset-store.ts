import type { TopicPartition } from '../cluster/partition-errors.js';
import { applyCommit, type GroupOffsets } from './commit-rules.js';
import { OffsetStoreClosedError } from './errors.js';
import {
  type CommitOptions,
  emptyLoadResult,
  type LoadedOffsets,
  type OffsetCommit,
  type OffsetStore,
  type StoredOffset,
} from './offset-store.js';

/**
 * Offsets in this process's memory: gone when it exits. For tests, for consumers that keep positions
 * elsewhere, and as the reference implementation of the OffsetStore contract (validation, monotonic
 * commits, all-or-nothing calls) that the durable stores must match.
 */
export class MemoryOffsetStore implements OffsetStore {
  private readonly groups = new Map<string, GroupOffsets>();
  private closed = false;
  /** Injectable clock so tests can pin `committedAt`. */
  private readonly now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.now = options.now ?? Date.now;
  }

  async load(group: string, partitions: readonly TopicPartition[]): Promise<LoadedOffsets> {
    this.assertOpen();
    const result = emptyLoadResult(partitions);
    const stored = this.groups.get(group);
    for (const [topic, byPartition] of result) {
      const topicMap = stored?.get(topic);
      for (const partition of byPartition.keys()) {
        const value = topicMap?.get(partition);
        // Copies, so a caller mutating the answer cannot change the store.
        byPartition.set(partition, value === undefined ? undefined : { ...value });
      }
    }
    return result;
  }

  async commit(group: string, offsets: readonly OffsetCommit[], options?: CommitOptions): Promise<void> {
    this.assertOpen();
    let stored = this.groups.get(group);
    const empty = new Map<number, StoredOffset>();
    const next = applyCommit(group, (topic) => stored?.get(topic) ?? empty, offsets, options, this.now());
    if (stored === undefined) {
      stored = new Map();
      this.groups.set(group, stored);
    }
    for (const [topic, topicMap] of next) stored.set(topic, topicMap);
  }

  async release(_group: string, _topics: readonly string[]): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) throw new OffsetStoreClosedError();
  }
}
