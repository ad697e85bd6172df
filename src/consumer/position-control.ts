import type { TopicPartition } from '../cluster/partition-errors.js';
import { PartitionNotAssignedError } from './errors.js';
import type { Fetcher } from './fetch/fetcher.js';
import type { PartitionState, Positions, ResetStrategy } from './positions.js';

/** A target for `seek`: an offset, or an offset with the leader epoch of the record before it (validated, KIP-320). */
export type SeekTarget = bigint | { offset: bigint; leaderEpoch?: number };

/**
 * The application's hand on positions: seek, seekToBeginning/End, pause, resume and position, with the
 * Java consumer's meanings. Every move voids what was fetched ahead for the partition; what the application
 * asks for is also what counts as processed (so a commit after a seek stores where it sought, as Java's does).
 */
export class PositionControl {
  constructor(
    private readonly positions: Positions,
    private readonly fetcher: Fetcher,
  ) {}

  seek(tp: TopicPartition, target: SeekTarget): void {
    const s = this.owned(tp);
    const { offset, leaderEpoch } = typeof target === 'bigint' ? { offset: target, leaderEpoch: undefined } : target;
    if (typeof offset !== 'bigint' || offset < 0n) {
      throw new RangeError(`seek offset for ${tp.topic}-${tp.partition} must be a bigint >= 0, got ${String(offset)}`);
    }
    const epoch = leaderEpoch ?? -1;
    this.fetcher.dropBuffered(s);
    s.seek(offset, epoch);
    s.markProcessed(offset, epoch);
    s.allowBackward = true;
    this.changed();
  }

  seekToBeginning(tps: readonly TopicPartition[]): void {
    this.reset(tps, 'earliest');
  }

  seekToEnd(tps: readonly TopicPartition[]): void {
    this.reset(tps, 'latest');
  }

  pause(tps: readonly TopicPartition[]): void {
    for (const tp of tps) {
      const s = this.owned(tp);
      // Fetched-ahead data of a paused partition would hold buffer room others need: drop it, fetch it again later.
      if (s.pause()) this.fetcher.dropBuffered(s);
    }
  }

  resume(tps: readonly TopicPartition[]): void {
    for (const tp of tps) this.owned(tp).resume();
    this.changed();
  }

  paused(): TopicPartition[] {
    const out: TopicPartition[] = [];
    for (const s of this.positions.all()) {
      if (s.paused && s.phase !== 'revoking') out.push({ topic: s.topic, partition: s.partition });
    }
    return out;
  }

  /**
   * The offset of the next record the application will get. Waits while the position is being looked up
   * (after assignment, seekToBeginning/End, a reset); throws the partition's error if it stopped on one.
   */
  async position(tp: TopicPartition, signal?: AbortSignal): Promise<bigint> {
    for (;;) {
      const s = this.owned(tp);
      if (s.phase === 'fetching') return s.position;
      if (s.phase === 'failed' && s.error !== undefined) throw s.error;
      this.fetcher.wake();
      await this.fetcher.buffer.wait(signal);
    }
  }

  private reset(tps: readonly TopicPartition[], to: ResetStrategy): void {
    for (const tp of tps) {
      const s = this.owned(tp);
      this.fetcher.dropBuffered(s);
      s.requestReset(to);
    }
    this.changed();
  }

  private owned(tp: TopicPartition): PartitionState {
    const s = this.positions.get(tp.topic, tp.partition);
    if (s === undefined || s.phase === 'revoking') throw new PartitionNotAssignedError(tp);
    return s;
  }

  private changed(): void {
    this.fetcher.wake();
    this.fetcher.buffer.notify();
  }
}
