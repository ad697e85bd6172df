/**
 * How the bench starts its Node children (bench/child-build.ts): compiled to one JavaScript file run by bare
 * node, no tsx loader and no keepNames wrapping, tidemark's source bundled in a module of its own (not in the
 * child's top-level function) and npm packages left external, and `import.meta.url` still naming the source
 * file (children read and write files relative to themselves).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { childCommand, compiledChild, removeCompiledChildren } from '../../../bench/child-build.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/compiled-child.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

describe('bench children, compiled', () => {
  afterAll(removeCompiledChildren);

  it('runs under bare node, sources bundled, packages external, import.meta.url of the source', async () => {
    const { cmd, args } = await childCommand(process.execPath, FIXTURE, ['extra']);
    const bundle = args[0];
    expect(cmd).toBe(process.execPath);
    expect(args).toEqual([bundle, 'extra']);
    expect(bundle.startsWith(join(REPO, '.tidemark', 'bench-children-'))).toBe(true);
    expect(bundle.endsWith(join('test-unit-bench-fixtures-compiled-child', 'compiled-child.mjs'))).toBe(true);
    // Built once per process: the second ask gets the same file.
    expect(await compiledChild(FIXTURE)).toBe(bundle);

    const entry = readFileSync(bundle, 'utf8');
    const dir = dirname(bundle);
    const text = readdirSync(dir)
      .map((file) => readFileSync(join(dir, file), 'utf8'))
      .join('\n');
    expect(text).toContain('function crc32cReference'); // tidemark's source is compiled in
    expect(entry).not.toContain('function crc32cReference'); // but not into the child's own module
    expect(entry).toMatch(/from "\.\/chunk-[\w-]+\.mjs"/);
    expect(text).toMatch(/from "crc-32\/crc32c\.js"/); // the npm package is not
    expect(text).not.toContain('__name('); // no keepNames wrappers

    const out = JSON.parse(execFileSync(cmd, args, { encoding: 'utf8', timeout: 60_000 }).trim());
    expect(out).toEqual({ source: FIXTURE, execArgv: [], crc: 0xe3069283, className: 'Named' });
    // An esbuild bundle and a node child: 1.4-1.8 s on a quiet machine, 6.6 s on Deno at load 18 (vitest's 5 s
    // default timed out there); this bounds a hang.
  }, 30_000);

  it('a child that does not compile is a clear error naming it', async () => {
    const missing = join(REPO, 'bench', 'clients', 'no-such-child.ts');
    await expect(compiledChild(missing)).rejects.toThrow(`could not compile the bench child ${missing}`);
  });
});
