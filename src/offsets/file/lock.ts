import { randomBytes } from 'node:crypto';
import { promises as fs, readFileSync, unlinkSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type LockHolder, OffsetStoreLockedError } from '../errors.js';
import { tempName } from './atomic-write.js';

/**
 * One owner per (group, topic): `gtoffset.lock` holds `{"pid","hostname","acquiredAt","token"}` as JSON.
 *
 * The file is written under a temp name and hard-linked into place: link fails with EEXIST like O_EXCL,
 * but the lock appears with its content in one step, so no reader ever sees an empty lock left by a
 * crash between create and write (filesystems without hard links fall back to O_EXCL + write).
 *
 * Staleness, decided only from what can be known:
 * - same host, pid alive (or alive under another user: EPERM) → held; a reused pid reads as alive, the
 *   safe mistake, and the error names the holder so an operator can remove the file;
 * - same host, pid dead → stale: taken over with an event;
 * - same host, our own pid but not held by this process → stale: left by an earlier process with the same
 *   pid (containers, where the consumer is often pid 1 on every start);
 * - another host, or an unreadable file → never stale, unless `breakStaleLocksAfterMs` is set and the file
 *   has not been refreshed for that long. A holder touches its lock every `refreshIntervalMs` (10 s), so
 *   the threshold must be several refresh intervals (and above the hosts' clock skew on shared storage).
 *
 * Released on `release()`, and best-effort when the process exits normally (`exit` event); after SIGKILL
 * or a crash the next owner on the same host finds a dead pid.
 */

export interface LockOptions {
  /** Break a lock not refreshed for this long, whoever holds it. Unset (default): never break by age. */
  breakStaleLocksAfterMs?: number;
  /** How often the holder refreshes its lock's mtime (default 10 000 ms; 0 disables). */
  refreshIntervalMs?: number;
  /** A stale lock was removed and taken over. */
  onTakeover?: (info: { lockFile: string; holder: LockHolder | undefined; reason: string }) => void;
}

interface LockContent {
  holder: LockHolder | undefined;
  token: string | undefined;
  raw: string;
  mtimeMs: number;
}

interface ProcessLocks {
  /** Locks this process holds, by absolute path: a second store in the same process must not take one. */
  held: Map<string, FileLock>;
  /** Locks being taken right now: a concurrent second acquire must not judge ours stale by our own pid. */
  acquiring: Set<string>;
  exitHookInstalled: boolean;
}

// On globalThis, so two copies of this module in one process (a bundled and an installed tidemark)
// still see each other's locks instead of judging them stale by the shared pid.
const registryKey = Symbol.for('tidemark.offsets.fileLocks');
const globals = globalThis as Record<symbol, ProcessLocks | undefined>;
globals[registryKey] ??= { held: new Map(), acquiring: new Set(), exitHookInstalled: false };
const registry = globals[registryKey];
const heldHere = registry.held;
const acquiring = registry.acquiring;

function parseHolder(raw: string): { holder: LockHolder; token: string } | undefined {
  try {
    const v = JSON.parse(raw) as Record<string, unknown>;
    if (typeof v.pid !== 'number' || typeof v.hostname !== 'string' || typeof v.acquiredAt !== 'string') return;
    // pid 0 or below would make `kill(pid, 0)` probe a process group: such a file is not a lock we wrote.
    if (typeof v.token !== 'string' || !Number.isInteger(v.pid) || v.pid <= 0) return;
    return { holder: { pid: v.pid, hostname: v.hostname, acquiredAt: v.acquiredAt }, token: v.token };
  } catch {
    return undefined;
  }
}

