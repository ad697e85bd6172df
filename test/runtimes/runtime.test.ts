/**
 * Unit tests of what differs between Node, Bun and Deno where the library depends on it. Part of the unit
 * project, so they run on Node in every unit run, and on Bun and Deno when
 * test/integration/runtimes/unit-suites.test.ts runs vitest there (with TIDEMARK_EXPECT_RUNTIME set, which
 * also proves the tests really ran on that runtime and not on a Node that vitest found on the PATH).
 */
import { spawn } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { zstdCompressionAvailable, zstdDecompress } from '../../codecs/compression/index.js';
import { CONSUMER_CHANNELS, eventSink, isObserved } from '../../src/consumer/events.js';

function runtimeName(): string {
  const g = globalThis as { Bun?: unknown; Deno?: unknown };
  if (g.Bun !== undefined) return 'bun';
  if (g.Deno !== undefined) return 'deno';
  return 'node';
}

describe('the runtime', () => {
  it('is the one the run asked for', () => {
    expect(runtimeName()).toBe(process.env.TIDEMARK_EXPECT_RUNTIME ?? 'node');
  });

  it('has native zstd in node:zlib, so producers can compress with zstd', () => {
    // Node 20 has none (decoding falls back to fzstd); Node 22.15+, Bun and Deno have both directions.
    const nodeMajor = Number(process.versions.node.split('.')[0]);
    if (runtimeName() === 'node' && nodeMajor < 22) return;
    expect(zstdCompressionAvailable).toBe(true);
  });
});

describe('zstd frames', () => {
  it('concatenated frames decode to the concatenation (Deno zlib alone keeps only the first)', async () => {
    const zlib = await import('node:zlib');
    if (typeof (zlib as { zstdCompressSync?: unknown }).zstdCompressSync !== 'function') return; // Node 20
    const compress = (s: string) =>
      (zlib as unknown as { zstdCompressSync(b: Buffer): Buffer }).zstdCompressSync(Buffer.from(s));
    const joined = Buffer.concat([compress('first '), compress('second '), compress('third')]);
    expect(zstdDecompress(joined, 1024).toString()).toBe('first second third');
    expect(zstdDecompress(joined, 1024, { forceJs: true }).toString()).toBe('first second third');
  });
});

describe('diagnostics_channel', () => {
  it('consumer channels report subscribers as they come and go, and deliver what is published', () => {
    const emitted: unknown[] = [];
    // No listener on the consumer itself: only the channel's subscribers make the event observed.
    const sink = eventSink(
      (_name, p) => emitted.push(p),
      () => false,
    );
    expect(isObserved(sink, 'commit')).toBe(false);
    const received: unknown[] = [];
    const onMessage = (message: unknown) => received.push(message);
    subscribe('tidemark:consumer:commit', onMessage);
    try {
      expect(isObserved(sink, 'commit')).toBe(true);
      expect(CONSUMER_CHANNELS.commit.hasSubscribers).toBe(true);
      const payload = { groupId: 'g', offsets: [], latencyMs: 1, reason: 'manual' as const };
      sink('commit', payload);
      expect(received).toEqual([payload]);
      expect(emitted).toEqual([payload]);
    } finally {
      unsubscribe('tidemark:consumer:commit', onMessage);
    }
    expect(isObserved(sink, 'commit')).toBe(false);
  });
});

describe('child processes', () => {
  it("a killed child's pid is gone once its exit event has fired (signalCode alone is early on Deno)", async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const exited = new Promise<string | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(() => process.kill(child.pid!, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });
});
