import { setTimeout as sleep, setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { CHILD_SAYS, type ChildConfig } from './modes.js';

/** What the handler needs of a record (mode (a) keeps copies, as its queue outlives the batch). */
export interface HandledRecord {
  topic: string;
  partition: number;
  offset: bigint;
  value: Buffer | null;
}

/** Longest the handler runs without giving the event loop a turn. */
const YIELD_EVERY_MS = 5;

/** A record whose value is not the one loaded at its position: the consumer read the wrong bytes. */
export class WrongRecordError extends Error {
  constructor(partition: number, offset: bigint, detail: string) {
    super(`partition ${partition} offset ${offset}: ${detail}`);
    this.name = 'WrongRecordError';
  }
}

/**
 * The handler every mode shares: checks the record is the one loaded at its position (partition and order),
 * keeps to the rate limit, hands the record to the mode's sink, and tells the parent how far it got.
 */
export class Processing {
  private readonly next: number[];
  private count = 0;
  private readonly started = performance.now();
  private caughtUp = false;
  private lastYield = performance.now();

  constructor(
    private readonly config: ChildConfig,
    initial: readonly number[],
    private readonly sink: (record: HandledRecord, sequence: number) => void,
  ) {
    this.next = [...initial];
    this.checkCaughtUp();
  }

  async process(record: HandledRecord): Promise<void> {
    const { partition, offset, value } = record;
    const expected = partition * this.config.perPartition + Number(offset);
    const sequence = value === null || value.length < 4 ? -1 : value.readUInt32BE(0);
    if (sequence !== expected)
      throw new WrongRecordError(partition, offset, `sequence ${sequence}, expected ${expected}`);
    if (Number(offset) < this.next[partition]) {
      // A record handed out twice (or out of order) inside one process: a consumer bug, not a restart.
      throw new WrongRecordError(partition, offset, `handed out again: this process is at ${this.next[partition]}`);
    }
    // Rate limit: never ahead of recordsPerSecond since this process started.
    const now = performance.now();
    const due = ((this.count + 1) * 1000) / this.config.recordsPerSecond - (now - this.started);
    if (due >= 1) {
      await sleep(due);
      this.lastYield = performance.now();
    } else if (now - this.lastYield >= YIELD_EVERY_MS) {
      // Behind schedule the loop would never leave the microtask queue: no fetch response, no signal and no
      // commit timer would run until the batch is done. A real handler does I/O; this one lets others in.
      await yieldToEventLoop();
      this.lastYield = performance.now();
    }
    this.sink(record, sequence);
    this.next[partition] = Number(offset) + 1;
    this.count++;
    if (this.count % 200 === 0) say(`${CHILD_SAYS.progress} ${this.count}`);
    this.checkCaughtUp();
  }

  private checkCaughtUp(): void {
    if (this.caughtUp || this.next.some((n, p) => n < this.config.endOffsets[p])) return;
    this.caughtUp = true;
    say(`${CHILD_SAYS.progress} ${this.count}`);
    say(CHILD_SAYS.caughtUp);
  }
}

export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}
