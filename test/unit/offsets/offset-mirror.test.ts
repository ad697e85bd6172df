import { describe, expect, it } from 'vitest';
import { FileOffsetStore, type FileOffsetStoreEvent } from '../../../src/offsets/file/file-offset-store.js';
import { MemoryOffsetStore } from '../../../src/offsets/memory-offset-store.js';
import type { CommitOptions, LoadedOffsets, OffsetCommit, OffsetStore } from '../../../src/offsets/offset-store.js';
import { at, useTempDirs } from './helpers.js';

/** A mirror target whose commits complete only when the test says so, recording what it was sent. */
class GatedStore implements OffsetStore {
  readonly calls: { offsets: OffsetCommit[]; options: CommitOptions | undefined }[] = [];
  private gates: { resolve: () => void; reject: (e: Error) => void }[] = [];
  /** What a broker would hold after the calls that succeeded, applied in arrival order. */
  readonly applied = new Map<string, bigint>();

  load(): Promise<LoadedOffsets> {
    throw new Error('a mirror is never read');
  }
  commit(_group: string, offsets: readonly OffsetCommit[], options?: CommitOptions): Promise<void> {
    this.calls.push({ offsets: [...offsets], options });
    return new Promise<void>((resolve, reject) => this.gates.push({ resolve, reject })).then(() => {
      for (const o of offsets) this.applied.set(`${o.topic}-${o.partition}`, o.offset);
    });
  }
  /** Completes the oldest waiting call. */
  async settle(error?: Error): Promise<void> {
    for (let i = 0; i < 50 && this.gates.length === 0; i++) await new Promise((r) => setImmediate(r));
    const gate = this.gates.shift();
    if (gate === undefined) throw new Error('no mirror call is waiting');
    if (error === undefined) gate.resolve();
    else gate.reject(error);
    await new Promise((r) => setImmediate(r));
  }
  async close(): Promise<void> {}
}

describe('FileOffsetStore mirrorTo', () => {
  const tempDir = useTempDirs();

  it('commits resolve once the file is durable, without waiting for the mirror', async () => {
    const mirror = new GatedStore();
    const store = new FileOffsetStore({ dir: tempDir(), mirrorTo: mirror, fsync: false });
    await store.commit('g', [at('t', 0, 5)]); // the mirror has not answered: this would hang if it waited
    expect((await store.load('g', [{ topic: 't', partition: 0 }])).get('t')?.get(0)?.offset).toBe(5n);
    expect(mirror.calls).toHaveLength(1);
    await mirror.settle();
    await store.close();
    expect(mirror.applied.get('t-0')).toBe(5n);
  });

  it('one call in flight per group; later commits are merged and sent after it, so older never overwrites newer', async () => {
    const mirror = new GatedStore();
    const store = new FileOffsetStore({ dir: tempDir(), mirrorTo: mirror, fsync: false });
    const generation = { groupId: 'g', generationId: 3, memberId: 'm', groupInstanceId: null };
    await store.commit('g', [at('t', 0, 10)], { generation: { ...generation, generationId: 2 } });
    await store.commit('g', [at('t', 0, 20), at('t', 1, 7)], { generation });
    await store.commit('g', [at('t', 0, 30)], { generation });
    expect(mirror.calls).toHaveLength(1); // 20 and 30 wait behind the call carrying 10
    await mirror.settle();
    expect(mirror.calls).toHaveLength(2);
    expect(mirror.calls[1].offsets.map((o) => [o.partition, o.offset])).toEqual([
      [0, 30n],
      [1, 7n],
    ]);
    expect(mirror.calls[1].options).toEqual({ allowBackward: false, generation });
    await mirror.settle();
    await store.close();
    expect([...mirror.applied]).toEqual([
      ['t-0', 30n],
      ['t-1', 7n],
    ]);
  });

  it('a failed copy is a mirror-failed event; the file keeps the commit and later copies go on', async () => {
    const mirror = new GatedStore();
    const events: FileOffsetStoreEvent[] = [];
    const store = new FileOffsetStore({
      dir: tempDir(),
      mirrorTo: mirror,
      fsync: false,
      onEvent: (e) => events.push(e),
    });
    await store.commit('g', [at('t', 0, 10)]);
    await mirror.settle(new Error('coordinator not available'));
    expect(events).toEqual([
      {
        type: 'mirror-failed',
        group: 'g',
        offsets: [expect.objectContaining({ topic: 't', partition: 0, offset: 10n })],
        error: expect.objectContaining({ message: 'coordinator not available' }),
      },
    ]);
    expect((await store.load('g', [{ topic: 't', partition: 0 }])).get('t')?.get(0)?.offset).toBe(10n);
    await store.commit('g', [at('t', 0, 11)]);
    await mirror.settle();
    await store.close();
    expect(mirror.applied.get('t-0')).toBe(11n);
  });

  it('a seek (allowBackward) reaches the mirror as one', async () => {
    const mirror = new MemoryOffsetStore();
    const store = new FileOffsetStore({ dir: tempDir(), mirrorTo: mirror, fsync: false });
    await store.commit('g', [at('t', 0, 50)]);
    await store.commit('g', [at('t', 0, 20)], { allowBackward: true });
    await store.close(); // waits for the copies
    expect((await mirror.load('g', [{ topic: 't', partition: 0 }])).get('t')?.get(0)?.offset).toBe(20n);
  });

  it('release (a revoke) waits for queued copies, bounded by mirrorFlushTimeoutMs', async () => {
    const mirror = new GatedStore();
    const store = new FileOffsetStore({ dir: tempDir(), mirrorTo: mirror, fsync: false, mirrorFlushTimeoutMs: 200 });
    await store.commit('g', [at('t', 0, 10)]);
    let released = false;
    const release = store.release('g', ['t']).then(() => {
      released = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(released).toBe(false);
    await mirror.settle();
    await release;
    expect(released).toBe(true);
    // A mirror that never answers holds a release up only for the bound.
    await store.commit('g', [at('t', 0, 11)]);
    const started = Date.now();
    await store.release('g', ['t']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(Date.now() - started).toBeLessThan(5_000);
    await mirror.settle();
    await store.close();
  });

  it('a FileOffsetStore asks consumers to clamp out-of-range positions by default', () => {
    expect(new FileOffsetStore({ dir: tempDir() }).outOfRangeDefault).toBe('clamp');
  });
});
