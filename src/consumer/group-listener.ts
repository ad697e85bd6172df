import type { TopicPartition } from '../cluster/partition-errors.js';
import type { OffsetStore } from '../offsets/offset-store.js';
import type { CommitEngine } from './commit-engine.js';
import type { DeliveredBatch } from './delivered-batch.js';
import type { Delivery } from './delivery.js';
import type { EventSink } from './events.js';
import type { Fetcher } from './fetch/fetcher.js';
import type { GroupMembership, RebalanceListener } from './group/membership.js';
import type { MetricsRecorder } from './metrics.js';
import type { PartitionState, Positions } from './positions.js';

export interface GroupListenerContext {
  membership: () => GroupMembership | undefined;
  groupId: string;
  positions: Positions;
  fetcher: Fetcher;
  delivery: Delivery;
  commits: CommitEngine;
  store: OffsetStore | undefined;
  autoCommit: boolean;
  revokeTimeoutMs: number;
  /**
   * Whether the consumer is leaving on the application's own call (close, unsubscribe), perhaps from inside its
   * loop: a revoke then waits for nothing the application holds, which would only wait on itself.
   */
  leaving: () => boolean;
  emit: EventSink;
  metrics: MetricsRecorder;
  /** The application's own listener, called after the consumer's part of each step. */
  user: RebalanceListener | undefined;
}

/**
 * The consumer's side of a rebalance, wrapped around the application's listener. The membership awaits each
 * callback, so the group does not move on until this is done:
 * - assigned: the partitions get states (their positions are looked up before the first fetch), then the
 *   application hears of them;
 * - revoked (the member still owns them): fetching them stops, the batch the application holds from them is
 *   awaited (bounded by revokeTimeoutMs), their processed offsets are committed (auto-commit), the
 *   application's onRevoked runs (it may commit by hand), and every queued commit is flushed — only then are
 *   the states dropped, so no commit of them can be sent after the member lost them;
 * - lost: dropped at once, nothing committed (another member may own them already).
 */
export function groupListener(ctx: GroupListenerContext): RebalanceListener {
  const generation = () => {
    try {
      return ctx.membership()?.commitContext().generationId;
    } catch {
      return undefined;
    }
  };
  const report = (kind: 'assigned' | 'revoked' | 'lost', partitions: TopicPartition[]) => {
    // A step that changed nothing for this member (KIP-848 sends those) is not a rebalance of ours.
    if (partitions.length === 0) return;
    ctx.metrics.rebalances++;
    const memberId = ctx.membership()?.memberId ?? '';
    ctx.emit('rebalance', { groupId: ctx.groupId, memberId, kind, partitions, generation: generation() });
  };

  return {
    onAssigned: async (partitions) => {
      for (const { topic, partition } of partitions) ctx.positions.add(topic, partition);
      report('assigned', partitions);
      ctx.fetcher.wake();
      await ctx.user?.onAssigned?.(partitions);
    },

    onRevoked: async (partitions) => {
      const states = owned(ctx.positions, partitions);
      const revoked = new Set(states);
      // Not fetched or delivered from now on; the state stays until its commits are done.
      for (const s of states) if (s.phase !== 'revoking') ctx.fetcher.revoke(s);
      if (!ctx.leaving()) await awaitHandlers(ctx, (s) => revoked.has(s), 'the revoke');
      if (ctx.autoCommit) {
        const offsets = ctx.commits.processedOffsets((s) => revoked.has(s));
        // A failure is reported by the engine's commit-failed event; the rebalance goes on regardless.
        await ctx.commits.commit(offsets, 'revoke', { wait: true }).catch(() => {});
      }
      try {
        await ctx.user?.onRevoked?.(partitions);
      } finally {
        await ctx.commits.flush();
        await drop(ctx, states);
        report('revoked', partitions);
      }
    },

    onLost: async (partitions) => {
      await drop(ctx, owned(ctx.positions, partitions));
      report('lost', partitions);
      await ctx.user?.onLost?.(partitions);
    },
  };
}

