/**
 * A consumer's manual assignment (`assign()`, and `unsubscribe()` without a group): which partitions it reads,
 * and how it lets go of the ones an assignment leaves out, as a group's revoke does (group-listener.ts): nothing
 * more of them is handed out, their running handlers are awaited (bounded, reported when given up), what was
 * processed of them is committed, then their states are dropped; all of that in the background.
 */
import { partitionKey, type TopicPartition } from '../cluster/partition-errors.js';
import type { ConsumerParts } from './consumer-parts.js';
import { awaitHandlers, releaseUnheld } from './group-listener.js';
import type { PartitionState } from './positions.js';

export class ManualAssignment {
  /** Settles once the partitions the assignments so far dropped are committed and let go. */
  private unassigned: Promise<void> = Promise.resolve();

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
    const unassigning = Promise.all([this.unassigned, this.unassign(dropped, notInHand)]).then(() => {});
    for (const p of partitions) {
      const s = positions.get(p.topic, p.partition);
      if (s?.phase === 'revoking') {
        // Back before its drop finished: what was processed of it is queued now, as it goes for a fresh lookup.
        this.commitProcessed((x) => x === s);
        positions.remove(p.topic, p.partition);
      }
      positions.add(p.topic, p.partition);
    }
    fetcher.wake();
    this.unassigned = unassigning;
    return unassigning;
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
