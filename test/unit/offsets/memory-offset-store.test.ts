import { describe, expect, it } from 'vitest';
import { BackwardCommitError, OffsetStoreClosedError } from '../../../src/offsets/errors.js';
import { MemoryOffsetStore } from '../../../src/offsets/memory-offset-store.js';
import { at } from './helpers.js';

describe('MemoryOffsetStore', () => {
  it('answers every requested partition and merges commits per group', async () => {
    const store = new MemoryOffsetStore({ now: () => 42 });
    await store.commit('g', [{ ...at('t', 0, 10, 2), metadata: 'm' }, at('u', 1, 5)]);
    await store.commit('g', [at('t', 1, 7)]);
    await store.commit('other', [at('t', 0, 99)]);
    const loaded = await store.load('g', [
      { topic: 't', partition: 0 },
      { topic: 't', partition: 1 },
      { topic: 't', partition: 2 },
      { topic: 'v', partition: 0 },
    ]);
    expect(loaded.get('t')!.get(0)).toEqual({ offset: 10n, leaderEpoch: 2, committedAt: 42, metadata: 'm' });
    expect(loaded.get('t')!.get(1)?.offset).toBe(7n);
    expect(loaded.get('t')!.has(2)).toBe(true);
    expect(loaded.get('t')!.get(2)).toBeUndefined();
    expect(loaded.get('v')!.get(0)).toBeUndefined();
    loaded.get('t')!.get(0)!.offset = 0n; // answers are copies
    expect((await store.load('g', [{ topic: 't', partition: 0 }])).get('t')!.get(0)?.offset).toBe(10n);
  });

  it('is all-or-nothing on backward commits, and a later entry in one call wins', async () => {
    const store = new MemoryOffsetStore();
    await store.commit('g', [at('t', 0, 10), at('t', 1, 10)]);
    await expect(store.commit('g', [at('t', 0, 20), at('t', 1, 5)])).rejects.toThrow(BackwardCommitError);
    const tps = [
      { topic: 't', partition: 0 },
      { topic: 't', partition: 1 },
    ];
    expect([...(await store.load('g', tps)).get('t')!.values()].map((v) => v?.offset)).toEqual([10n, 10n]);
    await store.commit('g', [at('t', 0, 11), at('t', 0, 12)]);
    await expect(store.commit('g', [at('t', 0, 13), at('t', 0, 12)])).rejects.toThrow(BackwardCommitError);
    await store.commit('g', [at('t', 0, 3, -1)], { allowBackward: true });
    expect((await store.load('g', tps)).get('t')!.get(0)).toMatchObject({ offset: 3n, leaderEpoch: null });
    await store.close();
    await expect(store.load('g', tps)).rejects.toThrow(OffsetStoreClosedError);
  });
});
