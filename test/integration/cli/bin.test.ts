/** The real `tidemark` executable: bin/tidemark.js loading the build of `npm run build`. */
import { execFile, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../src/client.js';
import { bootstrap } from '../../harness/context.js';
import { closedPort, newClient, newTopic, tableRows, uniqueGroup } from './setup.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = path.join(root, 'bin', 'tidemark.js');
const run = promisify(execFile);

function tidemark(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', TIDEMARK_BOOTSTRAP: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

let client: Client;
beforeAll(async () => {
  const started = Date.now();
  // The build may report type errors in files still being written elsewhere; what matters here is that the
  // CLI was emitted by this build.
  await run('npm', ['run', 'build'], { cwd: root, maxBuffer: 1 << 24 }).catch((err: { stdout?: string }) => {
    process.stderr.write(`npm run build reported errors:\n${err.stdout ?? err}\n`);
  });
  const main = path.join(root, 'dist', 'src', 'cli', 'main.js');
  expect(existsSync(main)).toBe(true);
  expect(statSync(main).mtimeMs).toBeGreaterThanOrEqual(started - 1000);
  client = newClient();
}, 240_000);
afterAll(async () => {
  await client?.close();
});

describe('bin/tidemark.js', () => {
  it('prints help with the exit codes', async () => {
    const r = await tidemark(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: tidemark <command>');
    expect(r.stdout).toContain('Exit codes:');
  });

  it('produces from stdin and describes a group, exiting 0', async () => {
    const topic = await newTopic(client, 'bin', 1);
    const produced = await tidemark(['produce', '--topic', topic, '-b', bootstrap()], 'one\ntwo\nthree\n');
    expect(produced.code, produced.stderr).toBe(0);
    const group = uniqueGroup('bin');
    await client.offsets.commit(group, [{ topic, partition: 0, offset: 1n }]);
    const r = await tidemark(['describe', group, '--bootstrap', bootstrap()]);
    expect(r.code, r.stderr).toBe(0);
    expect(tableRows(r.stdout, topic)[0].slice(0, 5)).toEqual([topic, '0', '1', '3', '2']);
  });

  it('consume --offsets-dir stopped with SIGINT and restarted prints every record exactly once', async () => {
    const topic = await newTopic(client, 'bin-sigint', 3);
    const dir = await mkdtemp(path.join(tmpdir(), 'tidemark-bin-consume-'));
    const group = uniqueGroup('bin-sigint');
    const first = [...Array(60).keys()].map((i) => `a${i}`);
    expect((await tidemark(['produce', '-t', topic, '-b', bootstrap()], `${first.join('\n')}\n`)).code).toBe(0);

    const args = ['consume', '-t', topic, '-g', group, '--offsets-dir', dir, '-b', bootstrap()];
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out1 = '';
    let err1 = '';
    child.stderr.on('data', (d: Buffer) => (err1 += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        out1 += d.toString();
        resolve();
      });
    });
    child.kill('SIGINT');
    expect(await exited, err1).toBe(130);
    const seen1 = out1.split('\n').filter((l) => l !== '');
    expect(seen1.length).toBeGreaterThan(0);

    const second = [...Array(60).keys()].map((i) => `b${i}`);
    expect((await tidemark(['produce', '-t', topic, '-b', bootstrap()], `${second.join('\n')}\n`)).code).toBe(0);
    const run2 = await tidemark([...args, '--idle-ms', '3000']);
    expect(run2.code, run2.stderr).toBe(0);
    const all = [...seen1, ...run2.stdout.split('\n').filter((l) => l !== '')].sort();
    expect(all).toEqual([...first, ...second].sort());
  });

  it('sets the exit code: 2 for wrong arguments, 4 for an unreachable broker, one line on stderr', async () => {
    const usage = await tidemark(['describe']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('tidemark: describe: missing <group> (see tidemark describe --help)\n');
    const at = `127.0.0.1:${await closedPort()}`;
    const down = await tidemark(['groups', '-b', at, '--connect-timeout', '300', '--timeout', '1500']);
    expect(down.code).toBe(4);
    expect(down.stderr.trim().split('\n')).toHaveLength(1);
  });
});
