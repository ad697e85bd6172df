import type { FramePoolStats } from './fetch/frame-pool.js';
import type { Positions } from './positions.js';

/** A running summary of durations, in milliseconds. */
export interface LatencySummary {
  count: number;
  avgMs: number;
  maxMs: number;
  lastMs: number;
}

export interface PartitionLag {
  topic: string;
  partition: number;
  /** The next offset the application will get. */
  position: bigint;
  /** The end of the log as of the last fetch: high watermark, or last stable offset with read_committed. */
  logEndOffset: bigint;
  lag: bigint;
  /** The last offset this consumer committed or loaded; undefined when none. */
  committed: bigint | undefined;
}

export interface ConsumerMetrics {
  fetchRequests: number;
  fetchErrors: number;
  /** Bytes of records received (the records sections of fetch responses). */
  bytesFetched: number;
  /** Records handed to the application. */
  recordsDelivered: number;
  /** Bytes buffered and reserved for fetches in flight, against the buffer limit. */
  bufferedBytes: number;
  fetchLatency: LatencySummary;
  commits: number;
  commitFailures: number;
  commitLatency: LatencySummary;
  /** Positions moved by auto offset reset, out-of-range corrections and truncation handling. */
  resets: number;
  rebalances: number;
  lag: PartitionLag[];
  /**
   * The memory large Fetch responses are read into (reused, src/consumer/fetch/frame-pool.ts): buffers made,
   * times one was handed out again, and bytes idle in the pool (at most maxBufferedBytes).
   */
  responseMemory: { allocated: number; reused: number; idleBytes: number };
}

class Latency {
  count = 0;
  total = 0;
  max = 0;
  last = 0;

  add(ms: number): void {
    this.count++;
    this.total += ms;
    this.last = ms;
    if (ms > this.max) this.max = ms;
  }

  summary(): LatencySummary {
    return {
      count: this.count,
      avgMs: this.count === 0 ? 0 : this.total / this.count,
      maxMs: this.max,
      lastMs: this.last,
    };
  }
}

/** Counters the consumer's parts bump as they go; `snapshot` adds per-partition lag from the positions. */
export class MetricsRecorder {
  fetchRequests = 0;
  fetchErrors = 0;
  bytesFetched = 0;
  recordsDelivered = 0;
  commits = 0;
  commitFailures = 0;
  resets = 0;
  rebalances = 0;
  readonly fetchLatency = new Latency();
  readonly commitLatency = new Latency();

  snapshot(
    positions: Positions,
    readCommitted: boolean,
    bufferedBytes: number,
    responseMemory: FramePoolStats,
  ): ConsumerMetrics {
    return {
      fetchRequests: this.fetchRequests,
      fetchErrors: this.fetchErrors,
      bytesFetched: this.bytesFetched,
      recordsDelivered: this.recordsDelivered,
      bufferedBytes,
      fetchLatency: this.fetchLatency.summary(),
      commits: this.commits,
      commitFailures: this.commitFailures,
      commitLatency: this.commitLatency.summary(),
      resets: this.resets,
      rebalances: this.rebalances,
      lag: lagOf(positions, readCommitted),
      responseMemory,
    };
  }
}

export function lagOf(positions: Positions, readCommitted: boolean): PartitionLag[] {
  const out: PartitionLag[] = [];
  for (const s of positions.all()) {
    const lag = s.lag(readCommitted);
    if (lag === undefined) continue;
    const end = readCommitted && s.lastStableOffset >= 0n ? s.lastStableOffset : s.highWatermark;
    out.push({
      topic: s.topic,
      partition: s.partition,
      position: s.position,
      logEndOffset: end,
      lag,
      committed: s.committed,
    });
  }
  return out.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
}
