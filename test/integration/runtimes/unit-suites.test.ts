/**
 * The unit tests that exercise runtime-sensitive code, run by vitest itself on Bun and on Deno: the same
 * vitest.config.ts, the same *.test.ts files and assertions, with vitest's workers forked on that runtime
 * (`bun --bun node_modules/vitest/vitest.mjs run --project unit …`, `deno run -A node_modules/vitest/vitest.mjs
 * run --project unit …`). A run passes when vitest exits 0, which it does only if every test in it passed.
 *
 * What runs on Bun and Deno (the rest of the unit suite runs on Node only, to keep `npm test` in its CI budget:
 * the whole unit suite on both would add several minutes, and the parts left out are runtime-neutral logic):
 * - test/runtimes: the runtime itself (checked to be the one asked for), zstd frames, diagnostics_channel,
 *   child process exit;
 * - test/unit/codecs: records, CRC, Buffer and bigint primitives, gzip and zstd through the runtime's zlib,
 *   snappy and lz4;
 * - test/unit/network: sockets (node:net), TLS (node:tls) with certificates made by openssl, SASL, framing;
 * - test/unit/offsets: the file offset store (fsync of files and directories, rename, hard links, the lock
 *   file, a SIGKILLed writer process);
 * - test/unit/consumer/fetch and test/unit/consumer/commit: record batches through the fetch path, commits;
 * - test/unit/observability: the tracing channels (Bun's TracingChannel has no `hasSubscribers` of its own:
 *   traced() asks its five channels), the logger, the Prometheus collector.
 * diagnostics_channel and the broker round trip run on both in test/integration/runtimes/smoke.test.ts.
 *
 * What the whole unit suite and the smoke test found, fixed in the library (each fix has a unit test run everywhere):
 * Deno's zlib decodes only the first of concatenated zstd frames and drops the rest silently
 * (codecs/compression/zstd.ts decodes frame by frame); BoringSSL (Bun) and rustls (Deno) word TLS failures
 * differently from OpenSSL (src/network/security/tls.ts reads all three). In the tests: Deno sets a killed
 * child's signalCode before the child is gone (test/unit/offsets/child-process.test.ts waits for `exit`).
 *
 * Known runtime limits, measured: on Bun, node:v8 getHeapStatistics() walks the heap (about 9 ms a call against
 * 3 µs on Node), so test/unit/fuzz/allocation.test.ts, which reads it after every decode, cannot finish there.
 */
import { describe, expect, it } from 'vitest';
import { RUNTIMES, run } from './runtimes.js';

const RUNTIME_UNIT_DIRS = [
  'test/runtimes',
  'test/unit/codecs',
  'test/unit/network',
  'test/unit/offsets',
  'test/unit/consumer/fetch',
  'test/unit/consumer/commit',
  'test/unit/observability',
];

// Bun and Deno at once: each vitest run waits on its own workers' start-up as much as on the CPU.
describe.concurrent.each(RUNTIMES.map((r) => [r.name, r] as const))('%s', (_name, runtime) => {
  // The binaries are linux-x64 builds (the platform CI runs on); elsewhere npm installs neither.
  it.skipIf(runtime.binary === undefined)(
    `${runtime.name} ${runtime.version}: the runtime-sensitive unit tests pass under vitest`,
    async () => {
      const result = await run(
        runtime.binary!,
        runtime.vitest('run', '--project', 'unit', ...RUNTIME_UNIT_DIRS),
        420_000,
        {
          TIDEMARK_EXPECT_RUNTIME: runtime.name,
          NO_COLOR: '1',
        },
      );
      const output = `${result.stdout}\n${result.stderr}`;
      const context = `vitest on ${runtime.name} exited ${result.code ?? result.signal} after ${result.ms} ms\n${output}`;
      expect(result.code, context).toBe(0);
      // Every file passed, and at least one per directory ran (test/runtimes/runtime.test.ts checks the runtime).
      const files = /Test Files\s+(\d+) passed \((\d+)\)/.exec(output);
      expect(files, context).not.toBeNull();
      expect(Number(files![1])).toBe(Number(files![2]));
      expect(Number(files![1])).toBeGreaterThanOrEqual(RUNTIME_UNIT_DIRS.length);
      console.log(`${runtime.name} ${runtime.version}: ${files![0]} in ${result.ms} ms`);
    },
    480_000,
  );
});
