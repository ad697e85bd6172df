import { promises as fs } from 'node:fs';
import type { TopicPartition } from '../../cluster/partition-errors.js';
import { applyCommit } from '../commit-rules.js';
import { CorruptOffsetFileError, type LockHolder, OffsetStoreClosedError } from '../errors.js';
import {
  type CommitOptions,
  emptyLoadResult,
  type LoadedOffsets,
  type OffsetCommit,
  type OffsetStore,
  type StoredOffset,
} from '../offset-store.js';
import type { OutOfRangePolicy } from '../range-check.js';
import { AtomicWriteError, removeLeftoverTemps, type WriteFaults, writeFileAtomic } from './atomic-write.js';
import { parseGtoffset, serializeGtoffset } from './gtoffset-format.js';
import { FileLock } from './lock.js';
import { OffsetMirror } from './offset-mirror.js';
import { type OffsetFilePaths, offsetFilePaths } from './path-encoding.js';

/** What the file store reports besides its answers: each is a decision the operator should know about. */
export type FileOffsetStoreEvent =
  /** gtoffset was corrupt or missing and its valid backup (the previous commit) was used instead. */
  | { type: 'backup-restored'; group: string; topic: string; file: string; backup: string; problem: string }
  /** A lock left by a dead or abandoned owner was removed and taken. */
  | {
      type: 'stale-lock-taken-over';
      group: string;
      topic: string;
      lockFile: string;
      holder: LockHolder | undefined;
      reason: string;
    }
  /** Temp files of an interrupted write were removed (after taking the lock, so no writer owns them). */
  | { type: 'leftover-temp-files-removed'; group: string; topic: string; dir: string; files: string[] }
  /** A commit durable in the file did not reach `mirrorTo` (the file is unaffected; the next commit tries again). */
  | { type: 'mirror-failed'; group: string; offsets: OffsetCommit[]; error: Error };

export interface FileOffsetStoreOptions {
  /** The root directory: offsets live in `<dir>/<group>/<topic>/gtoffset`. */
  dir: string;
  /** fsync each write and its directory (default true). Without it a power loss may lose recent commits. */
  fsync?: boolean;
  onEvent?: (event: FileOffsetStoreEvent) => void;
  /** Break locks not refreshed for this long, even from another host (default: never by age). */
  breakStaleLocksAfterMs?: number;
  /** How often a held lock is refreshed (default 10 000 ms). */
  lockRefreshIntervalMs?: number;
  /** Test-only crash injection between the write steps. */
  faults?: WriteFaults;
  /** Clock for `committedAt` (tests). */
  now?: () => number;
  /**
   * A second store every commit is copied to once it is durable in the file, typically a BrokerOffsetStore, so
   * the group's offsets and lag show in `kafka-consumer-groups --describe` and tidemark's admin. Best effort and
   * in order (offset-mirror.ts); failures are `mirror-failed` events. The file stays the source of truth: loads
   * never read the mirror. `close()` waits for queued copies but does not close the mirror store.
   */
  mirrorTo?: OffsetStore;
  /** How long `release` (a revoke) waits for queued copies to reach the mirror (default 5 000 ms). */
  mirrorFlushTimeoutMs?: number;
}

/** One open (group, topic) file: its lock and the last state known to be on disk. */
interface TopicFile {
  topic: string;
  paths: OffsetFilePaths;
  lock: FileLock;
  partitions: Map<number, StoredOffset>;
  /**
   * Whether the current gtoffset is known valid (parsed or written by us). Only then may a write keep it as
   * the backup: after a recovery from the backup, linking the corrupt gtoffset over it would destroy the
   * only good copy.
   */
  primaryValid: boolean;
}

