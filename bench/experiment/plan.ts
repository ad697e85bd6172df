import type { Mode, StopKind } from './modes.js';

/** One run: how its consumer is configured and where it is stopped. Varied deterministically by run number. */
export interface RunPlan {
  mode: Mode;
  kind: StopKind;
  /** 1-based. */
  run: number;
  maxPartitionFetchBytes: number;
  fetchMaxBytes: number;
  /** Records processed and committed as one batch at most (Java's max.poll.records). */
  maxRecords: number;
  recordsPerSecond: number;
  /** Records each consumer process handles before it is stopped; the process after the last one runs to the end. */
  stopAfter: number[];
  seed: number;
}

/** Bytes per partition per fetch: how much each fetch brings (below 32 KiB, fetch round trips cap the rate). */
const FETCH_BYTES = [64 * 1024, 256 * 1024, 32 * 1024, 1024 * 1024, 128 * 1024];
/**
 * Batch sizes in records. The loader writes 64 KiB producer batches (about 1,800 of these records), and a
 * broker always returns whole batches, so the fetch size alone barely changes what the handler sees.
 */
const MAX_RECORDS = [500, 2_000, 250, 1_000, 100];
/** Rate limits relative to the base rate, so a run's length stays near records / baseRate. */
const RATE_FACTORS = [1, 0.6, 1.5, 0.8, 1.2];

export interface PlanOptions {
  records: number;
  /** Records per second of an average run (the handler's rate limit). */
  baseRate: number;
  /** Mid-stream stops per run: between min and max, drawn from the seed. */
  minStops: number;
  maxStops: number;
}

export function planRun(mode: Mode, kind: StopKind, run: number, o: PlanOptions): RunPlan {
  // The same seed for both stop kinds and every mode: each sees the same batch sizes, rates and stop points.
  const seed = 0x7de3a41 + run * 7919;
  const random = mulberry32(seed);
  const i = (run - 1) % FETCH_BYTES.length;
  const stops = o.minStops + Math.floor(random() * (o.maxStops - o.minStops + 1));
  // Each process handles 30–100 % of an even share, so the stops fall at different depths in the stream.
  const share = o.records / (stops + 1);
  const stopAfter = Array.from({ length: stops }, () => Math.max(1, Math.round(share * (0.3 + 0.7 * random()))));
  return {
    mode,
    kind,
    run,
    maxPartitionFetchBytes: FETCH_BYTES[i],
    fetchMaxBytes: FETCH_BYTES[i] * 4,
    maxRecords: MAX_RECORDS[i],
    recordsPerSecond: Math.round(o.baseRate * RATE_FACTORS[(run - 1) % RATE_FACTORS.length]),
    stopAfter,
    seed,
  };
}

/** A small seeded PRNG (mulberry32): the same runs on every machine. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
