/**
 * The Node side of the group member protocol (bench/clients/group.ts): arguments, the start barrier (`ready`,
 * then wait for the parent's `go`), the tally and record numbers of what this member read, progress lines for
 * the parent, and the final report once the parent says `stop`.
 */
import { createInterface } from 'node:readline';
import { Tally } from './child.js';
import { RecordRuns, recordNumber } from './group-coverage.js';

export interface MemberArgs {
  bootstrap: string;
  topic: string;
  group: string;
}

export function memberArgs(): MemberArgs {
  const [bootstrap, topic, group] = process.argv.slice(2);
  if (bootstrap === undefined || topic === undefined || group === undefined) {
    process.stderr.write('usage: <bootstrap> <topic> <group>\n');
    process.exit(2);
  }
  return { bootstrap, topic, group };
}

const now = () => performance.timeOrigin + performance.now();

/**
 * `BENCH_GROUP_TIMELINE=1`: each member also writes `{"event","at",...}` lines (joins, syncs, rebalances,
 * first record) and the parent prints them as one timeline per round (bench/clients/group.ts).
 */
export const timelineOn = process.env.BENCH_GROUP_TIMELINE === '1';

/** The heartbeat interval the parent gives every member (GROUP_HEARTBEAT_MS in bench/clients/group.ts). */
export const heartbeatMs = Number(process.env.BENCH_GROUP_HEARTBEAT_MS ?? 3000);

export class GroupMember {
  /** Counts like the single-process clients (no expected total: the parent decides when the group is done). */
  private readonly tally = new Tally(Number.POSITIVE_INFINITY);
  private readonly runs = new RecordRuns();
  /** CPU is counted from the barrier's release, as the round's clock. */
  private cpu0 = process.cpuUsage();
  private joinedAt = 0;
  private lastAt = 0;
  private firstRecordSeen = false;
  private reported = 0;
  private readonly ticker: NodeJS.Timeout;
  /** Set when the parent said `stop`: the client is being closed, and what that makes throw is expected. */
  stopping = false;
  /** Settles when the parent sends `stop`. */
  readonly stopped: Promise<void>;
  /** Settles when the parent releases the barrier (`go`): every member is connected, now all subscribe. */
  readonly released: Promise<void>;

  constructor(private readonly runtime: string) {
    this.ticker = setInterval(() => this.progress(), 50);
    let go!: () => void;
    this.released = new Promise((resolve) => {
      go = resolve;
    });
    this.stopped = new Promise((resolve) => {
      createInterface({ input: process.stdin }).on('line', (line) => {
        const said = line.trim();
        if (said === 'go') {
          this.cpu0 = process.cpuUsage();
          go();
        } else if (said === 'stop') {
          this.stopping = true;
          resolve();
        }
      });
    });
  }

  /** Call once connected (metadata of the topic fetched): tells the parent, and waits for its `go`. */
  async ready(): Promise<void> {
    process.stdout.write(`${JSON.stringify({ ready: now() })}\n`);
    await this.released;
  }

  /**
   * Call when the group first gives this member its partitions (its first JoinGroup and SyncGroup done; kafkajs
   * GROUP_JOIN, Java onPartitionsAssigned, tidemark's first `rebalance` event): shown in the timeline, and the
   * round's start for a parent without the barrier (an older commit's, `--baseline`).
   */
  joined(): void {
    if (this.joinedAt !== 0) return;
    this.joinedAt = now();
    process.stdout.write(`${JSON.stringify({ joinedAt: this.joinedAt })}\n`);
  }

  /** A timeline entry (only with BENCH_GROUP_TIMELINE=1). */
  mark(event: string, detail: Record<string, unknown> = {}): void {
    if (timelineOn) process.stdout.write(`${JSON.stringify({ event, at: now(), ...detail })}\n`);
  }

  add(key: Uint8Array | null | undefined, value: Uint8Array | null | undefined): void {
    this.tally.add(key, value);
    const n = recordNumber(value);
    if (n >= 0) this.runs.add(n);
  }

  /** Call after each batch: stamps the time of the last record read. */
  batchDone(): void {
    this.lastAt = now();
    if (!this.firstRecordSeen && this.tally.records > 0) {
      this.firstRecordSeen = true;
      this.mark('first record');
    }
  }

  private progress(): void {
    if (this.tally.records === this.reported) return;
    this.reported = this.tally.records;
    process.stdout.write(
      `${JSON.stringify({ records: this.reported, lastAt: this.lastAt, read: this.runs.snapshot() })}\n`,
    );
  }

  /** The final report, measured now (when the parent said the group is done). */
  report(): void {
    clearInterval(this.ticker);
    const cpu = process.cpuUsage(this.cpu0);
    process.stdout.write(
      `${JSON.stringify({
        final: true,
        records: this.tally.records,
        bytes: this.tally.bytes,
        checksum: this.tally.checksum,
        joinedAt: this.joinedAt,
        lastAt: this.lastAt,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        peakRssBytes: process.resourceUsage().maxRSS * 1024,
        runtime: this.runtime,
        read: this.runs.snapshot(),
      })}\n`,
    );
  }
}

/**
 * Runs the member's reading loop. A member still joining when the others have read everything is closed
 * mid-join: what that throws once stopping is expected (`finish` exits the process); anything else fails it.
 */
export async function readUntilStopped(member: GroupMember, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    if (!member.stopping) throw e;
  }
}

/** Reports, then closes the client (bounded: a slow leave must not hang the round) and exits. */
export async function finish(member: GroupMember, close: () => Promise<unknown>): Promise<never> {
  member.report();
  await Promise.race([close().catch(() => undefined), new Promise((r) => setTimeout(r, 5_000).unref())]);
  process.exit(0);
}
