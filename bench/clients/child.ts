/**
 * Shared by the benchmark's child processes (one per client and round): the
 * tally of what was consumed and the one JSON line the parent reads. The
 * contract is the one bench/clients/tidemark-fetch.ts prints: records,
 * bytes (key + value), seconds (consuming only), cpuSeconds (user + system
 * of this process, measured over the same window), peakRssBytes, checksum
 * (sum of the first four bytes of every value, big-endian, mod 2^32; see
 * bench/load.ts) and the Node version.
 */

export interface ChildArgs {
  bootstrap: string;
  topic: string;
  expected: number;
}

export function childArgs(): ChildArgs {
  const [bootstrap, topic, expectedText] = process.argv.slice(2);
  const expected = Number(expectedText);
  if (bootstrap === undefined || topic === undefined || !Number.isInteger(expected) || expected < 1) {
    process.stderr.write('usage: <bootstrap> <topic> <records>\n');
    process.exit(2);
  }
  return { bootstrap, topic, expected };
}

/** A unique consumer group per run, so every run starts from offset 0 with nothing committed. */
export function freshGroup(client: string): string {
  return `bench-${client}-${process.pid}-${Date.now()}`;
}

export class Tally {
  records = 0;
  bytes = 0;
  checksum = 0;
  private cpu0: NodeJS.CpuUsage | undefined;
  private t0: bigint | undefined;
  private seconds = 0;
  private cpuSeconds = 0;
  private resolveDone!: () => void;
  /** Settles once `expected` records have been counted. */
  readonly done: Promise<void>;

  constructor(readonly expected: number) {
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
  }

  /** Starts the clock (once): at the group join, or at the first record where a client exposes no join event. */
  start(): void {
    if (this.t0 !== undefined) return;
    this.cpu0 = process.cpuUsage();
    this.t0 = process.hrtime.bigint();
  }

  /** Counts one record. Keys and values may be null (tombstones, keyless records). */
  add(key: Uint8Array | null | undefined, value: Uint8Array | null | undefined): void {
    if (this.t0 === undefined) this.start();
    if (key != null) this.bytes += key.length;
    if (value != null) {
      this.bytes += value.length;
      if (value.length >= 4)
        this.checksum = (this.checksum + ((value[0] << 24) | (value[1] << 16) | (value[2] << 8) | value[3])) >>> 0;
    }
    this.records++;
    if (this.records === this.expected) this.stop();
  }

  private stop(): void {
    if (this.t0 === undefined) return;
    this.seconds = Number(process.hrtime.bigint() - this.t0) / 1e9;
    const cpu = process.cpuUsage(this.cpu0);
    this.cpuSeconds = (cpu.user + cpu.system) / 1e6;
    this.resolveDone();
  }

  /** Prints the result line; call after `done` and after the client has been closed. */
  report(extra: Record<string, unknown> = {}): void {
    process.stdout.write(
      `${JSON.stringify({
        records: this.records,
        bytes: this.bytes,
        seconds: this.seconds,
        cpuSeconds: this.cpuSeconds,
        peakRssBytes: process.resourceUsage().maxRSS * 1024,
        checksum: this.checksum,
        node: process.version,
        ...extra,
      })}\n`,
    );
  }
}

/** Runs `body`, and fails the process if it has not finished within `ms` (a stuck client must not hang the bench). */
export async function withDeadline(ms: number, body: () => Promise<void>): Promise<void> {
  const timer = setTimeout(() => {
    process.stderr.write(`timed out after ${ms} ms\n`);
    process.exit(3);
  }, ms);
  timer.unref();
  await body();
  clearTimeout(timer);
}
