import { EventEmitter } from 'node:events';
import { TidemarkError } from '../../codecs/errors.js';
import type { TopicPartition } from '../cluster/partition-errors.js';
import type { CommittedOffset } from '../commit/types.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../network/connection.js';
import type { OffsetCommit } from '../offsets/offset-store.js';
import { ConfigError } from '../options/config-error.js';
import { abortable } from './abortable.js';
import type { CommitEngine } from './commit-engine.js';
import { type BatchHandler, type ProcessBatchesOptions, processBatches } from './concurrent.js';
import { buildParts, type ConsumerHost, type ConsumerParts } from './consumer-parts.js';

export type { ConsumerHost };

import type { ConsumerGroupMetadata } from '../offsets/group-metadata.js';
import type { ConsumerBatch, ConsumerRecord } from './consumer-record.js';
import { ConsumerClosedError } from './errors.js';
import type { ConsumerEventMap } from './events.js';
import { createGroupMembership } from './group/create-membership.js';
import type { GroupMembership, RebalanceListener, Subscription } from './group/membership.js';
import { groupListener, warnUnfinished } from './group-listener.js';
import { ManualAssignment } from './manual-assignment.js';
import type { ConsumerMetrics, PartitionLag } from './metrics.js';
import type { ConsumerOptions, ResolvedConsumerOptions } from './options.js';
import type { SeekTarget } from './position-control.js';
import { BatchIterator, RecordIterator } from './records-iterator.js';

export interface WaitOptions {
  signal?: AbortSignal;
}

/**
 * Reads records from Kafka, pipelined and bounded in memory, and commits exactly what the application has
 * processed (docs/ARCHITECTURE.md, "The offset contract"). Partitions come from `assign()` (manual) or `subscribe()`
 * (a consumer group); records come from `for await (const batch of consumer)` or `consumer.records()`.
 * Events: see EVENTS.md.
 */
