import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BackwardCommitError,
  CorruptOffsetFileError,
  InvalidOffsetCommitError,
  OffsetStoreClosedError,
} from '../../../src/offsets/errors.js';
import { FileOffsetStore, type FileOffsetStoreEvent } from '../../../src/offsets/file/file-offset-store.js';
import { parseGtoffset } from '../../../src/offsets/file/gtoffset-format.js';
import { offsetFilePaths } from '../../../src/offsets/file/path-encoding.js';
import { at, useTempDirs } from './helpers.js';

const tempDir = useTempDirs();

function open(dir: string, events: FileOffsetStoreEvent[] = []) {
  return new FileOffsetStore({ dir, onEvent: (e) => events.push(e), now: () => 1_700_000_000_000 });
}

async function offsetsOf(store: FileOffsetStore, group: string, topic: string, partitions: number[]) {
  const loaded = await store.load(
    group,
    partitions.map((partition) => ({ topic, partition })),
  );
  return partitions.map((p) => loaded.get(topic)!.get(p)?.offset);
}

describe('FileOffsetStore', () => {
  it('keeps every partition of a topic in one gtoffset file across store instances', async () => {
    const dir = tempDir();
    const a = open(dir);
    expect(await offsetsOf(a, 'billing', 'orders', [0, 1])).toEqual([undefined, undefined]);
    await a.commit('billing', [at('orders', 0, 10, 3), at('orders', 1, 20), at('refunds', 0, 5)]);
    await a.commit('billing', [at('orders', 2, 30)]);
    await a.close();

    const paths = offsetFilePaths(dir, 'billing', 'orders');
    expect(paths.file).toBe(path.join(dir, 'billing', 'orders', 'gtoffset'));
    const onDisk = parseGtoffset(readFileSync(paths.file), paths.file);
    expect([...onDisk.partitions.keys()]).toEqual([0, 1, 2]);
    expect(existsSync(paths.lock)).toBe(false);

    const b = open(dir);
    expect(await offsetsOf(b, 'billing', 'orders', [0, 1, 2, 3])).toEqual([10n, 20n, 30n, undefined]);
    const loaded = await b.load('billing', [{ topic: 'orders', partition: 0 }]);
    expect(loaded.get('orders')!.get(0)).toEqual({ offset: 10n, leaderEpoch: 3, committedAt: 1_700_000_000_000 });
    expect(await offsetsOf(b, 'billing', 'refunds', [0])).toEqual([5n]);
    await b.close();
  });

  it('refuses backward commits as a whole unless allowBackward', async () => {
    const dir = tempDir();
    const store = open(dir);
    await store.commit('g', [at('t', 0, 100), at('t', 1, 100)]);
    const before = readFileSync(offsetFilePaths(dir, 'g', 't').file);
    const error = await store.commit('g', [at('t', 0, 150), at('t', 1, 90)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackwardCommitError);
    expect((error as BackwardCommitError).partitions).toEqual([
      { topic: 't', partition: 1, stored: 100n, attempted: 90n },
    ]);
    expect(readFileSync(offsetFilePaths(dir, 'g', 't').file)).toEqual(before);
    expect(await offsetsOf(store, 'g', 't', [0, 1])).toEqual([100n, 100n]);

    await store.commit('g', [at('t', 1, 100)]); // the same offset again is fine
    await store.commit('g', [at('t', 1, 90)], { allowBackward: true });
    expect(await offsetsOf(store, 'g', 't', [0, 1])).toEqual([100n, 90n]);
    await store.close();
  });

  it('refuses invalid offsets before writing anything', async () => {
    const store = open(tempDir());
    await expect(store.commit('g', [at('t', 0, -1)])).rejects.toThrow(InvalidOffsetCommitError);
    await expect(store.commit('g', [at('t', -1, 0)])).rejects.toThrow(InvalidOffsetCommitError);
    await expect(store.commit('g', [at('t', 0, 1n << 63n)])).rejects.toThrow(InvalidOffsetCommitError);
    await expect(store.commit('g', [at('t', 0, 1, -2)])).rejects.toThrow(InvalidOffsetCommitError);
    await store.close();
  });

  it('serialises concurrent commits: no lost update, later values win', async () => {
    const dir = tempDir();
    const store = open(dir);
    const commits: Promise<void>[] = [];
    for (let i = 1; i <= 40; i++) commits.push(store.commit('g', [at('t', i % 4, i), at(`u${i % 3}`, 0, i)]));
    await Promise.all(commits);
    const expected = [40n, 37n, 38n, 39n];
    expect(await offsetsOf(store, 'g', 't', [0, 1, 2, 3])).toEqual(expected);
    await store.close();
    const reopened = open(dir);
    expect(await offsetsOf(reopened, 'g', 't', [0, 1, 2, 3])).toEqual(expected);
    expect(await offsetsOf(reopened, 'g', 'u0', [0])).toEqual([39n]);
    await reopened.close();
  });

  it('a failed commit does not block the next one', async () => {
    const store = open(tempDir());
    await store.commit('g', [at('t', 0, 5)]);
    const failed = store.commit('g', [at('t', 0, 1)]);
    const next = store.commit('g', [at('t', 0, 6)]);
    await expect(failed).rejects.toThrow(BackwardCommitError);
    await next;
    expect(await offsetsOf(store, 'g', 't', [0])).toEqual([6n]);
    await store.close();
  });

  it('stores over-long and awkward group ids, verifying the real name on load', async () => {
    const dir = tempDir();
    const long = `${'ü'.repeat(5000)}/../${'x'.repeat(5000)}`;
    const store = open(dir);
    await store.commit(long, [at('T'.repeat(249), 0, 7)]);
    await store.commit('Grp', [at('t', 0, 1)]);
    await store.commit('grp', [at('t', 0, 2)]);
    await store.close();
    expect(readdirSync(dir).sort()).toHaveLength(3);
    const again = open(dir);
    expect(await offsetsOf(again, long, 'T'.repeat(249), [0])).toEqual([7n]);
    expect(await offsetsOf(again, 'Grp', 't', [0])).toEqual([1n]);
    expect(await offsetsOf(again, 'grp', 't', [0])).toEqual([2n]);
    await again.close();

    // A file moved into another group's directory is caught by the names inside it.
    const moved = offsetFilePaths(dir, 'other', 't');
    const mover = open(dir);
    await mover.commit('other', [at('t', 0, 1)]);
    await mover.close();
    writeFileSync(moved.file, readFileSync(offsetFilePaths(dir, 'grp', 't').file));
    const check = open(dir);
    await expect(check.load('other', [{ topic: 't', partition: 0 }])).rejects.toThrow(/belongs to group "grp"/);
    await check.close();
  });

  it('falls back to the backup when gtoffset is corrupt or missing, with an event, and keeps the good copy', async () => {
    const dir = tempDir();
    const paths = offsetFilePaths(dir, 'g', 't');
    const writer = open(dir);
    await writer.commit('g', [at('t', 0, 1)]);
    await writer.commit('g', [at('t', 0, 2)]);
    await writer.close();
    writeFileSync(paths.file, readFileSync(paths.file, 'utf8').replace('0 2 ', '0 9 ')); // hand edit

    const events: FileOffsetStoreEvent[] = [];
    const reader = open(dir, events);
    expect(await offsetsOf(reader, 'g', 't', [0])).toEqual([1n]);
    expect(events).toEqual([
      expect.objectContaining({ type: 'backup-restored', problem: expect.stringMatching(/checksum/) }),
    ]);
    // The corrupt file must not become the backup: after one commit the backup is still the good copy.
    await reader.commit('g', [at('t', 0, 3)]);
    expect(parseGtoffset(readFileSync(paths.backup), paths.backup).partitions.get(0)?.offset).toBe(1n);
    await reader.commit('g', [at('t', 0, 4)]);
    expect(parseGtoffset(readFileSync(paths.backup), paths.backup).partitions.get(0)?.offset).toBe(3n);
    await reader.close();

    unlinkSync(paths.file);
    const missing: FileOffsetStoreEvent[] = [];
    const third = open(dir, missing);
    expect(await offsetsOf(third, 'g', 't', [0])).toEqual([3n]);
    expect(missing[0]).toMatchObject({ type: 'backup-restored', problem: 'gtoffset is missing' });
    await third.close();
  });

  it('never resets silently: corrupt file without a usable backup is a typed error', async () => {
    const dir = tempDir();
    const paths = offsetFilePaths(dir, 'g', 't');
    const writer = open(dir);
    await writer.commit('g', [at('t', 0, 1)]);
    await writer.commit('g', [at('t', 0, 2)]);
    await writer.close();
    writeFileSync(paths.file, 'tidemark-gtoffset 1\ngroup "g"\n');
    writeFileSync(paths.backup, '');
    const store = open(dir);
    const error = await store.load('g', [{ topic: 't', partition: 0 }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptOffsetFileError);
    expect((error as Error).message).toMatch(/no checksum line.*backup is unusable too \(empty file\)/);
    // The failed open released its lock and can be retried once the operator fixes the file.
    unlinkSync(paths.backup);
    await expect(store.load('g', [{ topic: 't', partition: 0 }])).rejects.toThrow(/no backup to fall back to/);
    unlinkSync(paths.file);
    expect(await offsetsOf(store, 'g', 't', [0])).toEqual([undefined]);
    await store.close();

    writeFileSync(paths.backup, 'garbage');
    const onlyBackup = open(dir);
    await expect(onlyBackup.load('g', [{ topic: 't', partition: 0 }])).rejects.toThrow(CorruptOffsetFileError);
    await onlyBackup.close();
  });

  it('rejects every call after close and releases its locks', async () => {
    const dir = tempDir();
    const store = open(dir);
    const pending = store.commit('g', [at('t', 0, 1)]);
    await store.close();
    await pending; // accepted before close: finished by close
    await expect(store.load('g', [])).rejects.toThrow(OffsetStoreClosedError);
    await expect(store.commit('g', [])).rejects.toThrow(OffsetStoreClosedError);
    expect(existsSync(offsetFilePaths(dir, 'g', 't').lock)).toBe(false);
    await store.close();
  });

  it('release hands a topic over to another store', async () => {
    const dir = tempDir();
    const a = open(dir);
    const b = open(dir);
    await a.commit('g', [at('t', 0, 1)]);
    await expect(b.load('g', [{ topic: 't', partition: 0 }])).rejects.toThrow(/another store in this process/);
    await a.release('g', ['t']);
    expect(await offsetsOf(b, 'g', 't', [0])).toEqual([1n]);
    await Promise.all([a.close(), b.close()]);
  });

  it('works without fsync', async () => {
    const dir = tempDir();
    const store = new FileOffsetStore({ dir, fsync: false });
    await store.commit('g', [at('t', 3, 33)]);
    await store.close();
    const again = new FileOffsetStore({ dir });
    expect(await offsetsOf(again, 'g', 't', [3])).toEqual([33n]);
    await again.close();
  });
});
