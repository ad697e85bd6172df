import { TidemarkError } from '../../codecs/errors.js';
import { isKafkaError, type KafkaError } from '../../protocol/kafka-error.js';
import { backoffDelay, sleep } from '../cluster/backoff.js';
import { isRetriable } from '../cluster/deadline.js';
import { type BackwardCommit, BackwardCommitError } from '../offsets/errors.js';
import type { ConsumerGroupMetadata } from '../offsets/group-metadata.js';
import type { OffsetCommit, OffsetStore } from '../offsets/offset-store.js';
import { CommitFailedError, PartitionNotAssignedError } from './errors.js';
import type { CommitReason, EventSink } from './events.js';
import type { MetricsRecorder } from './metrics.js';
import type { PartitionState, Positions } from './positions.js';

interface Entry {
  state: PartitionState;
  offset: bigint;
  leaderEpoch: number;
  metadata: string | undefined;
}

interface Job {
  entries: Map<string, Entry>;
  reason: CommitReason;
  /** Callers awaiting this commit; a job nobody awaits is retried on retriable failures. */
  waiters: { resolve: () => void; reject: (err: unknown) => void }[];
  attempts: number;
  /** Explicit offsets from the application: a backward one is refused loudly, not skipped. */
  explicit: boolean;
  /** Why the last attempt failed, when it is being retried. */
  lastError?: unknown;
  /** The caller's abort signal: a job that has one is never merged with another, so it can be dropped alone. */
  signal?: AbortSignal;
  /** Called once the job has left the queue (done, failed or given up). */
  done?: () => void;
}

export interface CommitEngineOptions {
  store: OffsetStore | undefined;
  groupId: string | undefined;
  positions: Positions;
  /** The member's current generation / member epoch, read when each commit is sent; undefined without a group. */
  generation(): ConsumerGroupMetadata | undefined;
  /**
   * The coordinator refused a member's commit for a group reason (the member was removed, its generation or
   * epoch is stale, the group is rebalancing). `sentUnder` is the generation the commit carried: the
   * membership resets only if it still holds that generation, as Java's OffsetCommitResponseHandler does.
   */
  onRefused(error: KafkaError, sentUnder: ConsumerGroupMetadata): void;
  metadata: string | undefined;
  /** Retries of a failed asynchronous commit before it is reported as failed. */
  retries: number;
  emit: EventSink;
  metrics: MetricsRecorder;
  signal: AbortSignal;
}

/**
 * Codes meaning "this member's view of the group is out of date": the membership hears of them, and the
 * commit is not retried, except a revoke's (or close's) commit refused with STALE_MEMBER_EPOCH (KIP-848): the
 * partitions stay this member's until it acknowledges their revocation, so that commit is sent again under
 * the newer epoch, as Java's CommitRequestManager does with its auto-commit before revocation. Any other
 * commit is reported: the member may have lost its partitions with that epoch.
 */
const FENCED = new Set([
  'ILLEGAL_GENERATION',
  'UNKNOWN_MEMBER_ID',
  'FENCED_MEMBER_EPOCH',
  'STALE_MEMBER_EPOCH',
  'FENCED_INSTANCE_ID',
  'REBALANCE_IN_PROGRESS',
]);
const RETRY_BACKOFF = { initialMs: 100, maxMs: 2_000 };

/**
 * The commit side of the offset contract (docs/ARCHITECTURE.md, "The commit path"). Commits store processed offsets,
 * never fetched ones; one commit runs at a time per group, in the order asked; an offset below what was committed is
 * stored only after the application sought backwards; a partition is committed only while this incarnation of its
 * assignment owns it; every commit carries the generation current when it is sent. A failed asynchronous commit is
 * retried before anything queued behind it, so it can never land after (and overwrite) a newer one; and a newer
 * commit of the same partition that is already queued takes the older one's place.
 */
export class CommitEngine {
  private readonly queue: Job[] = [];
  private running = false;
  private idle: (() => void)[] = [];

  constructor(private readonly o: CommitEngineOptions) {}

