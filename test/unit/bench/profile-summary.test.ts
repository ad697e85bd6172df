import { describe, expect, it } from 'vitest';
import { median, quantile } from '../../../bench/commit.js';
import { summariseProfile } from '../../../bench/profile.js';

const ROOT = 'file:///work/main';
const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });

/**
 * A hand-made profile: root → FrameAssembler.push → node:buffer _copyActual, root → crc32c, and the idle
 * and GC pseudo-nodes. Samples 10 µs apart from t = 1000; the window covers the middle ones only.
 */
function profile() {
  return {
    startTime: 1000,
    nodes: [
      { id: 1, callFrame: frame('(root)', ''), children: [2, 4, 5, 6] },
      { id: 2, callFrame: frame('push', `${ROOT}/src/network/frame-assembler.ts`), children: [3] },
      { id: 3, callFrame: frame('_copyActual', 'node:buffer') },
      { id: 4, callFrame: frame('crc32c', `${ROOT}/codecs/crc.ts`) },
      { id: 5, callFrame: frame('(idle)', '') },
      { id: 6, callFrame: frame('(garbage collector)', '') },
    ],
    // t = 1010, 1020, …, 1080: the first (crc32c at 1010) and the last (idle at 1080) fall outside [1015, 1075].
    samples: [4, 3, 3, 3, 4, 5, 6, 5],
    timeDeltas: [10, 10, 10, 10, 10, 10, 10, 10],
  };
}

describe('bench/profile.ts summariseProfile', () => {
  it('counts only the window, and charges Node code to the nearest tidemark caller', () => {
    const s = summariseProfile(profile(), 1015, 1075, 10);
    // Six samples inside; each is charged the gap to the next sample (10 µs), the last one in the window too.
    expect(s.totalMs).toBeCloseTo(0.06, 6);
    const share = Object.fromEntries(s.categories.map((c) => [c.name.split(' ')[0], c.share]));
    expect(share.network).toBeCloseTo(3 / 6, 6); // _copyActual under FrameAssembler.push
    expect(share['CRC-32C']).toBeCloseTo(1 / 6, 6);
    expect(share.idle).toBeCloseTo(1 / 6, 6);
    expect(share.garbage).toBeCloseTo(1 / 6, 6);
    expect(s.top[0]).toMatchObject({ name: '_copyActual node:buffer:1' });
    expect(s.top[0].share).toBeCloseTo(0.5, 6);
  });

  it('answers an empty summary for a window with no samples', () => {
    const s = summariseProfile(profile(), 5000, 6000, 10);
    expect(s.totalMs).toBe(0);
    expect(s.top).toEqual([]);
  });
});

describe('bench/commit.ts statistics', () => {
  it('quantile is nearest-rank on sorted values', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(v, 0.5)).toBe(50);
    expect(quantile(v, 0.99)).toBe(99);
    expect(quantile([7], 0.99)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('median of odd and even counts, unsorted input', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});
