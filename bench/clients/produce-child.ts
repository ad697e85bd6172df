/**
 * Shared by the produce benchmark's Node children (one per client and round): the arguments
 * (`<bootstrap> <topic> <records> <none|lz4>`), the clock, and the one JSON line the parent reads: records
 * acknowledged, value bytes, seconds from the first send to the last acknowledgement, the CPU of this process
 * over the same window, peak RSS and the Node version. The parent verifies the count against the topic's end
 * offsets, so a child that claims more than it wrote is caught.
 */
import type { ProduceCompression } from '../produce-settings.js';

export interface ProduceChildArgs {
  bootstrap: string;
  topic: string;
  records: number;
  compression: ProduceCompression;
}

export function produceChildArgs(): ProduceChildArgs {
  const [bootstrap, topic, recordsText, compression] = process.argv.slice(2);
  const records = Number(recordsText);
  if (
    bootstrap === undefined ||
    topic === undefined ||
    !Number.isInteger(records) ||
    records < 1 ||
    (compression !== 'none' && compression !== 'lz4')
  ) {
    process.stderr.write('usage: <bootstrap> <topic> <records> <none|lz4>\n');
    process.exit(2);
  }
  return { bootstrap, topic, records, compression };
}

/** The measured window: started at the first send, stopped when every record is acknowledged. */
export class ProduceClock {
  private cpu0 = process.cpuUsage();
  private t0 = process.hrtime.bigint();
  private seconds = Number.NaN;
  private cpuSeconds = Number.NaN;

  start(): void {
    this.cpu0 = process.cpuUsage();
    this.t0 = process.hrtime.bigint();
  }

  stop(): void {
    this.seconds = Number(process.hrtime.bigint() - this.t0) / 1e9;
    const cpu = process.cpuUsage(this.cpu0);
    this.cpuSeconds = (cpu.user + cpu.system) / 1e6;
  }

  /** Prints the result line; `acknowledged` records of `valueBytes` each. */
  report(acknowledged: number, valueBytes: number, extra: Record<string, unknown> = {}): void {
    process.stdout.write(
      `${JSON.stringify({
        records: acknowledged,
        bytes: acknowledged * valueBytes,
        seconds: this.seconds,
        cpuSeconds: this.cpuSeconds,
        peakRssBytes: process.resourceUsage().maxRSS * 1024,
        node: process.version,
        ...extra,
      })}\n`,
    );
  }
}

/**
 * Sends `records` messages as calls of `perCall`, at most `outstanding` at once, for the clients whose API
 * takes arrays (kafkajs, @platformatic/kafka). Resolves with the number acknowledged; rejects on the first
 * failed call.
 */
export async function sendInCalls(
  records: number,
  perCall: number,
  outstanding: number,
  send: (first: number, count: number) => Promise<void>,
): Promise<number> {
  let next = 0;
  let acknowledged = 0;
  const lane = async () => {
    while (next < records) {
      const first = next;
      const count = Math.min(perCall, records - first);
      next += count;
      await send(first, count);
      acknowledged += count;
    }
  };
  await Promise.all(Array.from({ length: outstanding }, lane));
  return acknowledged;
}
