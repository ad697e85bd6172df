import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OffsetStoreLockedError } from '../../../src/offsets/errors.js';
import { FileOffsetStore, type FileOffsetStoreEvent } from '../../../src/offsets/file/file-offset-store.js';
import { offsetFilePaths } from '../../../src/offsets/file/path-encoding.js';
import { buildFixture } from './fixtures/build.js';
import { useTempDirs } from './helpers.js';

const tempDir = useTempDirs();
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
let buildDir: string;
let commitLoop: string;
let holdLock: string;

beforeAll(() => {
  buildDir = mkdtempSync(path.join(os.tmpdir(), 'tidemark-offsets-build-'));
  commitLoop = buildFixture(path.join(fixtures, 'commit-loop.ts'), buildDir);
  holdLock = buildFixture(path.join(fixtures, 'hold-lock.ts'), buildDir);
  // TypeScript transpiles the library's sources for each fixture: over the default 10 s on a loaded machine (seen
  // under Deno's vitest workers).
}, 60_000);
afterAll(() => rmSync(buildDir, { recursive: true, force: true }));

const exits = new WeakMap<ChildProcessWithoutNullStreams, Promise<number | null>>();

function start(script: string, dir: string): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [script, dir], { stdio: 'pipe' });
  exits.set(child, new Promise((resolve) => child.once('exit', (code) => resolve(code))));
  return child;
}

/** The first stdout line of `child`; rejects with its stderr if it exits first or stays silent. */
function firstLine(child: ChildProcessWithoutNullStreams, timeoutMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no output after ${timeoutMs} ms: ${err}`)), timeoutMs);
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const end = out.indexOf('\n');
      if (end >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, end));
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`child exited (${code ?? signal}) before a line: ${err}`));
    });
  });
}

/**
 * Resolves once `child` has exited, from the `exit` event alone: Deno sets `signalCode` as soon as `kill()` is
 * called, before the process is gone, so the fields cannot tell whether the holder's pid is dead yet.
 */
function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return exits.get(child) ?? Promise.reject(new Error('child not started by start()'));
}

describe('a second process', () => {
  it('gets OffsetStoreLockedError naming the holder, and the lock is released when the holder exits', async () => {
    const dir = tempDir();
    const holder = start(holdLock, dir);
    expect(await firstLine(holder)).toBe('locked');

    const store = new FileOffsetStore({ dir });
    const error = await store.load('g', [{ topic: 't', partition: 0 }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OffsetStoreLockedError);
    expect((error as OffsetStoreLockedError).holder).toMatchObject({ pid: holder.pid, hostname: os.hostname() });
    expect((error as OffsetStoreLockedError).reason).toBe(`pid ${holder.pid} is alive on this host`);

    holder.stdin.end();
    expect(await exited(holder)).toBe(0);
    expect(existsSync(offsetFilePaths(dir, 'g', 't').lock)).toBe(false); // released by the exit hook

    // Now this process holds it, and a child is refused.
    await store.load('g', [{ topic: 't', partition: 0 }]);
    const refused = start(holdLock, dir);
    expect(await firstLine(refused)).toBe(`refused ${process.pid}`);
    expect(await exited(refused)).toBe(3);
    await store.close();
  }, 60_000);
});

describe('SIGKILL at random moments of a commit loop', () => {
  it('every reload succeeds, reads one complete commit, and offsets never go back', async () => {
    const dir = tempDir();
    const deadline = Date.now() + 20_000;
    const partitions = [0, 1, 2, 3].map((partition) => ({ topic: 't', partition }));
    let previous = 0n;
    let kills = 0;
    let midWrite = 0;
    while (kills < 30 && Date.now() < deadline) {
      const child = start(commitLoop, dir);
      const ready = await firstLine(child);
      expect(ready).toMatch(/^ready \d+$/);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 60));
      child.kill('SIGKILL');
      await exited(child);
      kills++;

      const events: FileOffsetStoreEvent[] = [];
      const store = new FileOffsetStore({ dir, onEvent: (e) => events.push(e) });
      const loaded = (await store.load('g', partitions)).get('t')!;
      const offsets = [...loaded.values()].map((v) => v?.offset);
      // One file holds all partitions: a reload sees one whole commit, never a mix.
      expect(new Set(offsets).size).toBe(1);
      const offset = offsets[0]!;
      expect(offset).toBeGreaterThanOrEqual(BigInt(ready.split(' ')[1]));
      expect(offset).toBeGreaterThanOrEqual(previous);
      previous = offset;
      const types = events.map((e) => e.type);
      expect(types).toContain('stale-lock-taken-over');
      expect(types).not.toContain('backup-restored'); // gtoffset itself is never torn
      if (types.includes('leftover-temp-files-removed')) midWrite++;
      await store.close();
    }
    expect(kills).toBeGreaterThanOrEqual(10);
    console.log(`SIGKILL test: ${kills} kills (${midWrite} mid-write), last offset ${previous}`);
  }, 60_000);
});
