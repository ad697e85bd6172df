/**
 * A consumer's manual assignment (`assign()`, and `unsubscribe()` without a group): which partitions it reads,
 * and how it lets go of the ones an assignment leaves out, as a group's revoke does (group-listener.ts): nothing
 * more of them is handed out, their running handlers are awaited (bounded, reported when given up), what was
 * processed of them is committed, then their states are dropped; all of that in the background. A partition
 * taken back before its drop finished gets a new state that waits (`reclaiming`) for the earlier state's
 * handlers and then goes on from what they processed, so nothing is read twice or skipped; dropped again
 * before that, its drop commits what they processed.
 */
import { partitionKey, type TopicPartition } from '../cluster/partition-errors.js';
import type { ConsumerParts } from './consumer-parts.js';
import { awaitHandlers, releaseUnheld, settledWithin } from './group-listener.js';
import type { PartitionState } from './positions.js';

export class ManualAssignment {
  /** Settles once the partitions the assignments so far dropped are committed and let go. */
  private unassigned: Promise<void> = Promise.resolve();
  /** A partition's state taken back while revoking -> its earlier state, until it took over from that one. */
  private readonly takenFrom = new WeakMap<PartitionState, PartitionState>();
  /** Ends the wait of a state that is taking over, when it is dropped first. */
  private readonly cancelTakeOver = new Map<PartitionState, () => void>();

  constructor(
    private readonly parts: ConsumerParts,
    private readonly groupId: string | undefined,
  ) {}

  /** What a close waits for before its own commit: the drops still pending. */
  get pending(): Promise<void> {
    return this.unassigned;
  }

  /**
   * Reads exactly `partitions` from now on; returns when the dropped ones are let go. `notInHand`: do not wait
   * for the batch the caller holds (unsubscribe() may be awaited inside the loop holding it).
   */
  assign(partitions: readonly TopicPartition[], notInHand: boolean): Promise<void> {
    const { positions, fetcher } = this.parts;
    const wanted = new Set(partitions.map((p) => partitionKey(p.topic, p.partition)));
    const dropped = [...positions.all()].filter((s) => !wanted.has(s.key) && s.phase !== 'revoking');
    for (const s of dropped) {
      fetcher.revoke(s);
      // Dropped before it took over: its drop commits what its earlier states processed (see unassign).
      this.cancelTakeOver.get(s)?.();
    }
    const unassigning = this.unassign(dropped, notInHand);
    const takingOver: Promise<void>[] = [];
    for (const p of partitions) {
      const previous = positions.get(p.topic, p.partition);
      if (previous?.phase !== 'revoking') {
        positions.add(p.topic, p.partition);
        continue;
      }
      // Back before its drop finished: the new state goes on from what the previous one's handlers processed.
      positions.remove(p.topic, p.partition);
      const state = positions.add(p.topic, p.partition);
      state.reclaim();
      this.takenFrom.set(state, previous);
      takingOver.push(this.takeOver(state));
    }
    fetcher.wake();
    const done = Promise.all([this.unassigned, unassigning, ...takingOver]).then(() => {});
    this.unassigned = done;
    return done;
  }

  /**
   * Hands a taken-back partition to its new state once the handlers of its earlier states settled (bounded as
   * their drop is, which reports one given up), unless the application moved it meanwhile (a seek, a reset,
   * another drop). The newest earlier state with a processed mark says where to go on: a state taken back again
   * before it took over processed nothing itself.
   */
  private async takeOver(state: PartitionState): Promise<void> {
    const { delivery, fetcher, options } = this.parts;
    const { revokeTimeoutMs } = options;
    const cancelled = new Promise<void>((resolve) => this.cancelTakeOver.set(state, resolve));
    await settledWithin({ delivery, revokeTimeoutMs }, (s) => s.key === state.key && s !== state, cancelled);
    this.cancelTakeOver.delete(state);
    // Dropped again: its drop takes the marks over instead (unassign).
    if (state.phase === 'revoking') return;
    const from = this.source(state);
    this.takenFrom.delete(state);
    if (state.phase !== 'reclaiming' || from === undefined) return;
    state.takeOver(from);
    fetcher.wake();
    fetcher.buffer.notify();
  }

  /** The newest earlier state of a taken-back partition with a processed mark (or the oldest, with none). */
  private source(state: PartitionState): PartitionState | undefined {
    let from = this.takenFrom.get(state);
    while (from?.processed() === undefined && from !== undefined && this.takenFrom.has(from))
      from = this.takenFrom.get(from);
    return from;
  }

  /** `states` and the earlier states they have not taken over from yet, whose handlers may still run. */
  private withEarlier(states: readonly PartitionState[]): Set<PartitionState> {
    const out = new Set<PartitionState>();
    for (const s of states) {
      out.add(s);
      for (let from = this.takenFrom.get(s); from !== undefined; from = this.takenFrom.get(from)) out.add(from);
    }
    return out;
  }

  private async unassign(dropped: readonly PartitionState[], notInHand: boolean): Promise<void> {
    if (dropped.length === 0) return;
    const { positions, delivery, commits } = this.parts;
    const leaving = new Set(dropped);
    const inHand = notInHand ? delivery.inHand?.state : undefined;
    // A state dropped before it took over waits for its earlier states' handlers, and commits what they processed.
    const holding = this.withEarlier(dropped);
    await awaitHandlers(this.parts.listenerContext(), (s) => holding.has(s) && s !== inHand, 'assign()');
    for (const s of dropped) {
      const from = this.source(s);
      this.takenFrom.delete(s);
      // A seek made while it waited is the application's own mark: it stands.
      if (from !== undefined && s.processed() === undefined) s.inheritMarks(from);
    }
    this.commitProcessed((s) => leaving.has(s));
    await commits.flush();
    for (const s of dropped) if (positions.get(s.topic, s.partition) === s) positions.remove(s.topic, s.partition);
    await this.release(dropped.map((s) => s.topic));
  }

  /** Queues (auto-commit) the processed offsets of these partitions; a failure is reported as a commit-failed event. */
  private commitProcessed(filter: (s: PartitionState) => boolean): void {
    const { options, commits } = this.parts;
    if (!options.autoCommit) return;
    commits.commit(commits.processedOffsets(filter), 'unassign', { wait: false }).catch(() => {});
  }

  /** Lets the offset store release the topics this consumer no longer reads (a file store's locks). */
  release(topics: readonly string[]): Promise<void> {
    const { store, positions, emit } = this.parts;
    if (this.groupId === undefined || topics.length === 0) return Promise.resolve();
    return releaseUnheld({ store, groupId: this.groupId, positions, emit }, topics);
  }
}
