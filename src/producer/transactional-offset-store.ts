import { TidemarkError } from '../../codecs/errors.js';
import type { TopicPartition } from '../cluster/partition-errors.js';
import { applyCommit, type GroupOffsets } from '../offsets/commit-rules.js';
import { OffsetStoreClosedError } from '../offsets/errors.js';
import type { CommitOptions, LoadedOffsets, OffsetCommit, OffsetStore, StoredOffset } from '../offsets/offset-store.js';
import type { Producer } from './producer.js';

/**
 * A commit of this store failed and its transaction was aborted: the records produced since the last commit
 * are gone, but the consumer has moved past their inputs. Every later commit is refused with this error until
 * the consumer starts over from the committed offsets (a new consumer, which calls `load()` again).
 */
export class TransactionalCommitAbortedError extends TidemarkError {
  override name = 'TransactionalCommitAbortedError';

  constructor(cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`the transaction was aborted (${why}); restart the consumer from its committed offsets`, { cause });
  }
}

/**
 * Consume-transform-produce exactly once (KIP-98, KIP-447): the consumer's OffsetStore is the producer's
 * transaction. The application sends its output records through the transactional producer between commits;
 * when the consumer commits (`consumer.commit()`, auto-commit, on revoke or close), the commit engine calls
 * `commit()`, which adds the offsets to the open transaction (TxnOffsetCommit, fenced by the member's
 * generation) and commits it, so the outputs and the input offsets become visible together or not at all;
 * then it opens the next transaction. `load()` reads the committed offsets from the broker through `loader`
 * (a BrokerOffsetStore, which waits for pending transactional commits).
 *
 * The commit engine's rules stay in force: only processed (acknowledged) offsets reach `commit()`, the
 * generation of the commit is the one sent with the offsets, and this store refuses offsets below those it
 * knows (BackwardCommitError) unless the user seeked. See docs/transactions.md for the recipe.
 */
export class TransactionalOffsetStore implements OffsetStore {
  private readonly known = new Map<string, GroupOffsets>();
  private poisoned: TransactionalCommitAbortedError | undefined;
  private closed = false;

  /** `producer` must be transactional and initialised (`await producer.initTransactions()`). */
  constructor(
    private readonly producer: Producer,
    private readonly loader: OffsetStore,
  ) {
    if (producer.options.transactionalId === undefined) {
      throw new TidemarkError('TransactionalOffsetStore needs a producer with a transactionalId');
    }
  }

  /** Opens a transaction if none is open, so the application's sends have one to go into. */
  ensureTransaction(): void {
    if (this.producer.transactionState === 'ready') this.producer.beginTransaction();
  }

  async load(group: string, partitions: readonly TopicPartition[]): Promise<LoadedOffsets> {
    this.assertOpen();
    const loaded = await this.loader.load(group, partitions);
    const offsets = this.offsetsOf(group);
    for (const [topic, byPartition] of loaded) {
      for (const [partition, stored] of byPartition) {
        if (stored === undefined) continue;
        entryOf(offsets, topic).set(partition, stored);
      }
    }
    this.ensureTransaction();
    return loaded;
  }

  async commit(group: string, offsets: readonly OffsetCommit[], options?: CommitOptions): Promise<void> {
    this.assertOpen();
    if (this.poisoned !== undefined) throw this.poisoned;
    const current = this.offsetsOf(group);
    const empty: ReadonlyMap<number, StoredOffset> = new Map();
    // Throws BackwardCommitError (nothing sent) for offsets below the known ones, unless the user seeked.
    const next = applyCommit(group, (topic) => current.get(topic) ?? empty, offsets, options, Date.now());
    const generation = options?.generation;
    this.ensureTransaction();
    try {
      await this.producer.sendOffsetsToTransaction(offsets, {
        groupId: group,
        memberId: generation?.memberId ?? '',
        generationId: generation?.generationId ?? -1,
        groupInstanceId: generation?.groupInstanceId ?? null,
      });
      await this.producer.commitTransaction();
    } catch (err) {
      // Fatal (fenced): the producer says so on every call. Otherwise abort, and refuse to go on from here.
      if (this.producer.transactionState === 'abortableError' || this.producer.transactionState === 'inTransaction') {
        await this.producer.abortTransaction().catch(() => {});
      }
      this.poisoned = new TransactionalCommitAbortedError(err);
      throw this.poisoned;
    }
    for (const [topic, byPartition] of next) {
      const t = entryOf(current, topic);
      for (const [partition, stored] of byPartition) t.set(partition, stored);
    }
    this.ensureTransaction();
  }

  /** Leaves the producer to its owner (who closes it); an open transaction with nothing committed is dropped. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.loader.close();
  }

  private offsetsOf(group: string): GroupOffsets {
    return entryOf(this.known, group);
  }

  private assertOpen(): void {
    if (this.closed) throw new OffsetStoreClosedError();
  }
}

function entryOf<K, V extends Map<unknown, unknown>>(map: Map<K, V>, key: K): V {
  let value = map.get(key);
  if (value === undefined) {
    value = new Map() as V;
    map.set(key, value);
  }
  return value;
}
