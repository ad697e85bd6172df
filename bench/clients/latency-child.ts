/**
 * Shared by the latency benchmark's Node children (one per client and round; each produces and consumes with
 * its own client in one process): the arguments, the pacer that sends at a fixed rate, the tracker of what
 * came back, and the result: the sampled latencies to a file (ms, little-endian doubles) and one
 * JSON line with the counts, the achieved rate, CPU and peak RSS.
 *
 *   <bootstrap> <topic> <rate> <seconds> <warmupSeconds> <valueBytes> <samplesFile>
 */
import { writeFileSync } from 'node:fs';
import { epochMicros, LatencyTracker, stampValue } from '../latency-stats.js';

export interface LatencyChildArgs {
  bootstrap: string;
  topic: string;
  rate: number;
  seconds: number;
  warmupSeconds: number;
  valueBytes: number;
  samplesFile: string;
}

export function latencyChildArgs(): LatencyChildArgs {
  const [bootstrap, topic, rate, seconds, warmup, valueBytes, samplesFile] = process.argv.slice(2);
  const n = [rate, seconds, warmup, valueBytes].map(Number);
  if (bootstrap === undefined || topic === undefined || samplesFile === undefined || !n.every(Number.isFinite)) {
    process.stderr.write('usage: <bootstrap> <topic> <rate> <seconds> <warmupSeconds> <valueBytes> <samplesFile>\n');
    process.exit(2);
  }
  return { bootstrap, topic, rate: n[0], seconds: n[1], warmupSeconds: n[2], valueBytes: n[3], samplesFile };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class LatencyRun {
  readonly total: number;
  readonly tracker: LatencyTracker;
  sent = 0;
  private startMicros = Number.POSITIVE_INFINITY;
  private paceSeconds = Number.NaN;
  private cpu0 = process.cpuUsage();
  private allReceived: () => void = () => {};
  private readonly complete = new Promise<void>((resolve) => {
    this.allReceived = resolve;
  });

  constructor(readonly args: LatencyChildArgs) {
    this.total = Math.round(args.rate * args.seconds);
    this.tracker = new LatencyTracker(this.total, () => this.startMicros + args.warmupSeconds * 1e6);
  }

  /** Counts one consumed value, stamped now. */
  received(value: Uint8Array | null | undefined): void {
    if (value == null) return;
    this.tracker.record(value, epochMicros());
    if (this.tracker.received === this.total) this.allReceived();
  }

  /**
   * Sends `rate` records per second for `seconds`: every millisecond (as the timers allow) the records due by
   * now, each stamped as it is made, handed to `send` at once (which must not block the pacer).
   */
  async pace(send: (values: Buffer[]) => void): Promise<void> {
    const { rate, valueBytes } = this.args;
    this.cpu0 = process.cpuUsage();
    this.startMicros = epochMicros();
    const t0 = performance.now();
    while (this.sent < this.total) {
      const due = Math.min(this.total, Math.floor((rate * (performance.now() - t0)) / 1000)) - this.sent;
      if (due > 0) {
        const values = new Array<Buffer>(due);
        for (let i = 0; i < due; i++) values[i] = stampValue(valueBytes, epochMicros(), this.sent + i);
        this.sent += due;
        send(values);
      }
      await sleep(1);
    }
    this.paceSeconds = (performance.now() - t0) / 1000;
  }

  /** Waits until every record sent has been consumed, or `timeoutMs`. */
  async drained(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.complete, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  /** Writes the samples file and prints the result line. */
  finish(extra: Record<string, unknown> = {}): void {
    const cpu = process.cpuUsage(this.cpu0);
    const samples = this.tracker.samples();
    const bytes = Buffer.allocUnsafe(samples.length * 8);
    for (let i = 0; i < samples.length; i++) bytes.writeDoubleLE(samples[i], i * 8);
    writeFileSync(this.args.samplesFile, bytes);
    process.stdout.write(
      `${JSON.stringify({
        sent: this.sent,
        received: this.tracker.received,
        duplicates: this.tracker.duplicates,
        strangers: this.tracker.strangers,
        missing: this.tracker.missing(this.sent),
        sampled: samples.length,
        achievedRate: this.sent / this.paceSeconds,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        peakRssBytes: process.resourceUsage().maxRSS * 1024,
        node: process.version,
        ...extra,
      })}\n`,
    );
  }
}
