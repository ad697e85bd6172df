import { TidemarkError } from '../../codecs/errors.js';

/**
 * The typed failures of the offset stores and the range check. None is retriable: each one means the stored
 * state or the caller's request needs a decision (restore a file, stop the other owner, seek on purpose),
 * and repeating the same call would fail the same way.
 */

/** A gtoffset file (or its backup) that is not exactly what tidemark writes: never parsed "as far as it goes". */
export class CorruptOffsetFileError extends TidemarkError {
  override name = 'CorruptOffsetFileError';

  constructor(
    /** The file that failed to parse. */
    readonly file: string,
    /** What was wrong, e.g. `checksum mismatch` or `line 6: duplicate partition 3`. */
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`corrupt offset file ${file}: ${problem}`, options);
  }
}

/** Who holds a lock file, as written in it. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** ISO 8601 time at which the holder took the lock. */
  acquiredAt: string;
}

/** Another owner (another process, or another store in this process) holds the (group, topic) lock. */
export class OffsetStoreLockedError extends TidemarkError {
  override name = 'OffsetStoreLockedError';

  constructor(
    readonly lockFile: string,
    /** Undefined when the lock file could not be read (being written, or edited by hand). */
    readonly holder: LockHolder | undefined,
    /** Why the lock was not considered stale, for the operator. */
    readonly reason: string,
  ) {
    const who =
      holder === undefined ? 'an unknown holder' : `pid ${holder.pid} on ${holder.hostname} since ${holder.acquiredAt}`;
    super(`offset store ${lockFile} is locked by ${who} (${reason})`);
  }
}

/** One partition whose commit would move its offset backwards. */
export interface BackwardCommit {
  topic: string;
  partition: number;
  stored: bigint;
  attempted: bigint;
}

/**
 * A commit would move offsets backwards without `allowBackward`. Nothing of that commit call was written:
 * a backward commit that is not a deliberate seek is a bug upstream, and storing it would make a restart
 * re-read records; ignoring it would hide the bug, and if the seek was meant, silently skip records.
 */
export class BackwardCommitError extends TidemarkError {
  override name = 'BackwardCommitError';

  constructor(
    readonly group: string,
    readonly partitions: readonly BackwardCommit[],
  ) {
    const list = partitions.map((p) => `${p.topic}-${p.partition}: ${p.stored} -> ${p.attempted}`).join(', ');
    super(
      `commit for group ${JSON.stringify(group)} would move offsets backwards (${list}); pass allowBackward after a seek`,
    );
  }
}

/** An offset commit that no Kafka offset store could hold (negative offset, bad partition, bad epoch). */
export class InvalidOffsetCommitError extends TidemarkError {
  override name = 'InvalidOffsetCommitError';
}

/** A name that has no representation on disk or on the wire (a string with a lone UTF-16 surrogate). */
export class InvalidOffsetStoreNameError extends TidemarkError {
  override name = 'InvalidOffsetStoreNameError';
}

/** The store was closed; its locks are released and it accepts no more calls. */
export class OffsetStoreClosedError extends TidemarkError {
  override name = 'OffsetStoreClosedError';

  constructor() {
    super('offset store is closed');
  }
}

/** A stored position outside the log with the `fail` policy. Lists every such partition, not only the first. */
export class OffsetOutOfRangeError extends TidemarkError {
  override name = 'OffsetOutOfRangeError';

  constructor(
    readonly partitions: ReadonlyArray<{
      topic: string;
      partition: number;
      stored: bigint;
      earliest: bigint;
      latest: bigint;
    }>,
  ) {
    const list = partitions.map((p) => `${p.topic}-${p.partition}: ${p.stored} not in [${p.earliest}, ${p.latest}]`);
    super(`stored offsets outside the log: ${list.join(', ')}`);
  }
}

/** No stored offset with auto offset reset `none`: the application must choose where to start. */
export class NoStoredOffsetError extends TidemarkError {
  override name = 'NoStoredOffsetError';

  constructor(readonly partitions: ReadonlyArray<{ topic: string; partition: number }>) {
    const list = partitions.map((p) => `${p.topic}-${p.partition}`).join(', ');
    super(`no stored offset and auto offset reset is "none": ${list}`);
  }
}
