/**
 * The latency benchmark's arithmetic, shared by its children and its parent: the record value that carries the
 * send time (epoch microseconds, so any process's clock can read it) and a sequence number, the tracker that
 * finds lost or duplicated records, and percentiles by nearest rank over the samples after the warm-up.
 *
 * Value layout (big-endian, the rest filler to the value size): bytes 0–7 the send time in epoch microseconds
 * (int64), bytes 8–11 the record's sequence number (uint32). The Java probe (bench/java/LatencyProbe.java)
 * writes the same layout.
 */

export const STAMP_BYTES = 12;

/** Epoch microseconds with sub-millisecond precision: the time origin plus the monotonic clock. */
export function epochMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/** A fresh value of `size` bytes (at least 12) carrying `sentMicros` and `seq`. */
export function stampValue(size: number, sentMicros: number, seq: number): Buffer {
  const b = Buffer.alloc(Math.max(size, STAMP_BYTES), 0x78);
  b.writeUInt32BE(Math.floor(sentMicros / 2 ** 32), 0);
  b.writeUInt32BE(sentMicros % 2 ** 32, 4);
  b.writeUInt32BE(seq, 8);
  return b;
}

export function readStamp(value: Uint8Array): { sentMicros: number; seq: number } {
  if (value.length < STAMP_BYTES) throw new Error(`value of ${value.length} bytes carries no stamp`);
  const v = new DataView(value.buffer, value.byteOffset, value.byteLength);
  return { sentMicros: v.getUint32(0) * 2 ** 32 + v.getUint32(4), seq: v.getUint32(8) };
}

/**
 * Latency of every record received, indexed by sequence number; records sent before `warmupEndMicros` are
 * counted but not sampled.
 */
export class LatencyTracker {
  private readonly seen: Uint8Array;
  private readonly latencyMs: Float64Array;
  private readonly sampled: Uint8Array;
  received = 0;
  duplicates = 0;
  /** Values whose sequence number is beyond what was sent: not this run's records. */
  strangers = 0;

  constructor(
    readonly capacity: number,
    private readonly warmupEndMicros: () => number,
  ) {
    this.seen = new Uint8Array(capacity);
    this.latencyMs = new Float64Array(capacity);
    this.sampled = new Uint8Array(capacity);
  }

  /** Records one received value at `nowMicros`. */
  record(value: Uint8Array, nowMicros: number): void {
    const { sentMicros, seq } = readStamp(value);
    if (seq >= this.capacity) {
      this.strangers++;
      return;
    }
    if (this.seen[seq] === 1) {
      this.duplicates++;
      return;
    }
    this.seen[seq] = 1;
    this.received++;
    this.latencyMs[seq] = (nowMicros - sentMicros) / 1000;
    if (sentMicros >= this.warmupEndMicros()) this.sampled[seq] = 1;
  }

  /** How many of the first `sent` sequence numbers never arrived. */
  missing(sent: number): number {
    let n = 0;
    for (let i = 0; i < sent; i++) if (this.seen[i] === 0) n++;
    return n;
  }

  /** The sampled latencies (ms), in sequence order. */
  samples(): Float64Array {
    let n = 0;
    for (let i = 0; i < this.capacity; i++) n += this.sampled[i];
    const out = new Float64Array(n);
    for (let i = 0, j = 0; i < this.capacity; i++) if (this.sampled[i] === 1) out[j++] = this.latencyMs[i];
    return out;
  }
}

export interface LatencyPercentiles {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  meanMs: number;
}

/** Nearest-rank percentiles: the smallest sample with at least q of all samples at or below it. */
export function percentiles(samples: Float64Array): LatencyPercentiles {
  const sorted = Float64Array.from(samples).sort();
  const n = sorted.length;
  const at = (q: number) => (n === 0 ? Number.NaN : sorted[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))]);
  let sum = 0;
  for (const x of sorted) sum += x;
  return {
    samples: n,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    p999Ms: at(0.999),
    maxMs: n === 0 ? Number.NaN : sorted[n - 1],
    meanMs: n === 0 ? Number.NaN : sum / n,
  };
}
