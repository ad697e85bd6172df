/**
 * The latency benchmark's arithmetic: the stamp a value carries survives the round trip (including epoch
 * microseconds beyond 2^32), the tracker finds lost, duplicated and foreign records and samples only after
 * the warm-up, and percentiles are by nearest rank.
 */
import { describe, expect, it } from 'vitest';
import {
  epochMicros,
  LatencyTracker,
  percentiles,
  readStamp,
  STAMP_BYTES,
  stampValue,
} from '../../../bench/latency-stats.js';

describe('latency stamp', () => {
  it('carries epoch microseconds and the sequence number in the first 12 bytes', () => {
    const now = epochMicros();
    expect(now).toBeGreaterThan(1.7e15);
    const v = stampValue(100, now, 4_000_000_000);
    expect(v.length).toBe(100);
    expect(readStamp(v)).toEqual({ sentMicros: now, seq: 4_000_000_000 });
    // The layout Java's ByteBuffer.putLong(0, …).putInt(8, …) writes: big-endian int64, then uint32.
    expect(v.readBigInt64BE(0)).toBe(BigInt(now));
    expect(v.readUInt32BE(8)).toBe(4_000_000_000);
  });

  it('reads a stamp from a view into a larger buffer, and refuses a value too short to carry one', () => {
    const big = Buffer.alloc(64);
    stampValue(STAMP_BYTES, 123_456_789_012_345, 7).copy(big, 20);
    expect(readStamp(big.subarray(20, 20 + STAMP_BYTES))).toEqual({ sentMicros: 123_456_789_012_345, seq: 7 });
    expect(() => readStamp(new Uint8Array(11))).toThrow(/11 bytes carries no stamp/);
  });
});

describe('LatencyTracker', () => {
  it('counts lost, duplicated and foreign records, and samples only records sent after the warm-up', () => {
    const t = new LatencyTracker(5, () => 1_000_000);
    t.record(stampValue(100, 999_000, 0), 1_001_000); // in the warm-up: counted, not sampled
    t.record(stampValue(100, 1_000_000, 1), 1_002_500); // 2.5 ms
    t.record(stampValue(100, 1_000_000, 1), 1_009_000); // duplicate
    t.record(stampValue(100, 1_000_000, 3), 1_000_500); // 0.5 ms
    t.record(stampValue(100, 1_000_000, 9), 1_000_500); // beyond what was sent
    expect(t.received).toBe(3);
    expect(t.duplicates).toBe(1);
    expect(t.strangers).toBe(1);
    expect(t.missing(5)).toBe(2); // 2 and 4
    expect(t.missing(4)).toBe(1);
    expect([...t.samples()]).toEqual([2.5, 0.5]);
  });
});

describe('percentiles', () => {
  it('takes the nearest rank: the smallest sample with at least q of all at or below it', () => {
    const samples = Float64Array.from({ length: 1000 }, (_, i) => 1000 - i); // 1..1000, unsorted
    const p = percentiles(samples);
    expect(p).toMatchObject({ samples: 1000, p50Ms: 500, p99Ms: 990, p999Ms: 999, maxMs: 1000, meanMs: 500.5 });
    expect(samples[0]).toBe(1000); // the input is not sorted in place
  });

  it('gives the single sample for every percentile, and NaN for none', () => {
    expect(percentiles(Float64Array.of(3))).toMatchObject({ p50Ms: 3, p99Ms: 3, p999Ms: 3, maxMs: 3 });
    expect(Number.isNaN(percentiles(new Float64Array(0)).p99Ms)).toBe(true);
  });
});
