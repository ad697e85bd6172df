/**
 * A consumer's manual assignment (`assign()`, and `unsubscribe()` without a group): which partitions it reads,
 * and how it lets go of the ones an assignment leaves out, as a group's revoke does (group-listener.ts): nothing
 * more of them is handed out, their running handlers are awaited (bounded, reported when given up), what was
 * processed of them is committed, then their states are dropped; all of that in the background.
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
    for (const s of dropped) fetcher.revoke(s);
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
    await settledWithin({ delivery, revokeTimeoutMs }, (s) => s.key === state.key && s !== state);
    if (state.phase === 'revoking') return;
    let from = this.takenFrom.get(state);
    this.takenFrom.delete(state);
    if (state.phase !== 'reclaiming' || from === undefined) return;
    while (from.processed() === undefined && this.takenFrom.has(from)) from = this.takenFrom.get(from)!;
    state.takeOver(from);
    fetcher.wake();
    fetcher.buffer.notify();
  }

  private async unassign(dropped: readonly PartitionState[], notInHand: boolean): Promise<void> {
    if (dropped.length === 0) return;
    const { positions, delivery, commits } = this.parts;
    const leaving = new Set(dropped);
    const inHand = notInHand ? delivery.inHand?.state : undefined;
    await awaitHandlers(this.parts.listenerContext(), (s) => leaving.has(s) && s !== inHand, 'assign()');
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
