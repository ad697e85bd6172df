import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { API_DEFINITIONS } from '../../../protocol/index.js';

/**
 * The library must run where code generation from strings is forbidden (`node
 * --disallow-code-generation-from-strings`, CSP-restricted runtimes, some edge platforms): its codecs are generated
 * at build time, and only the tests' run-time compiler (protocol/compile.ts) uses `new Function`.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);
const FLAG = '--disallow-code-generation-from-strings';

/**
 * The child on the runtime running this test (process.execPath). Node and Bun take the flag and `--import tsx`;
 * Deno takes V8 flags through --v8-flags and runs TypeScript itself (sloppy imports: `./x.js` for `./x.ts`).
 */
function childArgs(child: string): string[] {
  if (process.versions.deno !== undefined)
    return ['run', '-A', '--unstable-sloppy-imports', `--v8-flags=${FLAG}`, child];
  return [FLAG, '--import', 'tsx', child];
}

it('encodes and decodes every API at every version under --disallow-code-generation-from-strings', async () => {
  const child = fileURLToPath(new URL('./no-code-generation-child.ts', import.meta.url));
  const { stdout } = await run(process.execPath, childArgs(child), { cwd: ROOT, timeout: 60_000 });
  const result = JSON.parse(stdout.trim().split('\n').at(-1) as string);
  // The flag is in force: the run-time compiler fails with the EvalError the library used to fail with.
  expect(result.compiler).toBe('EvalError');
  expect(result.exports).toBeGreaterThan(20);
  expect(result.messages).toBeGreaterThanOrEqual(API_DEFINITIONS.length * 4);
}, 90_000);

/** Every .ts file under a directory, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

it('ships no code generation from strings: only the run-time compiler uses it, and the library never imports it', () => {
  const offenders: string[] = [];
  const importers: string[] = [];
  for (const file of ['src', 'codecs', 'protocol'].flatMap((d) => sources(join(ROOT, d)))) {
    const path = relative(ROOT, file);
    const text = readFileSync(file, 'utf8');
    if (path !== 'protocol/compile.ts' && /\bnew Function\s*\(|\beval\s*\(/.test(text)) offenders.push(path);
    if (!path.startsWith('protocol/generate/') && /from '[./]*(protocol\/)?compile\.js'/.test(text)) {
      importers.push(path);
    }
  }
  expect(offenders).toEqual([]);
  expect(importers).toEqual([]);
});