async function readLock(lockFile: string): Promise<LockContent | undefined> {
  try {
    const [raw, stat] = await Promise.all([fs.readFile(lockFile, 'utf8'), fs.stat(lockFile)]);
    const parsed = parseHolder(raw);
    return { holder: parsed?.holder, token: parsed?.token, raw, mtimeMs: stat.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a lock is stale, and why (or why not), for the event or the error. */
function staleness(lock: LockContent, options: LockOptions): { stale: boolean; reason: string } {
  const age = Date.now() - lock.mtimeMs;
  const limit = options.breakStaleLocksAfterMs;
  if (limit !== undefined && age > limit) {
    return { stale: true, reason: `not refreshed for ${Math.round(age)} ms (breakStaleLocksAfterMs ${limit})` };
  }
  const { holder } = lock;
  if (holder === undefined) return { stale: false, reason: 'lock file unreadable; remove it if no process holds it' };
  if (holder.hostname !== os.hostname()) {
    return { stale: false, reason: `held from another host; set breakStaleLocksAfterMs to break abandoned locks` };
  }
  if (holder.pid === process.pid) return { stale: true, reason: 'left by an earlier process with this pid' };
  if (isAlive(holder.pid)) return { stale: false, reason: `pid ${holder.pid} is alive on this host` };
  return { stale: true, reason: `pid ${holder.pid} is no longer running` };
}

async function createExclusive(lockFile: string, content: string): Promise<boolean> {
  const temp = tempName(lockFile);
  try {
    await fs.writeFile(temp, content, { flag: 'wx', mode: 0o644 });
    await fs.link(temp, lockFile);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    try {
      await fs.writeFile(lockFile, content, { flag: 'wx', mode: 0o644 });
      return true;
    } catch (fallbackError) {
      if ((fallbackError as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw fallbackError;
    }
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/**
 * Moves a stale lock aside and deletes it, unless it changed since it was judged stale (another process
 * took it over in between): then it is put back and the caller tries again.
 */
async function breakLock(lockFile: string, judged: LockContent): Promise<void> {
  const grave = `${lockFile}.stale-${process.pid}-${randomBytes(6).toString('hex')}`;
  try {
    await fs.rename(lockFile, grave);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else broke it first
    throw error;
  }
  const moved = await fs.readFile(grave, 'utf8').catch(() => undefined);
  if (moved !== judged.raw) await fs.link(grave, lockFile).catch(() => {}); // a live lock: restore it
  await fs.rm(grave, { force: true });
}

function releaseAllOnExit(): void {
  for (const lock of heldHere.values()) {
    try {
      if (parseHolder(readFileSync(lock.file, 'utf8'))?.token === lock.token) unlinkSync(lock.file);
    } catch {
      // best effort: the next owner's stale-lock detection covers what is left
    }
  }
}

export class FileLock {
  private timer: NodeJS.Timeout | undefined;
  private released = false;

  private constructor(
    readonly file: string,
    readonly token: string,
    readonly holder: LockHolder,
  ) {}

  /** Takes the lock or throws `OffsetStoreLockedError` naming the holder. Creates the directory. */
  static async acquire(lockFile: string, options: LockOptions = {}): Promise<FileLock> {
    const file = path.resolve(lockFile);
    const here = heldHere.get(file);
    if (here !== undefined)
      throw new OffsetStoreLockedError(file, here.holder, 'held by another store in this process');
    if (acquiring.has(file)) {
      throw new OffsetStoreLockedError(file, undefined, 'being taken by another store in this process');
    }
    acquiring.add(file);
    try {
      return await FileLock.take(file, options);
    } finally {
      acquiring.delete(file);
    }
  }

  private static async take(file: string, options: LockOptions): Promise<FileLock> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const holder: LockHolder = { pid: process.pid, hostname: os.hostname(), acquiredAt: new Date().toISOString() };
    const token = randomBytes(16).toString('hex');
    const content = `${JSON.stringify({ ...holder, token })}\n`;
    for (let attempt = 0; attempt < 5; attempt++) {
      if (await createExclusive(file, content)) {
        const lock = new FileLock(file, token, holder);
        lock.start(options.refreshIntervalMs ?? 10_000);
        return lock;
      }
      const existing = await readLock(file);
      if (existing === undefined) continue; // released meanwhile
      const verdict = staleness(existing, options);
      if (!verdict.stale) throw new OffsetStoreLockedError(file, existing.holder, verdict.reason);
      await breakLock(file, existing);
      options.onTakeover?.({ lockFile: file, holder: existing.holder, reason: verdict.reason });
    }
    throw new OffsetStoreLockedError(file, (await readLock(file))?.holder, 'the lock changed hands while being taken');
  }

  private start(refreshIntervalMs: number): void {
    heldHere.set(this.file, this);
    if (!registry.exitHookInstalled) {
      process.once('exit', releaseAllOnExit);
      registry.exitHookInstalled = true;
    }
    if (refreshIntervalMs > 0) {
      this.timer = setInterval(() => {
        const now = new Date();
        fs.utimes(this.file, now, now).catch(() => {}); // a lost lock is caught by verify() before writing
      }, refreshIntervalMs);
      this.timer.unref();
    }
  }

  /** Throws `OffsetStoreLockedError` unless the lock file is still ours (it may have been broken by age). */
  async verify(): Promise<void> {
    const current = await readLock(this.file);
    if (this.released || current?.token !== this.token) {
      throw new OffsetStoreLockedError(this.file, current?.holder, 'this store lost its lock');
    }
  }

  /** Removes the lock file if it is still ours. Idempotent. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.timer);
    try {
      const current = await readLock(this.file).catch(() => undefined);
      if (current?.token === this.token) await fs.rm(this.file, { force: true });
    } finally {
      // Only now: until the file is gone, a new store in this process must see the lock as held here.
      if (heldHere.get(this.file) === this) heldHere.delete(this.file);
    }
  }
}