function owned(positions: Positions, partitions: readonly TopicPartition[]): PartitionState[] {
  const out: PartitionState[] = [];
  for (const { topic, partition } of partitions) {
    const s = positions.get(topic, partition);
    if (s !== undefined) out.push(s);
  }
  return out;
}

/**
 * Forgets partitions, and tells the store which topics this member no longer holds any partition of. The
 * release is awaited, so the rebalance goes on only once the store let go: a FileOffsetStore has then unlocked
 * the topic (another owner can open it) and finished copying to its mirror (the broker shows the handover).
 */
async function drop(ctx: GroupListenerContext, states: PartitionState[]): Promise<void> {
  const topics = new Set<string>();
  for (const s of states) {
    ctx.fetcher.dropBuffered(s);
    ctx.positions.remove(s.topic, s.partition);
    topics.add(s.topic);
  }
  ctx.fetcher.buffer.notify();
  await releaseUnheld(ctx, topics);
}

/**
 * Tells the store this consumer holds no partition of `topics` any more (those it still holds are kept): a
 * FileOffsetStore unlocks them, so another owner (another consumer in this process too) can open them. The
 * store stays the application's to close.
 */
export async function releaseUnheld(
  ctx: Pick<GroupListenerContext, 'store' | 'groupId' | 'positions' | 'emit'>,
  topics: Iterable<string>,
): Promise<void> {
  const unheld = new Set(topics);
  for (const t of ctx.positions.topics()) unheld.delete(t);
  if (unheld.size === 0 || ctx.store?.release === undefined) return;
  await ctx.store.release(ctx.groupId, [...unheld]).catch((err: unknown) => {
    ctx.emit('warning', { message: 'the offset store could not release topics', error: err as Error });
  });
}

/**
 * Waits, up to `revokeTimeoutMs`, for the batches of `matches` the application holds (the one in hand, the
 * running processBatches handlers), so that what they finish is committed; those still held then are reported
 * by `warning` events (`step` names who went on without them: a revoke, a re-assignment).
 */
export async function awaitHandlers(
  ctx: Pick<GroupListenerContext, 'delivery' | 'revokeTimeoutMs' | 'emit'>,
  matches: (state: PartitionState) => boolean,
  step: string,
): Promise<void> {
  await settledWithin(ctx, matches);
  warnUnfinished(ctx, ctx.delivery.held(matches), step);
}

/**
 * Resolves once no batch of `matches` is held by the application, after `revokeTimeoutMs`, or once `stop`
 * settles (the wait is called off: no timer is left behind).
 */
export async function settledWithin(
  ctx: Pick<GroupListenerContext, 'delivery' | 'revokeTimeoutMs'>,
  matches: (state: PartitionState) => boolean,
  stop?: Promise<void>,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ctx.revokeTimeoutMs);
  });
  await Promise.race([ctx.delivery.whenSettled(matches), timeout, ...(stop === undefined ? [] : [stop])]);
  clearTimeout(timer);
}

/**
 * Says, per batch, that `step` went on without its handler: the partition's first unprocessed offset (the
 * batch's first record, or past it as far as it acknowledged) is what gets committed, so it is read again.
 */
export function warnUnfinished(
  ctx: Pick<GroupListenerContext, 'revokeTimeoutMs' | 'emit'>,
  batches: readonly DeliveredBatch[],
  step: string,
): void {
  for (const b of batches) {
    const first = b.records[0]?.offset;
    const done = b.current ? b.state.processed()?.offset : undefined;
    const from = done !== undefined && first !== undefined && done > first ? done : first;
    const message = `${step} went on without the handler of ${b.topic}-${b.partition} (still running after ${ctx.revokeTimeoutMs} ms): its batch (from offset ${from}) is not committed past what it acknowledged, and will be read again`;
    ctx.emit('warning', { message, error: undefined, topic: b.topic, partition: b.partition });
  }
}
