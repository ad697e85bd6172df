import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AtomicWriteError,
  removeLeftoverTemps,
  type WriteFaults,
  type WriteStep,
  writeFileAtomic,
} from '../../../src/offsets/file/atomic-write.js';
import { FileOffsetStore, type FileOffsetStoreEvent } from '../../../src/offsets/file/file-offset-store.js';
import { parseGtoffset } from '../../../src/offsets/file/gtoffset-format.js';
import { offsetFilePaths } from '../../../src/offsets/file/path-encoding.js';
import { at, useTempDirs } from './helpers.js';

const tempDir = useTempDirs();
const STEPS: WriteStep[] = ['beforeWrite', 'beforeFsync', 'afterFsync', 'afterBackup', 'afterRename', 'afterDirFsync'];

/** Faults that throw at `crash.at`, and call `observe` at every other step. */
function faultsFor(crash: { at?: WriteStep }, observe: (step: WriteStep) => void = () => {}): WriteFaults {
  return Object.fromEntries(
    STEPS.map((step) => [
      step,
      () => {
        if (crash.at === step) throw new Error(`simulated crash at ${step}`);
        observe(step);
      },
    ]),
  );
}

function offsetOnDisk(file: string): bigint | undefined {
  return parseGtoffset(readFileSync(file), file).partitions.get(0)?.offset;
}

describe('crash injected between the write steps', () => {
  for (const step of STEPS) {
    it(`${step}: a reload finds the old or the new content, never an error`, async () => {
      const dir = tempDir();
      const paths = offsetFilePaths(dir, 'g', 't');
      const crash: { at?: WriteStep } = {};
      const store = new FileOffsetStore({ dir, faults: faultsFor(crash) });
      await store.commit('g', [at('t', 0, 1), at('t', 1, 1)]);
      await store.commit('g', [at('t', 0, 2), at('t', 1, 2)]);
      crash.at = step;
      const error = await store.commit('g', [at('t', 0, 3), at('t', 1, 3)]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AtomicWriteError);
      const replaced = step === 'afterRename' || step === 'afterDirFsync';
      expect((error as AtomicWriteError).replaced).toBe(replaced);
      await store.close(); // drops the in-process lock; close never writes gtoffset

      // What a crash at this step leaves on disk: valid current and backup files.
      expect(offsetOnDisk(paths.file)).toBe(replaced ? 3n : 2n);
      expect(offsetOnDisk(paths.backup)).toBe(step === 'afterBackup' || replaced ? 2n : 1n);

      const events: FileOffsetStoreEvent[] = [];
      const reloaded = new FileOffsetStore({ dir, onEvent: (e) => events.push(e) });
      const loaded = await reloaded.load('g', [
        { topic: 't', partition: 0 },
        { topic: 't', partition: 1 },
      ]);
      const expected = replaced ? 3n : 2n;
      expect([loaded.get('t')!.get(0)?.offset, loaded.get('t')!.get(1)?.offset]).toEqual([expected, expected]);
      const leftover = step !== 'beforeWrite' && !replaced;
      expect(events.map((e) => e.type)).toEqual(leftover ? ['leftover-temp-files-removed'] : []);
      expect(readdirSync(paths.dir).sort()).toEqual(['gtoffset', 'gtoffset.bak', 'gtoffset.lock']);
      await reloaded.commit('g', [at('t', 0, 4)]);
      await reloaded.close();
    });
  }

  it('on the very first write a crash leaves nothing stored, not an error', async () => {
    for (const step of STEPS) {
      const dir = tempDir();
      const store = new FileOffsetStore({ dir, faults: faultsFor({ at: step }) });
      await expect(store.commit('g', [at('t', 0, 1)])).rejects.toThrow(AtomicWriteError);
      await store.close();
      const reloaded = new FileOffsetStore({ dir });
      const offset = (await reloaded.load('g', [{ topic: 't', partition: 0 }])).get('t')!.get(0)?.offset;
      expect(offset).toBe(step === 'afterRename' || step === 'afterDirFsync' ? 1n : undefined);
      await reloaded.close();
    }
  });

  it('at every step boundary of a normal write, gtoffset and its backup are complete files', async () => {
    const dir = tempDir();
    const paths = offsetFilePaths(dir, 'g', 't');
    const seen: string[] = [];
    const observe = (step: WriteStep) => {
      const current = existsSync(paths.file) ? offsetOnDisk(paths.file) : undefined;
      const backup = existsSync(paths.backup) ? offsetOnDisk(paths.backup) : undefined;
      seen.push(`${step}:${current}/${backup}`);
    };
    const store = new FileOffsetStore({ dir, faults: faultsFor({}, observe) });
    for (let i = 1; i <= 3; i++) await store.commit('g', [at('t', 0, i)]);
    await store.close();
    expect(seen.slice(12)).toEqual([
      'beforeWrite:2/1',
      'beforeFsync:2/1',
      'afterFsync:2/1',
      'afterBackup:2/2',
      'afterRename:3/2',
      'afterDirFsync:3/2',
    ]);
  });
});

describe('writeFileAtomic', () => {
  it('cleans up its temp file after a real error, and reports that nothing was replaced', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'gtoffset');
    mkdirSync(target); // renaming a file over a directory fails
    const error = await writeFileAtomic(target, Buffer.from('x')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AtomicWriteError);
    expect((error as AtomicWriteError).replaced).toBe(false);
    expect(readdirSync(dir)).toEqual(['gtoffset']);
  });

  it('removes only temp files of interrupted writes', async () => {
    const dir = tempDir();
    const keep = ['gtoffset', 'gtoffset.bak', 'gtoffset.lock', 'gtoffset.tmp-notes', 'other.tmp-1-0123456789ab'];
    const drop = ['gtoffset.tmp-123-0123456789ab', 'gtoffset.bak.tmp-9-abcdefabcdef'];
    for (const name of [...keep, ...drop]) writeFileSync(path.join(dir, name), '');
    expect((await removeLeftoverTemps(path.join(dir, 'gtoffset'))).sort()).toEqual(drop.sort());
    expect(readdirSync(dir).sort()).toEqual(keep.sort());
  });

  it('keeps a copy as the backup and replaces the content', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'f');
    await writeFileAtomic(file, Buffer.from('one'), { backup: `${file}.bak` });
    expect(existsSync(`${file}.bak`)).toBe(false);
    await writeFileAtomic(file, Buffer.from('two'), { backup: `${file}.bak` });
    expect(readFileSync(file, 'utf8')).toBe('two');
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe('one');
  });
});
