/**
 * The whole unit suite, run by vitest itself on Bun and on Deno: the same vitest.config.ts, the same *.test.ts
 * files and assertions, with vitest's workers forked on that runtime (`bun --bun node_modules/vitest/vitest.mjs
 * run --project unit`, `deno run -A node_modules/vitest/vitest.mjs run --project unit`). A run passes when vitest
 * exits 0, which it does only if every test in it passed, and when it ran every unit test file there is.
 *
 * It needs no broker, so it is not in the integration project: vitest.config.ts gives it a project of its own
 * ("runtimes") on the threads pool, which vitest runs alongside the forks pool, so it overlaps the Node unit
 * suite and the integration suite instead of adding its minutes after them (CI budget).
 *
 * Two files are left out, both the TypeScript compiler reading the sources rather than the library running:
 * test/unit/api/public-api.test.ts (the declarations the public API emits) and test/unit/docs/code-blocks.test.ts
 * (the guides' code blocks type-check). What they check is tsc's verdict on the .ts files, the same whatever
 * runtime hosts tsc, and they are half the time of the whole suite on Bun (288 s of 564 s, measured).
 *
 * What the whole unit suite and the smoke test found, fixed in the library (each fix has a unit test run everywhere):
 * Deno's zlib decodes only the first of concatenated zstd frames and drops the rest silently
 * (codecs/compression/zstd.ts decodes frame by frame); BoringSSL (Bun) and rustls (Deno) word TLS failures
 * differently from OpenSSL (src/network/security/tls.ts reads all three). In the tests: Deno sets a killed
 * child's signalCode before the child is gone (test/unit/offsets/child-process.test.ts waits for `exit`); on
 * Bun, node:v8 getHeapStatistics() walks the heap (5-9 ms a call) and JSC accounts memory late, so the length-bomb
 * fuzz reads process.memoryUsage() there and measures a large figure twice, the second time after a full
 * collection (test/unit/fuzz/outcome.ts); the idempotent producer's out-of-order precondition is ordered by the
 * fake, not by timing (test/unit/producer/idempotence.test.ts).
 */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, RUNTIMES, run } from './runtimes.js';

/** The TypeScript compiler's checks of the sources (see above): Node runs them. */
const TSC_ONLY = ['test/unit/api/public-api.test.ts', 'test/unit/docs/code-blocks.test.ts'];

/** Every file the unit project collects (vitest.config.ts: test/unit and test/runtimes), less TSC_ONLY. */
function unitTestFiles(): string[] {
  return ['test/unit', 'test/runtimes']
    .flatMap((dir) =>
      readdirSync(path.join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f)),
    )
    .filter((f) => f.endsWith('.test.ts') && !TSC_ONLY.includes(f));
}

// Bun and Deno at once: each vitest run waits on its own workers' start-up as much as on the CPU.
describe.concurrent.each(RUNTIMES.map((r) => [r.name, r] as const))('%s', (_name, runtime) => {
  // The binaries are linux-x64 builds (the platform CI runs on); elsewhere npm installs neither.
  it.skipIf(runtime.binary === undefined)(
    `${runtime.name} ${runtime.version}: the whole unit suite passes under vitest`,
    async () => {
      const files = unitTestFiles();
      const result = await run(
        runtime.binary!,
        runtime.vitest('run', '--project', 'unit', ...TSC_ONLY.flatMap((f) => ['--exclude', f])),
        900_000,
        { TIDEMARK_EXPECT_RUNTIME: runtime.name, NO_COLOR: '1' },
      );
      const output = `${result.stdout}\n${result.stderr}`;
      const context = `vitest on ${runtime.name} exited ${result.code ?? result.signal} after ${result.ms} ms\n${output}`;
      expect(result.code, context).toBe(0);
      // Every file ran and passed (test/runtimes/runtime.test.ts among them checks the runtime is the one asked for).
      const counted = /Test Files\s+(\d+) passed \((\d+)\)/.exec(output);
      expect(counted, context).not.toBeNull();
      expect(Number(counted![1]), context).toBe(files.length);
      expect(Number(counted![2]), context).toBe(files.length);
      console.log(`${runtime.name} ${runtime.version}: ${counted![0]} in ${result.ms} ms`);
    },
    960_000,
  );
});