export class Consumer extends EventEmitter<ConsumerEventMap> implements AsyncIterable<ConsumerBatch> {
  readonly groupId: string | undefined;
  readonly options: Readonly<ResolvedConsumerOptions>;
  private readonly parts: ConsumerParts;
  private readonly commits: CommitEngine;
  private membership: GroupMembership | undefined;
  private mode: 'none' | 'manual' | 'group' = 'none';
  private closing: Promise<void> | undefined;
  private unsubscribing = false;
  private readonly manual: ManualAssignment;
  private autoCommitTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly host: ConsumerHost,
    options: ConsumerOptions = {},
  ) {
    super();
    this.parts = buildParts(host, options, host.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, {
      emit: (name, payload) => this.emit(name, payload as never),
      listens: (name) => this.listenerCount(name) > 0,
      membership: () => this.membership,
      isClosed: () => this.closing !== undefined,
      isLeaving: () => this.closing !== undefined || this.unsubscribing,
    });
    this.options = this.parts.options;
    this.groupId = this.options.groupId;
    this.commits = this.parts.commits;
    this.manual = new ManualAssignment(this.parts, this.groupId);
  }

  /**
   * Reads exactly these partitions (replacing any earlier assignment). The dropped ones go as in a group's revoke:
   * nothing more of them is handed out, the batch in hand and the running `processBatches` handlers of them are
   * awaited (up to `revokeTimeoutMs`; one still running then is reported by a `warning` event), and what was
   * processed of them is committed; all of that in the background (`unsubscribe()` awaits it).
   */
  assign(partitions: readonly TopicPartition[]): void {
    // In the background: a failure there (a throwing warning listener) is the close's or unsubscribe()'s to see.
    this.reassign(partitions, false).catch(() => {});
  }

  /** assign(), returning when the dropped partitions are let go; `notInHand`: do not wait for the caller's batch. */
  private reassign(partitions: readonly TopicPartition[], notInHand: boolean): Promise<void> {
    this.checkOpen();
    if (this.mode === 'group') throw new TidemarkError('assign() cannot be used while subscribed to a group');
    this.mode = 'manual';
    const unassigning = this.manual.assign(partitions, notInHand);
    this.startAutoCommit();
    return unassigning;
  }

  /** Joins the group and reads what it assigns; resolves once the first assignment is in. Needs `groupId`. */
  async subscribe(
    subscription: Subscription,
    options: WaitOptions & { listener?: RebalanceListener } = {},
  ): Promise<void> {
    this.checkOpen();
    const groupId = this.groupId;
    if (groupId === undefined) throw new ConfigError('groupId', 'subscribing needs a group id');
    if (this.mode === 'manual') throw new TidemarkError('subscribe() cannot be used after assign()');
    if (this.membership !== undefined) {
      this.membership.subscribe(subscription);
      return;
    }
    this.mode = 'group';
    const membership = createGroupMembership(this.host.cluster, this.host.coordinators, {
      ...this.parts.groupOptions,
      groupId,
    });
    this.membership = membership;
    membership.on('error', (error) => this.emit('warning', { message: `group ${groupId}: ${error.message}`, error }));
    membership.on('rebalance', (step) => {
      // Steps that moved partitions are reported by the listener; this one completed and changed nothing here
      // (a member holding nothing before and after, e.g. a KIP-848 rejoin's first empty target, is not told).
      if (step.assigned.length + step.revoked.length + step.lost.length > 0 || step.assignment.length === 0) return;
      this.parts.emit('rebalance', {
        groupId,
        memberId: step.memberId,
        kind: 'unchanged',
        partitions: step.assignment,
        generation: step.generationId,
      });
    });
    const listener = groupListener({ ...this.parts.listenerContext(), groupId, user: options.listener });
    this.startAutoCommit();
    try {
      await abortable(membership.start(subscription, listener), options.signal);
    } catch (err) {
      // Closed while joining: say so in the consumer's terms, not the membership's.
      if (this.closing !== undefined) throw new ConsumerClosedError();
      throw err;
    }
  }

  /** Leaves the group (committing what was processed) or drops the manual assignment. */
  async unsubscribe(options: WaitOptions = {}): Promise<void> {
    const membership = this.membership;
    if (membership !== undefined) {
      // The membership stays in place while it leaves: the revoke's commits carry its generation.
      this.unsubscribing = true;
      try {
        await abortable(membership.leave(), options.signal);
      } finally {
        this.unsubscribing = false;
        this.membership = undefined;
      }
    } else if (this.mode === 'manual') {
      await abortable(this.reassign([], true), options.signal);
    }
    this.mode = 'none';
  }

  /**
   * The group identity this consumer holds now, as Java's `groupMetadata()`: pass it to a transactional
   * producer's offset commit (KIP-447) so that the coordinator fences this member once the group moved on.
   */
  groupMetadata(): ConsumerGroupMetadata {
    const groupId = this.groupId;
    if (groupId === undefined) throw new ConfigError('groupId', 'group metadata needs a group id');
    const membership = this.membership;
    return {
      groupId,
      memberId: membership?.memberId ?? '',
      generationId: membership?.generationId ?? -1,
      groupInstanceId: this.parts.groupOptions.groupInstanceId ?? null,
    };
  }

  /** The partitions this consumer reads now. */
  assignment(): TopicPartition[] {
    return [...this.parts.positions.all()]
      .filter((s) => s.phase !== 'revoking')
      .map(({ topic, partition }) => ({ topic, partition }));
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<ConsumerBatch> {
    return this.batches();
  }

  /**
   * Batches of one partition's consecutive records (about 32 KiB or 256 records each). Aborting `signal` stops delivery at the
   * next batch boundary (the loop's next step rejects with the signal's reason): the batch whose body returned
   * counts as processed, and what was buffered behind it is neither delivered nor committed.
   */
  batches(options: WaitOptions = {}): AsyncIterableIterator<ConsumerBatch> {
    return new BatchIterator(this.parts.delivery, options.signal);
  }

  /**
   * Records one at a time; each counts as processed when the loop asks for the next. Aborting `signal` stops at
   * the next record: the rest of its batch goes back unprocessed.
   */
  records(options: WaitOptions = {}): AsyncIterableIterator<ConsumerRecord> {
    return new RecordIterator(this.parts.delivery, options.signal);
  }

  /**
   * Runs `handler` on every batch, up to `concurrency` partitions at once, each partition's batches in order
   * (src/consumer/concurrent.ts). A batch counts as processed when its handler returned; a revoke waits for the
   * revoked partitions' running handlers before it commits them, and `close()` waits for every running handler
   * before it commits (up to `revokeTimeoutMs`). Aborting `signal` or closing stops each partition at its next
   * batch boundary: batches not started are neither processed nor committed, and are read again. Resolves then,
   * once the running handlers returned; rejects with a handler's error unless `onError` takes it. A slow
   * partition holds back only its own fetching. Takes the consumer's records like `batches()`: one loop at a time.
   */
  processBatches(handler: BatchHandler, options: ProcessBatchesOptions = {}): Promise<void> {
    return processBatches(this.parts.delivery, this.parts.positions, handler, options);
  }

  seek(partition: TopicPartition, target: SeekTarget): void {
    this.parts.control.seek(partition, target);
  }

  seekToBeginning(partitions: readonly TopicPartition[] = this.assignment()): void {
    this.parts.control.seekToBeginning(partitions);
  }

  seekToEnd(partitions: readonly TopicPartition[] = this.assignment()): void {
    this.parts.control.seekToEnd(partitions);
  }

  /** The offset of the next record this consumer will hand out for the partition. */
  position(partition: TopicPartition, options: WaitOptions = {}): Promise<bigint> {
    return this.parts.control.position(partition, options.signal);
  }

  pause(partitions: readonly TopicPartition[]): void {
    this.parts.control.pause(partitions);
  }

  resume(partitions: readonly TopicPartition[]): void {
    this.parts.control.resume(partitions);
  }

  paused(): TopicPartition[] {
    return this.parts.control.paused();
  }

  /** The offsets stored for the partitions (from the offset store); offset null where none is stored. */
  async committed(partitions: readonly TopicPartition[], options: WaitOptions = {}): Promise<CommittedOffset[]> {
    const { store } = this.parts;
    if (this.groupId === undefined || store === undefined)
      throw new ConfigError('groupId', 'committed offsets need a group id');
    const loaded = await abortable(store.load(this.groupId, partitions), options.signal);
    return partitions.map(({ topic, partition }) => {
      const s = loaded.get(topic)?.get(partition);
      return {
        topic,
        partition,
        offset: s?.offset ?? null,
        leaderEpoch: s?.leaderEpoch ?? null,
        metadata: s?.metadata ?? null,
      };
    });
  }

  /** Marks `record` (and everything before it in its partition) processed before the loop body returns. */
  ack(record: ConsumerRecord): void {
    this.parts.positions.get(record.topic, record.partition)?.ackUpTo(record);
  }

  /**
   * Commits and waits: the processed offsets of every owned partition, or the given ones. Serialised with every other
   * commit of this consumer. Processed means: batches whose loop body returned, and records `ack()`ed; inside a loop
   * body, `batch.ack()` first to include the batch in hand. Aborting `signal` before the commit is sent drops it
   * (nothing is stored); once sent it cannot be called back: the call rejects at once and the outcome comes as a
   * `commit` or `commit-failed` event.
   */
  async commit(options: WaitOptions & { offsets?: readonly OffsetCommit[] } = {}): Promise<void> {
    this.checkOpen();
    const offsets = options.offsets ?? this.commits.processedOffsets();
    const explicit = options.offsets !== undefined;
    await this.commits.commit(offsets, 'manual', { wait: true, explicit, signal: options.signal });
  }

  /** Commits without waiting; failures (after retries) are reported as `commit-failed` events. */
  commitAsync(options: { offsets?: readonly OffsetCommit[] } = {}): void {
    this.checkOpen();
    const offsets = options.offsets ?? this.commits.processedOffsets();
    this.commits
      .commit(offsets, 'manual', { wait: false, explicit: options.offsets !== undefined })
      .catch((error: Error) => {
        this.emit('warning', { message: `commit not queued: ${error.message}`, error });
      });
  }

  metrics(): ConsumerMetrics {
    const { metrics, positions, fetcher, frames } = this.parts;
    return metrics.snapshot(
      positions,
      this.options.fetch.readCommitted,
      fetcher.buffer.buffered + fetcher.buffer.reserved,
      frames.stats,
    );
  }

  lag(): PartitionLag[] {
    return this.metrics().lag;
  }

  /**
   * Stops reading: commits what was processed (auto-commit), leaves the group, closes the fetch sessions. A
   * batch the application still holds is not processed and is not committed. `processBatches()` starts no new
   * batch; its running handlers are awaited (up to `revokeTimeoutMs`, or until `signal` aborts) and what they
   * finished is committed; a handler still running then is reported by a `warning` event and its batch is not
   * committed. An offset store the application gave stays open (it is the application's to close), but lets go
   * of the topics this consumer held. Rejects with the commit's error if that commit failed (after everything
   * else is closed).
   */
  close(options: WaitOptions = {}): Promise<void> {
    this.closing ??= this.shutdown(options.signal);
    return this.closing;
  }

  private async shutdown(signal: AbortSignal | undefined): Promise<void> {
    const { delivery, fetcher, store, ownsStore } = this.parts;
    clearInterval(this.autoCommitTimer);
    fetcher.buffer.notify();
    delivery.abandon();
    // processBatches' running handlers finish before the commit (no new batch starts once closing), bounded as a
    // revoke is: what is still running then is not committed, and said so.
    const { revokeTimeoutMs } = this.options;
    warnUnfinished(this.parts.listenerContext(), await delivery.awaitInFlight(revokeTimeoutMs, signal), 'close');
    // Partitions an assign() dropped are committed and let go first (their handlers were awaited just now).
    await abortable(this.manual.pending, signal).catch(() => {});
    let commitError: unknown;
    if (this.options.autoCommit) {
      const offsets = this.commits.processedOffsets();
      await abortable(this.commits.commit(offsets, 'close', { wait: true }), signal).catch((err: unknown) => {
        commitError = err;
      });
    }
    const membership = this.membership;
    if (membership !== undefined) {
      await abortable(membership.leave(), signal).catch((error: Error) => {
        this.emit('warning', { message: `leaving group ${this.groupId} failed: ${error.message}`, error });
      });
      this.membership = undefined;
    }
    await this.commits.flush();
    await fetcher.close();
    // An application's store stays open (it may serve other consumers), but lets go of what this one held.
    const held = [...this.parts.positions.topics()];
    for (const s of [...this.parts.positions.all()]) this.parts.positions.remove(s.topic, s.partition);
    await this.manual.release(held);
    if (ownsStore) await store?.close();
    if (commitError !== undefined) throw commitError;
  }

  private startAutoCommit(): void {
    if (!this.options.autoCommit || this.autoCommitTimer !== undefined) return;
    this.autoCommitTimer = setInterval(() => {
      const offsets = this.commits.processedOffsets();
      if (offsets.length > 0) this.commits.commit(offsets, 'auto', { wait: false }).catch(() => {});
    }, this.options.autoCommitIntervalMs);
    this.autoCommitTimer.unref();
  }

  private checkOpen(): void {
    if (this.closing !== undefined) throw new ConsumerClosedError();
  }
}
