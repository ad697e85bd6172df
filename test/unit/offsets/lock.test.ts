import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OffsetStoreLockedError } from '../../../src/offsets/errors.js';
import { FileOffsetStore, type FileOffsetStoreEvent } from '../../../src/offsets/file/file-offset-store.js';
import { FileLock } from '../../../src/offsets/file/lock.js';
import { offsetFilePaths } from '../../../src/offsets/file/path-encoding.js';
import { at, useTempDirs } from './helpers.js';

const tempDir = useTempDirs();

/** The pid of a process that has already exited. */
function deadPid(): number {
  const result = spawnSync(process.execPath, ['-e', '']);
  return result.pid!;
}

function writeLock(file: string, holder: { pid: number; hostname: string }, ageMs = 0): void {
  const content = { ...holder, acquiredAt: new Date(Date.now() - ageMs).toISOString(), token: 'feedface' };
  writeFileSync(file, `${JSON.stringify(content)}\n`);
  const when = new Date(Date.now() - ageMs);
  utimesSync(file, when, when);
}

describe('FileLock', () => {
  it('writes pid, host and time, refuses a second owner in this process, and releases', async () => {
    const file = path.join(tempDir(), 'a', 'gtoffset.lock');
    const lock = await FileLock.acquire(file);
    const content = JSON.parse(readFileSync(file, 'utf8'));
    expect(content).toMatchObject({ pid: process.pid, hostname: os.hostname(), token: lock.token });
    expect(Date.parse(content.acquiredAt)).toBeGreaterThan(Date.now() - 60_000);
    const error = await FileLock.acquire(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OffsetStoreLockedError);
    expect((error as OffsetStoreLockedError).holder?.pid).toBe(process.pid);
    expect((error as Error).message).toMatch(/locked by pid \d+ on .* \(held by another store in this process\)/);
    await lock.release();
    expect(existsSync(file)).toBe(false);
    await (await FileLock.acquire(file)).release();
  });

  it('lets only one of two concurrent acquires in this process win', async () => {
    const file = path.join(tempDir(), 'gtoffset.lock');
    const results = await Promise.allSettled([FileLock.acquire(file), FileLock.acquire(file), FileLock.acquire(file)]);
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(OffsetStoreLockedError);
    await (won[0] as PromiseFulfilledResult<FileLock>).value.release();
  });

  it('takes over a lock whose pid is dead on this host, with an event', async () => {
    const dir = tempDir();
    const paths = offsetFilePaths(dir, 'g', 't');
    const pid = deadPid();
    const first = new FileOffsetStore({ dir });
    await first.commit('g', [at('t', 0, 5)]);
    await first.close();
    writeLock(paths.lock, { pid, hostname: os.hostname() });
    const events: FileOffsetStoreEvent[] = [];
    const store = new FileOffsetStore({ dir, onEvent: (e) => events.push(e) });
    const loaded = await store.load('g', [{ topic: 't', partition: 0 }]);
    expect(loaded.get('t')!.get(0)?.offset).toBe(5n);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'stale-lock-taken-over',
        holder: expect.objectContaining({ pid }),
        reason: `pid ${pid} is no longer running`,
      }),
    ]);
    expect(JSON.parse(readFileSync(paths.lock, 'utf8')).pid).toBe(process.pid);
    await store.close();
  });

  it('takes over a lock left by an earlier process with our own pid (container restarts)', async () => {
    const file = path.join(tempDir(), 'gtoffset.lock');
    writeLock(file, { pid: process.pid, hostname: os.hostname() });
    const reasons: string[] = [];
    const lock = await FileLock.acquire(file, { onTakeover: (info) => reasons.push(info.reason) });
    expect(reasons).toEqual(['left by an earlier process with this pid']);
    await lock.release();
  });

  it('never breaks a live local holder, another host, or an unreadable lock without breakStaleLocksAfterMs', async () => {
    const file = path.join(tempDir(), 'gtoffset.lock');
    writeLock(file, { pid: process.ppid, hostname: os.hostname() }, 3_600_000);
    await expect(FileLock.acquire(file)).rejects.toThrow(/is alive on this host/);
    writeLock(file, { pid: deadPid(), hostname: 'elsewhere.example' }, 3_600_000);
    const error = await FileLock.acquire(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OffsetStoreLockedError);
    expect((error as OffsetStoreLockedError).holder?.hostname).toBe('elsewhere.example');
    expect((error as Error).message).toMatch(/held from another host/);
    writeFileSync(file, '');
    await expect(FileLock.acquire(file)).rejects.toThrow(/unknown holder \(lock file unreadable/);
  });

  it('breaks a lock not refreshed for breakStaleLocksAfterMs, and not a fresh one', async () => {
    const file = path.join(tempDir(), 'gtoffset.lock');
    writeLock(file, { pid: 1234, hostname: 'elsewhere.example' }, 5_000);
    await expect(FileLock.acquire(file, { breakStaleLocksAfterMs: 60_000 })).rejects.toThrow(OffsetStoreLockedError);
    const reasons: string[] = [];
    const lock = await FileLock.acquire(file, {
      breakStaleLocksAfterMs: 1_000,
      onTakeover: (i) => reasons.push(i.reason),
    });
    expect(reasons[0]).toMatch(/not refreshed for \d+ ms \(breakStaleLocksAfterMs 1000\)/);
    await lock.release();
  });

  it('refreshes a held lock so age-based breaking spares a live holder', async () => {
    const file = path.join(tempDir(), 'gtoffset.lock');
    const lock = await FileLock.acquire(file, { refreshIntervalMs: 20 });
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(Date.now() - statSync(file).mtimeMs).toBeLessThan(10_000);
    await lock.release();
  });

  it('a store that lost its lock refuses to write; release leaves a foreign lock alone', async () => {
    const dir = tempDir();
    const paths = offsetFilePaths(dir, 'g', 't');
    const store = new FileOffsetStore({ dir });
    await store.commit('g', [at('t', 0, 1)]);
    unlinkSync(paths.lock);
    writeLock(paths.lock, { pid: 4242, hostname: 'elsewhere.example' });
    await expect(store.commit('g', [at('t', 0, 2)])).rejects.toThrow(/this store lost its lock/);
    await store.close();
    expect(JSON.parse(readFileSync(paths.lock, 'utf8')).hostname).toBe('elsewhere.example');
  });
});
