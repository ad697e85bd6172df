import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * The library, bundled the way an application bundles it (esbuild, tidemark's source compiled in, npm packages
 * external: what bench/child-build.ts does for the bench's children), is ASCII only.
 *
 * Why it matters: V8 keeps a script's source text in the heap for as long as the script lives (functions compile
 * lazily from it), one byte per character when every character is Latin-1, two bytes per character otherwise. One
 * `—` or `…` anywhere in the bundle doubles all of it: tidemark bundles to about 2.1 MB, so 2 MiB more heap for as
 * long as the process runs (measured in bench/results/memory.md, 2026-12-02: heapUsed after import 10.46 MiB against
 * 8.47 MiB with the same bundle made ASCII). esbuild writes non-ASCII characters in strings as escapes and drops most
 * comments, but keeps the doc comments before class members as they are, so those must be plain ASCII.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The bundle's lines holding a character outside ASCII, trimmed. */
async function nonAsciiLines(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [`${ROOT}${entry}`],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  });
  const text = result.outputFiles.map((f) => f.text).join('\n');
  return text
    .split('\n')
    .filter((line) => /[^\p{ASCII}]/u.test(line))
    .map((line) => line.trim());
}

describe('the bundled library', () => {
  it.each(['src/index.ts', 'src/kafkajs/index.ts'])(
    '%s bundles to ASCII only (V8 would hold the whole source as two-byte text)',
    async (entry) => {
      const found = await nonAsciiLines(entry);
      expect(
        found,
        'a doc comment esbuild keeps holds a character outside ASCII: write it in ASCII (see this file)',
      ).toEqual([]);
    },
    60_000,
  );
});
