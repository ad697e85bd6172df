import { TidemarkError } from '../../codecs/errors.js';
import { backoffDelay } from '../cluster/backoff.js';
import { isRetriable } from '../cluster/deadline.js';
import {
  type IsolationLevel,
  type ListedOffset,
  type ListOffsetsContext,
  listOffsets,
} from '../cluster/list-offsets.js';
import { checkTruncation, type TruncationCheck } from '../cluster/offset-for-leader-epoch.js';
import type { OffsetStore } from '../offsets/offset-store.js';
import { type AutoOffsetReset, checkOffsetRanges, type OutOfRangePolicy } from '../offsets/range-check.js';
import { LogTruncationError, type TruncationSource } from './errors.js';
import type { EventSink } from './events.js';
import type { MetricsRecorder } from './metrics.js';
import type { PartitionState } from './positions.js';

export interface ResolverContext {
  offsets: ListOffsetsContext;
  store: OffsetStore | undefined;
  groupId: string | undefined;
  autoOffsetReset: AutoOffsetReset;
  outOfRange: OutOfRangePolicy;
  isolationLevel: IsolationLevel;
  emit: EventSink;
  metrics: MetricsRecorder;
  /** A partition's phase changed: fetch it, or report its error. */
  onChange(): void;
  signal: AbortSignal;
}

const RESOLVE_BACKOFF = { initialMs: 200, maxMs: 2_000 };

/**
 * Gives partitions a valid position: the stored offset (checked against the leader's epochs, KIP-320, and
 * against the log's range, docs/ARCHITECTURE.md, "The offset contract"), a reset by policy when there is none or it is
 * out of range, and validation after a leader change. Every move it makes on its own is reported as an event
 * naming what was skipped or re-read. Work is batched per phase and runs beside the fetch loop; a seek while a
 * lookup is out makes its answer void (the partition's generation moved on).
 */
export class PositionResolver {
  private readonly busy = new Set<PartitionState>();
  private failures = 0;

  constructor(private readonly ctx: ResolverContext) {}

  isBusy(state: PartitionState): boolean {
    return this.busy.has(state);
  }

  /** Starts the lookups `states` need (each in the initializing, resetting or validating phase). */
  run(states: readonly PartitionState[]): void {
    const byPhase = new Map<string, PartitionState[]>();
    for (const s of states) {
      if (this.busy.has(s)) continue;
      const list = byPhase.get(s.phase) ?? [];
      list.push(s);
      byPhase.set(s.phase, list);
    }
    const jobs: [string, (s: PartitionState[], g: Map<PartitionState, number>) => Promise<void>][] = [
      ['initializing', (s, g) => this.initialize(s, g)],
      ['resetting', (s, g) => this.reset(s, g)],
      ['validating', (s, g) => this.validate(s, g)],
    ];
    for (const [phase, job] of jobs) {
      const list = byPhase.get(phase);
      if (list !== undefined) this.launch(list, job);
    }
  }

  /**
   * The log no longer has the position (KIP-320): move to where it still agrees with what was read and say
   * so, or, with auto offset reset `none`, stop the partition with LogTruncationError.
   */
  truncated(s: PartitionState, check: TruncationCheck, detectedBy: TruncationSource): void {
    const position = { offset: s.position, leaderEpoch: s.positionEpoch };
    const valid = check.validPosition;
    const groupId = this.ctx.groupId;
    if (this.ctx.autoOffsetReset === 'none') {
      s.fail(new LogTruncationError(s.topic, s.partition, position, valid?.offset, detectedBy));
      return;
    }
    this.ctx.metrics.resets++;
    if (valid === undefined || check.status === 'unknown-epoch') {
      // No epoch in common with the leader: nothing to resume from, so reset by policy like a missing offset.
      const { topic, partition } = s;
      this.ctx.emit('truncation', {
        groupId,
        topic,
        partition,
        position,
        resumedAt: undefined,
        reread: undefined,
        detectedBy,
      });
      s.awaitReset(this.ctx.autoOffsetReset);
      return;
    }
    const reread = valid.offset < s.position ? { from: valid.offset, to: s.position } : undefined;
    this.ctx.emit('truncation', {
      groupId,
      topic: s.topic,
      partition: s.partition,
      position,
      resumedAt: valid,
      reread,
      detectedBy,
    });
    s.moveTo(valid.offset, valid.leaderEpoch);
    s.markProcessed(valid.offset, valid.leaderEpoch);
    s.allowBackward = true;
  }

  private launch(
    states: PartitionState[],
    job: (states: PartitionState[], generations: Map<PartitionState, number>) => Promise<void>,
  ): void {
    const generations = new Map(states.map((s) => [s, s.generation]));
    for (const s of states) this.busy.add(s);
    job(states, generations)
      .then(
        () => {
          this.failures = 0;
        },
        (err: unknown) => this.failed(states, generations, err),
      )
      .finally(() => {
        for (const s of states) this.busy.delete(s);
        this.ctx.onChange();
      });
  }

