/**
 * Where the Bun and Deno binaries are (dev dependencies: `@oven/bun-linux-x64`, `@deno/linux-x64-glibc`), the
 * version each is, and how to run a child process on one with its output collected. Shared by the runtime smoke
 * test and the unit-suite runs (test/integration/runtimes/).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Runtime {
  name: 'bun' | 'deno';
  /** The binary; undefined where its npm package has no build for this platform (it is linux-x64 only). */
  binary: string | undefined;
  /** The version its npm package is, which the binary must report. */
  version: string | undefined;
  /** Arguments that run a TypeScript file of this repository (`.js` imports resolve to the `.ts` files). */
  script(file: string, ...args: string[]): string[];
  /** Arguments that run vitest (the same vitest.config.ts) with its workers on this runtime. */
  vitest(...args: string[]): string[];
}

function binaryOf(pkg: string, relative: string): { binary: string | undefined; version: string | undefined } {
  const dir = path.join(REPO_ROOT, 'node_modules', pkg);
  const binary = path.join(dir, relative);
  if (!existsSync(binary)) return { binary: undefined, version: undefined };
  const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
  return { binary, version };
}

const VITEST = path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs');

export const RUNTIMES: readonly Runtime[] = [
  {
    name: 'bun',
    ...binaryOf('@oven/bun-linux-x64', 'bin/bun'),
    script: (file, ...args) => [file, ...args],
    // --bun: vitest's `node` shebang and its forked workers run on Bun too (process.execPath is bun).
    vitest: (...args) => ['--bun', VITEST, ...args],
  },
  {
    name: 'deno',
    ...binaryOf('@deno/linux-x64-glibc', 'deno'),
    // The permissions the README names, no more: the network, files for a FileOffsetStore, and the host name its
    // lock file records. Sloppy imports: the sources import `./x.js` for `./x.ts`, as tsc wants.
    script: (file, ...args) => [
      'run',
      '--allow-net',
      '--allow-read',
      '--allow-write',
      '--allow-sys=hostname',
      '--unstable-sloppy-imports',
      file,
      ...args,
    ],
    // Workers are forked with process.execPath, which is deno; node_modules and package.json are used as they are.
    vitest: (...args) => ['run', '-A', VITEST, ...args],
  },
];

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs `binary args` in the repository with vitest's own variables removed from the environment (a vitest
 * started inside a vitest worker would otherwise take itself for a worker), killed after `timeoutMs`.
 */
export function run(
  binary: string,
  args: readonly string[],
  timeoutMs: number,
  extraEnv: Record<string, string> = {},
): Promise<RunResult> {
  const env = {
    ...Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'TEST' && key !== 'NODE_ENV'),
    ),
    ...extraEnv,
  };
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // 'close', not 'exit': the output is complete only once the pipes have closed.
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Math.round(performance.now() - started) });
    });
  });
}
