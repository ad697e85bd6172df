import type { ConsumerGroupMetadata } from '../group-metadata.js';
import type { CommitOptions, OffsetCommit, OffsetStore } from '../offset-store.js';

/** A mirrored commit that did not reach the mirror; the local file is unaffected (it was written first). */
export interface MirrorFailure {
  group: string;
  offsets: OffsetCommit[];
  error: Error;
}

/** What a mirror does with a group's commits that were durable locally but not yet sent. */
interface PendingMirror {
  /** topic\0partition → the latest commit of that partition, in file-commit order. */
  offsets: Map<string, OffsetCommit>;
  allowBackward: boolean;
  generation: ConsumerGroupMetadata | undefined;
}

/**
 * Copies commits that are already durable in the local store to a second store (typically the broker's
 * `__consumer_offsets`, through BrokerOffsetStore), so `kafka-consumer-groups --describe` and tidemark's admin
 * show the group's position and lag. The local file stays the source of truth; the copy is best effort:
 *
 * - never blocking: `push` returns at once; the local commit has already resolved or resolves without waiting;
 * - never reordering: per group, one mirror call is in flight; commits that arrive meanwhile are merged
 *   (a later commit of a partition replaces an earlier one, which is the file's own order), and sent together
 *   after it, so an older value can never land after a newer one;
 * - failures are reported (`onFailure`) and dropped, not retried: the next commit carries newer offsets.
 */
export class OffsetMirror {
  private readonly pending = new Map<string, PendingMirror>();
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    readonly target: OffsetStore,
    private readonly onFailure: (failure: MirrorFailure) => void,
  ) {}

  /** Queues `offsets` (durable locally) for the mirror. */
  push(group: string, offsets: readonly OffsetCommit[], options: CommitOptions | undefined): void {
    let pending = this.pending.get(group);
    if (pending === undefined) {
      pending = { offsets: new Map(), allowBackward: false, generation: undefined };
      this.pending.set(group, pending);
    }
    for (const o of offsets) pending.offsets.set(`${o.topic}\0${o.partition}`, { ...o });
    // A merged batch may contain a seek's backward move; the latest generation is the one the broker accepts.
    pending.allowBackward ||= options?.allowBackward === true;
    if (options?.generation !== undefined) pending.generation = options.generation;
    if (!this.running.has(group)) this.drain(group);
  }

  /** Resolves when every queued mirror call (of `group`, or of all) has been sent or has failed and been reported. */
  async flush(group?: string, timeoutMs?: number): Promise<void> {
    const all = async () => {
      if (group !== undefined) {
        while (this.running.has(group)) await this.running.get(group);
        return;
      }
      while (this.running.size > 0) await Promise.all([...this.running.values()]);
    };
    if (timeoutMs === undefined) return all();
    // Bounded: a mirror that hangs (broker down) must not hold up a rebalance; its failure is reported anyway.
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([all(), expired]).finally(() => clearTimeout(timer));
  }

  private drain(group: string): void {
    // Started on a later tick, so `running` holds it before it can end (and remove itself).
    this.running.set(
      group,
      Promise.resolve().then(() => this.send(group)),
    );
  }

  private async send(group: string): Promise<void> {
    for (;;) {
      const batch = this.pending.get(group);
      if (batch === undefined) {
        // Removed in the same tick as the last check, so a push after it starts a new drain.
        this.running.delete(group);
        return;
      }
      this.pending.delete(group);
      const offsets = [...batch.offsets.values()];
      const options: CommitOptions = { allowBackward: batch.allowBackward };
      if (batch.generation !== undefined) options.generation = batch.generation;
      try {
        await this.target.commit(group, offsets, options);
      } catch (err) {
        try {
          this.onFailure({ group, offsets, error: err instanceof Error ? err : new Error(String(err)) });
        } catch {
          // A listener's bug must not stop the mirror.
        }
      }
    }
  }
}