  private async initialize(states: PartitionState[], gens: Map<PartitionState, number>): Promise<void> {
    const { store, groupId } = this.ctx;
    const loaded = store !== undefined && groupId !== undefined ? await store.load(groupId, states) : undefined;
    const plain: { s: PartitionState; stored: bigint | undefined; epoch: number }[] = [];
    const withEpoch: PartitionState[] = [];
    for (const s of states) {
      if (s.generation !== gens.get(s)) continue;
      const stored = loaded?.get(s.topic)?.get(s.partition);
      if (stored === undefined) {
        plain.push({ s, stored: undefined, epoch: -1 });
        continue;
      }
      s.committed = stored.offset;
      s.committedEpoch = stored.leaderEpoch ?? -1;
      // The position to validate is the stored one; set it now so truncation reports name it.
      s.position = stored.offset;
      s.positionEpoch = s.committedEpoch;
      if (s.committedEpoch >= 0) withEpoch.push(s);
      else plain.push({ s, stored: stored.offset, epoch: -1 });
    }
    if (withEpoch.length > 0) {
      const checks = await this.checkPositions(withEpoch);
      withEpoch.forEach((s, i) => {
        if (s.generation !== gens.get(s)) return;
        const check = checks[i];
        if (check.truncated) this.truncated(s, check, 'offset-for-leader-epoch');
        else plain.push({ s, stored: s.position, epoch: s.positionEpoch });
      });
    }
    await this.rangeCheck(plain, gens);
  }

  private async reset(states: PartitionState[], gens: Map<PartitionState, number>): Promise<void> {
    const explicit = states.filter((s) => s.resetTo !== undefined);
    const corrections = states.filter((s) => s.resetTo === undefined);
    if (explicit.length > 0) {
      const [earliest, latest] = await this.logRanges(explicit);
      explicit.forEach((s, i) => {
        if (s.generation !== gens.get(s)) return;
        const listed = s.resetTo === 'earliest' ? earliest[i] : latest[i];
        s.moveTo(listed.offset, listed.leaderEpoch);
        s.markProcessed(listed.offset, listed.leaderEpoch);
        s.allowBackward = true;
      });
    }
    await this.rangeCheck(
      corrections.map((s) => ({ s, stored: s.position, epoch: s.positionEpoch })),
      gens,
    );
  }

  private async validate(states: PartitionState[], gens: Map<PartitionState, number>): Promise<void> {
    const checks = await this.checkPositions(states);
    states.forEach((s, i) => {
      if (s.generation !== gens.get(s)) return;
      if (checks[i].truncated) this.truncated(s, checks[i], 'offset-for-leader-epoch');
      else s.confirm();
    });
  }

  private checkPositions(states: PartitionState[]): Promise<TruncationCheck[]> {
    return checkTruncation(
      this.ctx.offsets,
      states.map((s) => ({ topic: s.topic, partition: s.partition, offset: s.position, leaderEpoch: s.positionEpoch })),
      { signal: this.ctx.signal },
    );
  }

  /** Stored (or current) positions against the log's range; outside it, the policy decides, and an event says. */
  private async rangeCheck(
    entries: { s: PartitionState; stored: bigint | undefined; epoch: number }[],
    gens: Map<PartitionState, number>,
  ): Promise<void> {
    if (entries.length === 0) return;
    const [earliest, latest] = await this.logRanges(entries.map((e) => e.s));
    entries.forEach(({ s, stored, epoch }, i) => {
      if (s.generation !== gens.get(s)) return;
      const range = {
        topic: s.topic,
        partition: s.partition,
        stored,
        earliest: earliest[i].offset,
        latest: latest[i].offset,
      };
      let result: ReturnType<typeof checkOffsetRanges>;
      try {
        result = checkOffsetRanges([range], {
          outOfRange: this.ctx.outOfRange,
          autoOffsetReset: this.ctx.autoOffsetReset,
        });
      } catch (err) {
        s.fail(err as Error);
        return;
      }
      const [position] = result.positions;
      if (position.source === 'stored') {
        // Still in range (or no longer out of range): go on from it, dropping only what was fetched ahead.
        if (s.phase === 'resetting' && s.position === position.offset) {
          s.confirm();
          return;
        }
        s.moveTo(position.offset, epoch);
        s.markProcessed(position.offset, epoch);
        return;
      }
      const listed = position.offset === earliest[i].offset ? earliest[i] : latest[i];
      s.moveTo(position.offset, listed.leaderEpoch);
      s.markProcessed(position.offset, listed.leaderEpoch);
      s.allowBackward = true;
      this.ctx.metrics.resets++;
      for (const event of result.events) this.ctx.emit('offset-reset', { ...event, groupId: this.ctx.groupId });
    });
  }

  /** The earliest and latest offsets of each partition, in order. */
  private async logRanges(states: PartitionState[]): Promise<[ListedOffset[], ListedOffset[]]> {
    const queries = states.flatMap((s) => [
      { topic: s.topic, partition: s.partition, spec: 'earliest' as const },
      { topic: s.topic, partition: s.partition, spec: 'latest' as const },
    ]);
    const listed = await listOffsets(this.ctx.offsets, queries, {
      isolationLevel: this.ctx.isolationLevel,
      signal: this.ctx.signal,
    });
    return [listed.filter((_, i) => i % 2 === 0), listed.filter((_, i) => i % 2 === 1)];
  }

  private failed(states: PartitionState[], gens: Map<PartitionState, number>, err: unknown): void {
    if (this.ctx.signal.aborted) return;
    const error = err instanceof Error ? err : new TidemarkError(String(err));
    if (isRetriable(err)) {
      this.failures++;
      const retryAt = Date.now() + backoffDelay(this.failures, RESOLVE_BACKOFF);
      for (const s of states) if (s.generation === gens.get(s)) s.retryAt = retryAt;
      this.ctx.emit('warning', { message: `looking up positions failed; retrying: ${error.message}`, error });
      return;
    }
    for (const s of states) if (s.generation === gens.get(s)) s.fail(error);
  }
}
