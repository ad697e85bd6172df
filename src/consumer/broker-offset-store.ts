import type { TopicPartition } from '../cluster/partition-errors.js';
import { commitOffsets } from '../commit/offset-commit.js';
import { fetchCommittedOffsets } from '../commit/offset-fetch.js';
import type { CommitContext as CommitCallContext } from '../commit/types.js';
import { UnsupportedVersionError } from '../network/errors.js';
import { applyCommit, type GroupOffsets } from '../offsets/commit-rules.js';
import { OffsetStoreClosedError } from '../offsets/errors.js';
import {
  type CommitOptions,
  emptyLoadResult,
  type LoadedOffsets,
  type OffsetCommit,
  type OffsetStore,
  type StoredOffset,
} from '../offsets/offset-store.js';

/**
 * Offsets in Kafka itself: the group coordinator's `__consumer_offsets`, through OffsetCommit and OffsetFetch
 * (src/commit). The default store of a consumer with a group id.
 *
 * A member's commits carry its generation (classic) or member epoch (KIP-848), so the coordinator refuses them
 * once a rebalance has moved on. The broker itself lets offsets go backwards; this store refuses that (the
 * OffsetStore contract) against the offsets it has seen — loaded or committed through it — which is what this
 * process can know without asking the coordinator before every commit.
 */
export class BrokerOffsetStore implements OffsetStore {
  private readonly known = new Map<string, GroupOffsets>();
  private closed = false;

  constructor(
    private readonly ctx: CommitCallContext,
    private readonly options: { requireStable?: boolean; timeoutMs?: number } = {},
  ) {}

  async load(group: string, partitions: readonly TopicPartition[]): Promise<LoadedOffsets> {
    this.assertOpen();
    const result = emptyLoadResult(partitions);
    if (partitions.length === 0) return result;
    const query = [{ groupId: group, partitions }];
    // Wait for pending transactional commits (KIP-447) as Java's consumer does, where the broker can.
    let answers: Awaited<ReturnType<typeof fetchCommittedOffsets>>;
    try {
      answers = await fetchCommittedOffsets(this.ctx, query, {
        requireStable: this.options.requireStable ?? true,
        timeoutMs: this.options.timeoutMs,
      });
    } catch (err) {
      if (!(err instanceof UnsupportedVersionError)) throw err;
      answers = await fetchCommittedOffsets(this.ctx, query, { timeoutMs: this.options.timeoutMs });
    }
    const known = this.knownOf(group);
    for (const c of answers.get(group) ?? []) {
      const byPartition = result.get(c.topic);
      if (byPartition === undefined || !byPartition.has(c.partition) || c.offset === null) continue;
      const stored = {
        offset: c.offset,
        leaderEpoch: c.leaderEpoch,
        committedAt: Date.now(),
        ...(c.metadata ? { metadata: c.metadata } : {}),
      };
      byPartition.set(c.partition, stored);
      topicOf(known, c.topic).set(c.partition, stored);
    }
    return result;
  }

  async commit(group: string, offsets: readonly OffsetCommit[], options: CommitOptions = {}): Promise<void> {
    this.assertOpen();
    const known = this.knownOf(group);
    // The rules every store keeps (valid entries, no backward move unless sought), against what this store saw.
    const next = applyCommit(group, (topic) => known.get(topic) ?? new Map(), offsets, options, Date.now());
    const g = options.generation;
    await commitOffsets(
      this.ctx,
      group,
      offsets.map((o) => ({
        topic: o.topic,
        partition: o.partition,
        offset: o.offset,
        leaderEpoch: o.leaderEpoch,
        metadata: o.metadata ?? '',
      })),
      {
        timeoutMs: this.options.timeoutMs,
        member: g,
      },
    );
    for (const [topic, partitions] of next) known.set(topic, partitions);
  }

  async release(_group: string, _topics: readonly string[]): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private knownOf(group: string): GroupOffsets {
    let known = this.known.get(group);
    if (known === undefined) {
      known = new Map();
      this.known.set(group, known);
    }
    return known;
  }

  private assertOpen(): void {
    if (this.closed) throw new OffsetStoreClosedError();
  }
}

function topicOf(offsets: GroupOffsets, topic: string): Map<number, StoredOffset> {
  let partitions = offsets.get(topic);
  if (partitions === undefined) {
    partitions = new Map();
    offsets.set(topic, partitions);
  }
  return partitions;
}