async function readOrUndefined(file: string): Promise<Buffer | undefined> {
  try {
    return await fs.readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The SEO scheme, made durable: every partition of a (group, topic) in one gtoffset file, written
 * atomically with a checksum and a backup, owned through a lock file (FORMAT.md describes the layout).
 *
 * - A (group, topic) is opened on first use (load or commit): the lock is taken, then the file is read.
 * - Commits are serialised per group: a commit waits for the one in flight, validates against the state
 *   that one left, and writes whole files, so no update is lost and later values win.
 * - The in-memory state changes only once a write has replaced the file, so `load` never answers with
 *   offsets that are not on disk.
 * - Atomicity is per file: a commit naming two topics writes two files, and a failure may leave one written
 *   (the call then rejects; each file still holds a complete old or new state).
 */
export class FileOffsetStore implements OffsetStore {
  private readonly files = new Map<string, Map<string, Promise<TopicFile>>>();
  private readonly queues = new Map<string, Promise<void>>();
  private closed = false;
  private readonly now: () => number;
  private readonly mirror: OffsetMirror | undefined;
  /**
   * A consumer's default for stored positions outside the log: the SEO paper's rule, the nearest valid offset
   * (a consumer's `offsetOutOfRange` option overrides it).
   */
  readonly outOfRangeDefault: OutOfRangePolicy = 'clamp';

  constructor(private readonly options: FileOffsetStoreOptions) {
    this.now = options.now ?? Date.now;
    const target = options.mirrorTo;
    if (target !== undefined) {
      this.mirror = new OffsetMirror(target, (f) => this.emit({ type: 'mirror-failed', ...f }));
    }
  }

  async load(group: string, partitions: readonly TopicPartition[]): Promise<LoadedOffsets> {
    this.assertOpen();
    const result = emptyLoadResult(partitions);
    await Promise.all(
      [...result].map(async ([topic, byPartition]) => {
        const file = await this.open(group, topic);
        for (const partition of byPartition.keys()) {
          const value = file.partitions.get(partition);
          byPartition.set(partition, value === undefined ? undefined : { ...value });
        }
      }),
    );
    return result;
  }

  async commit(group: string, offsets: readonly OffsetCommit[], options?: CommitOptions): Promise<void> {
    this.assertOpen();
    return this.enqueue(group, async () => {
      const topics = [...new Set(offsets.map((o) => o.topic))];
      const files = new Map<string, TopicFile>();
      await Promise.all(topics.map(async (topic) => files.set(topic, await this.open(group, topic))));
      const next = applyCommit(group, (topic) => files.get(topic)!.partitions, offsets, options, this.now());
      await Promise.all([...next].map(([topic, partitions]) => this.write(group, files.get(topic)!, partitions)));
      // Only what is durable here is copied, and in this queue's order, which is the file's.
      this.mirror?.push(group, offsets, options);
    });
  }

  /** Finishes the group's writes and releases the topics' locks, so another owner can take them (revoke). */
  async release(group: string, topics: readonly string[]): Promise<void> {
    this.assertOpen();
    return this.enqueue(group, async () => {
      // The next owner (or `kafka-consumer-groups`) should see this member's last commit in the mirror too.
      await this.mirror?.flush(group, this.options.mirrorFlushTimeoutMs ?? 5_000);
      await this.releaseTopics(group, topics);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.queues.values()]);
    await this.mirror?.flush();
    await Promise.all([...this.files].map(([group, byTopic]) => this.releaseTopics(group, [...byTopic.keys()])));
  }

  private async releaseTopics(group: string, topics: readonly string[]): Promise<void> {
    const byTopic = this.files.get(group);
    await Promise.all(
      topics.map(async (topic) => {
        const pending = byTopic?.get(topic);
        if (pending === undefined) return;
        byTopic!.delete(topic);
        const file = await pending.catch(() => undefined); // a failed open holds no lock
        await file?.lock.release();
      }),
    );
    if (byTopic?.size === 0) this.files.delete(group);
  }

  private enqueue(group: string, task: () => Promise<void>): Promise<void> {
    const previous = this.queues.get(group) ?? Promise.resolve();
    // A failed commit must not block the next one: each runs after the previous settles, whatever its outcome.
    const run = previous.then(task, task);
    const tail = run.catch(() => {});
    this.queues.set(group, tail);
    void tail.then(() => {
      if (this.queues.get(group) === tail) this.queues.delete(group);
    });
    return run;
  }

  /** The open file for (group, topic), opening it once; a failed open is forgotten so it can be retried. */
  private open(group: string, topic: string): Promise<TopicFile> {
    let byTopic = this.files.get(group);
    if (byTopic === undefined) {
      byTopic = new Map();
      this.files.set(group, byTopic);
    }
    let pending = byTopic.get(topic);
    if (pending === undefined) {
      pending = this.openFile(group, topic);
      byTopic.set(topic, pending);
      const forget = byTopic;
      const attempt = pending;
      attempt.catch(() => {
        if (forget.get(topic) === attempt) forget.delete(topic);
      });
    }
    return pending;
  }

  private async openFile(group: string, topic: string): Promise<TopicFile> {
    const paths = offsetFilePaths(this.options.dir, group, topic);
    const lock = await FileLock.acquire(paths.lock, {
      breakStaleLocksAfterMs: this.options.breakStaleLocksAfterMs,
      refreshIntervalMs: this.options.lockRefreshIntervalMs,
      onTakeover: (info) => this.emit({ type: 'stale-lock-taken-over', group, topic, ...info }),
    });
    try {
      const removed = await removeLeftoverTemps(paths.file);
      if (removed.length > 0) {
        this.emit({ type: 'leftover-temp-files-removed', group, topic, dir: paths.dir, files: removed });
      }
      const state = await this.readState(paths, group, topic);
      return { topic, paths, lock, ...state };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** The stored state: gtoffset, else its valid backup (with an event), else a typed error; never a reset. */
  private async readState(
    paths: OffsetFilePaths,
    group: string,
    topic: string,
  ): Promise<{ partitions: Map<number, StoredOffset>; primaryValid: boolean }> {
    const expected = { group, topic };
    const primary = await readOrUndefined(paths.file);
    let primaryError: CorruptOffsetFileError | undefined;
    if (primary !== undefined) {
      try {
        return { partitions: new Map(parseGtoffset(primary, paths.file, expected).partitions), primaryValid: true };
      } catch (error) {
        if (!(error instanceof CorruptOffsetFileError)) throw error;
        primaryError = error;
      }
    }
    const backup = await readOrUndefined(paths.backup);
    if (backup === undefined) {
      if (primaryError === undefined) return { partitions: new Map(), primaryValid: true }; // nothing stored yet
      throw new CorruptOffsetFileError(paths.file, `${primaryError.problem}; no backup to fall back to`);
    }
    let partitions: Map<number, StoredOffset>;
    try {
      partitions = new Map(parseGtoffset(backup, paths.backup, expected).partitions);
    } catch (error) {
      if (!(error instanceof CorruptOffsetFileError) || primaryError === undefined) throw error;
      throw new CorruptOffsetFileError(
        paths.file,
        `${primaryError.problem}; the backup is unusable too (${error.problem})`,
        { cause: error },
      );
    }
    const problem = primaryError?.problem ?? 'gtoffset is missing';
    this.emit({ type: 'backup-restored', group, topic, file: paths.file, backup: paths.backup, problem });
    return { partitions, primaryValid: false };
  }

  private async write(group: string, file: TopicFile, partitions: Map<number, StoredOffset>): Promise<void> {
    await file.lock.verify();
    const bytes = serializeGtoffset({ group, topic: file.topic, partitions });
    try {
      await writeFileAtomic(file.paths.file, bytes, {
        fsync: this.options.fsync ?? true,
        backup: file.primaryValid ? file.paths.backup : undefined,
        faults: this.options.faults,
      });
    } catch (error) {
      // Once renamed into place the new content is what a reader (or a restart) sees: track it.
      if (error instanceof AtomicWriteError && error.replaced) Object.assign(file, { partitions, primaryValid: true });
      throw error;
    }
    file.partitions = partitions;
    file.primaryValid = true;
  }

  private emit(event: FileOffsetStoreEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch (error) {
      // A listener's bug must not fail a commit or leave a lock half-taken; it is still made visible.
      process.emitWarning(`FileOffsetStore onEvent listener threw: ${String(error)}`);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new OffsetStoreClosedError();
  }
}