  /** Processed offsets of owned partitions not yet committed (optionally only those `filter` keeps). */
  processedOffsets(filter?: (state: PartitionState) => boolean): OffsetCommit[] {
    const out: OffsetCommit[] = [];
    for (const s of this.o.positions.all()) {
      if (filter !== undefined && !filter(s)) continue;
      const p = s.processed();
      if (p === undefined || p.offset === s.committed) continue;
      out.push({ topic: s.topic, partition: s.partition, offset: p.offset, leaderEpoch: p.leaderEpoch });
    }
    return out;
  }

  /**
   * Queues a commit; resolves once it is stored (when awaited), or reports failures as events (when not).
   * Offsets must name owned partitions.
   */
  commit(
    offsets: readonly OffsetCommit[],
    reason: CommitReason,
    options: { wait: boolean; explicit?: boolean; signal?: AbortSignal },
  ): Promise<void> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const { groupId, store } = this.o;
    if (groupId === undefined || store === undefined) {
      return Promise.reject(
        new TidemarkError('committing offsets needs a group id (or an offset store and a group id)'),
      );
    }
    const entries = new Map<string, Entry>();
    for (const o of offsets) {
      const state = this.o.positions.get(o.topic, o.partition);
      if (state === undefined) return Promise.reject(new PartitionNotAssignedError(o));
      entries.set(state.key, {
        state,
        offset: o.offset,
        leaderEpoch: o.leaderEpoch ?? -1,
        metadata: o.metadata ?? this.o.metadata,
      });
    }
    if (entries.size === 0) return this.flush();
    const explicit = options.explicit === true;
    // Merge into a queued job that has not started: one commit instead of two, later offsets winning.
    const last = this.queue.length > (this.running ? 1 : 0) ? this.queue[this.queue.length - 1] : undefined;
    let job: Job;
    if (last !== undefined && last.explicit === explicit && last.signal === undefined && signal === undefined) {
      for (const [key, e] of entries) last.entries.set(key, e);
      job = last;
    } else {
      job = { entries, reason, waiters: [], attempts: 0, explicit, signal };
      this.queue.push(job);
    }
    const done = new Promise<void>((resolve, reject) => {
      if (options.wait) job.waiters.push({ resolve, reject });
      else resolve();
    });
    if (signal !== undefined) this.dropOnAbort(job, signal);
    void this.drain();
    return done;
  }

  /**
   * An aborted commit that has not been sent is taken out of the queue, so it can never be sent after its
   * caller was told it failed (the rule src/cluster/deadline.ts keeps for requests). One already sent cannot
   * be called back: its caller is told of the abort now, and its real outcome comes as a `commit` or
   * `commit-failed` event.
   */
  private dropOnAbort(job: Job, signal: AbortSignal): void {
    const onAbort = () => {
      const index = this.queue.indexOf(job);
      const sent = index === 0 && this.running;
      if (index >= 0 && !sent) this.queue.splice(index, 1);
      const waiters = job.waiters;
      job.waiters = [];
      for (const w of waiters) w.reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const settled = () => signal.removeEventListener('abort', onAbort);
    // Listens until the job leaves the queue, whichever way.
    job.done = settled;
  }

  /** Resolves when every commit queued so far has settled. */
  flush(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const job = this.queue[0];
        const retry = await this.runJob(job);
        if (retry) continue;
        this.queue.shift();
        job.done?.();
      }
    } finally {
      this.running = false;
      const idle = this.idle;
      this.idle = [];
      for (const resolve of idle) resolve();
    }
  }

  /** Runs one job; returns true when it should run again (a retriable failure of an unawaited commit). */
  private async runJob(job: Job): Promise<boolean> {
    const { entries, backward, disowned } = this.sendable(job);
    const settle = (err?: unknown) => {
      for (const w of job.waiters) err === undefined ? w.resolve() : w.reject(err);
    };
    if (backward.length > 0 && job.explicit) {
      settle(new BackwardCommitError(this.o.groupId!, backward));
      return false;
    }
    if (entries.length === 0) {
      // A retry whose partitions were lost meanwhile stored nothing: its callers hear why.
      settle(disowned ? job.lastError : undefined);
      return false;
    }
    const offsets = entries.map((e) => ({
      topic: e.state.topic,
      partition: e.state.partition,
      offset: e.offset,
      leaderEpoch: e.leaderEpoch,
      metadata: e.metadata,
    }));
    const started = performance.now();
    let sentUnder: ConsumerGroupMetadata | undefined;
    try {
      // Read once, when sent: the answer is judged against the generation the commit carried.
      sentUnder = this.o.generation();
      await this.o.store!.commit(this.o.groupId!, offsets, {
        allowBackward: entries.some((e) => e.state.allowBackward),
        generation: sentUnder,
      });
    } catch (err) {
      return this.failed(job, offsets, err, settle, sentUnder);
    }
    const latencyMs = performance.now() - started;
    for (const e of entries) {
      e.state.committed = e.offset;
      e.state.committedEpoch = e.leaderEpoch;
      e.state.allowBackward = false;
    }
    this.o.metrics.commits++;
    this.o.metrics.commitLatency.add(latencyMs);
    this.o.emit('commit', {
      groupId: this.o.groupId!,
      offsets: offsets.map(({ metadata: _m, ...o }) => o),
      latencyMs,
      reason: job.reason,
    });
    settle();
    return false;
  }

  /** The job's entries that may go out now, and those refused for moving backwards. */
  private sendable(job: Job): { entries: Entry[]; backward: BackwardCommit[]; disowned: boolean } {
    const entries: Entry[] = [];
    const backward: BackwardCommit[] = [];
    let disowned = false;
    for (const e of job.entries.values()) {
      const { state } = e;
      // Owned means: still this incarnation of the assignment (a revoke and re-assign makes a new state).
      if (this.o.positions.get(state.topic, state.partition) !== state) {
        disowned = true;
        continue;
      }
      if (state.committed !== undefined && e.offset === state.committed && e.leaderEpoch === state.committedEpoch)
        continue;
      if (state.committed !== undefined && e.offset < state.committed && !state.allowBackward) {
        backward.push({ topic: state.topic, partition: state.partition, stored: state.committed, attempted: e.offset });
        continue;
      }
      entries.push(e);
    }
    return { entries, backward, disowned };
  }

  private async failed(
    job: Job,
    offsets: { topic: string; partition: number; offset: bigint }[],
    err: unknown,
    settle: (err?: unknown) => void,
    sentUnder: ConsumerGroupMetadata | undefined,
  ): Promise<boolean> {
    const error = err instanceof Error ? err : new TidemarkError(String(err));
    const fenced = isKafkaError(err) && FENCED.has(err.errorName);
    const staleEpoch =
      fenced && err.errorName === 'STALE_MEMBER_EPOCH' && (job.reason === 'revoke' || job.reason === 'close');
    const willRetry =
      (staleEpoch || (!fenced && job.waiters.length === 0 && isRetriable(err))) &&
      job.attempts < this.o.retries &&
      !this.o.signal.aborted;
    const reported = fenced ? new CommitFailedError(`${error.message}; the group has moved on`, { cause: err }) : error;
    const event = { groupId: this.o.groupId!, offsets, error: reported, reason: job.reason };
    // The typed error, with the generation it answers, so the membership's recovery can judge it.
    if (fenced && sentUnder !== undefined) this.o.onRefused(err, sentUnder);
    if (!willRetry) {
      this.o.metrics.commitFailures++;
      this.o.emit('commit-failed', { ...event, willRetry: false });
      settle(reported);
      return false;
    }
    job.attempts++;
    const retryInMs = backoffDelay(job.attempts, RETRY_BACKOFF);
    this.o.emit('commit-retry', { ...event, attempt: job.attempts, retryInMs });
    job.lastError = reported;
    // Whatever a newer queued commit also covers is left to it, so the retry never carries a stale offset.
    for (const later of this.queue.slice(1)) for (const key of later.entries.keys()) job.entries.delete(key);
    try {
      await sleep(retryInMs, this.o.signal);
    } catch {
      settle(reported);
      return false;
    }
    return true;
  }
}
