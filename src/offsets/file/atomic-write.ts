import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { TidemarkError } from '../../../codecs/errors.js';

/**
 * Replaces a file so that a crash at any instant leaves either the old or the new content under its name,
 * never a torn or missing file:
 *
 * 1. write the new bytes to a temp file in the same directory (rename is only atomic within a filesystem);
 * 2. fsync it, so the rename below can never expose a file whose data blocks were not written yet;
 * 3. keep the old version as the backup: hard-link the current file to a temp name and rename that over
 *    the backup. A hard link (not a rename of the current file) keeps the current name valid the whole
 *    time, and renaming over the backup keeps a valid backup the whole time; the old inode lives on
 *    as the backup after step 4. Filesystems without hard links get a fsynced copy instead;
 * 4. rename the temp file over the current one (atomic replace);
 * 5. fsync the directory, so the rename itself survives a power loss.
 *
 * Without step 5 a power loss (not a process crash) may still bring back the old file: old content, never
 * torn. The backup's rename is covered by the same directory fsync; if the filesystem reorders them, the
 * backup is an older valid version. Temp files a crash leaves behind are removed by the lock holder
 * (`removeLeftoverTemps`).
 */

/** The points between steps where tests inject a crash. */
export type WriteStep = 'beforeWrite' | 'beforeFsync' | 'afterFsync' | 'afterBackup' | 'afterRename' | 'afterDirFsync';

/** Test-only hooks, run between the steps; throwing from one simulates a crash at that point. */
export type WriteFaults = Partial<Record<WriteStep, () => void | Promise<void>>>;

export interface AtomicWriteOptions {
  /** fsync the data and the directory (default true). Off only for tests and throwaway state. */
  fsync?: boolean;
  /** Where to keep the previous version; omit to keep no backup on this write. */
  backup?: string;
  faults?: WriteFaults;
}

/**
 * A write that failed. `replaced` says whether the new content had already been renamed into place (the
 * failure was the directory fsync or later): the file then holds the new content, but whether it survives a
 * power loss is unknown. The cause is the filesystem error, or a test's injected crash.
 */
export class AtomicWriteError extends TidemarkError {
  override name = 'AtomicWriteError';

  constructor(
    readonly file: string,
    readonly replaced: boolean,
    cause: unknown,
  ) {
    const what = cause instanceof Error ? cause.message : String(cause);
    super(`writing ${file} failed ${replaced ? 'after' : 'before'} the new content replaced the old: ${what}`, {
      cause,
    });
  }
}

/** Temp names end in the pid and 12 random hex digits: unique across processes and concurrent writers. */
export function tempName(file: string): string {
  return `${file}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
}

/** Error codes of filesystems that cannot hard-link (FAT, some network and FUSE filesystems). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);

/** Error codes of platforms where a directory cannot be opened or fsynced (Windows, some FUSE). */
const NO_DIR_SYNC = new Set(['EISDIR', 'EPERM', 'EINVAL', 'EBADF', 'EACCES', 'ENOTSUP']);

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/** fsync a directory, so renames and creations in it are durable; a no-op where the platform refuses. */
export async function fsyncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (!NO_DIR_SYNC.has(code(error) ?? '')) throw error;
  } finally {
    await handle?.close();
  }
}

async function writeAndSync(file: string, data: Uint8Array, sync: boolean, beforeSync?: () => Promise<void>) {
  const handle = await fs.open(file, 'wx', 0o644);
  try {
    await handle.writeFile(data);
    await beforeSync?.();
    if (sync) await handle.sync();
  } finally {
    // Closing is not persisting: a crash closes descriptors too, so tests that "crash" here leak nothing.
    await handle.close();
  }
}

/** Step 3; records the temp name it creates in `created`, for cleanup on failure. */
async function keepBackup(file: string, backup: string, sync: boolean, created: string[]): Promise<void> {
  const temp = tempName(backup);
  created.push(temp);
  try {
    await fs.link(file, temp);
  } catch (error) {
    if (code(error) === 'ENOENT') return; // first write: nothing to keep
    if (!NO_LINKS.has(code(error) ?? '')) throw error;
    let data: Buffer;
    try {
      data = await fs.readFile(file);
    } catch (readError) {
      if (code(readError) === 'ENOENT') return;
      throw readError;
    }
    await writeAndSync(temp, data, sync);
  }
  await fs.rename(temp, backup);
}

/** Replaces `file` with `data` atomically and (by default) durably; see the module comment for the steps. */
export async function writeFileAtomic(file: string, data: Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const sync = options.fsync ?? true;
  const temp = tempName(file);
  const created = [temp];
  let crashed = false;
  let replaced = false;
  const step = async (name: WriteStep): Promise<void> => {
    const hook = options.faults?.[name];
    if (hook === undefined) return;
    try {
      await hook();
    } catch (error) {
      crashed = true;
      throw error;
    }
  };
  try {
    await step('beforeWrite');
    await writeAndSync(temp, data, sync, () => step('beforeFsync'));
    await step('afterFsync');
    if (options.backup !== undefined) await keepBackup(file, options.backup, sync, created);
    await step('afterBackup');
    await fs.rename(temp, file);
    replaced = true;
    await step('afterRename');
    if (sync) await fsyncDirectory(path.dirname(file));
    await step('afterDirFsync');
  } catch (error) {
    // A simulated crash leaves the disk as a real one would; a real error (ENOSPC, EACCES) cleans up.
    if (!crashed) await Promise.all(created.map((name) => fs.rm(name, { force: true }).catch(() => {})));
    throw new AtomicWriteError(file, replaced, error);
  }
}

/** Removes temp files of crashed writers next to `file`. Only the lock holder may call it. */
export async function removeLeftoverTemps(file: string): Promise<string[]> {
  const dir = path.dirname(file);
  const base = path.basename(file);
  const temp = /^tmp-\d+-[0-9a-f]{12}$/;
  const removed: string[] = [];
  for (const name of await fs.readdir(dir)) {
    if (!name.startsWith(`${base}.`)) continue;
    const rest = name.slice(base.length + 1);
    // `gtoffset.tmp-…` (data) and `gtoffset.bak.tmp-…` (backup link); never the lock or the backup itself.
    const suffix = rest.startsWith('bak.') ? rest.slice(4) : rest;
    if (!temp.test(suffix)) continue;
    await fs.rm(path.join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}
