import { partitionKey } from '../cluster/partition-errors.js';
import { commitOffsets } from '../commit/offset-commit.js';
import { fetchCommittedOffsets } from '../commit/offset-fetch.js';
import type { CommitContext as CommitCallContext } from '../commit/types.js';
import { UnsupportedVersionError } from '../network/errors.js';
import { type BackwardCommit, BackwardCommitError, OffsetStoreClosedError } from '../offsets/errors.js';
import {
  type CommitOptions,
  emptyLoadResult,
  type LoadedOffsets,
  type OffsetCommit,
  type OffsetStore,
  type TopicPartition,
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
  private readonly known = new Map<string, Map<string, bigint>>();
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
      byPartition.set(c.partition, {
        offset: c.offset,
        leaderEpoch: c.leaderEpoch,
        committedAt: Date.now(),
        ...(c.metadata ? { metadata: c.metadata } : {}),
      });
      known.set(partitionKey(c.topic, c.partition), c.offset);
    }
    return result;
  }

  async commit(group: string, offsets: readonly OffsetCommit[], options: CommitOptions = {}): Promise<void> {
    this.assertOpen();
    const known = this.knownOf(group);
    if (options.allowBackward !== true) {
      const backward: BackwardCommit[] = [];
      for (const o of offsets) {
        const stored = known.get(partitionKey(o.topic, o.partition));
        if (stored !== undefined && o.offset < stored) {
          backward.push({ topic: o.topic, partition: o.partition, stored, attempted: o.offset });
        }
      }
      if (backward.length > 0) throw new BackwardCommitError(group, backward);
    }
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
        member:
          g === undefined
            ? undefined
            : { memberId: g.memberId, generationIdOrMemberEpoch: g.generationId, groupInstanceId: g.groupInstanceId },
      },
    );
    for (const o of offsets) known.set(partitionKey(o.topic, o.partition), o.offset);
  }

  async release(_group: string, _topics: readonly string[]): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private knownOf(group: string): Map<string, bigint> {
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
