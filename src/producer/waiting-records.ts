/**
 * The records waiting for their topic's metadata or for buffer room, in `send()` order. A burst queued behind
 * the first metadata lookup can be tens of thousands of records (a few sendBatch() calls), and Array#shift()
 * moves the whole rest of the array for each one taken off the front (V8 cannot trim a large array in place):
 * quadratic, about a fifth of a sendBatch bench's CPU. So the queue keeps a head index and compacts only once
 * the taken part is half of the array.
 */
import type { PendingRecord } from './batch.js';

/** A record waiting to be appended. */
export interface WaitingRecord {
  record: PendingRecord;
  since: number;
  /** Flushes waiting for this record to be appended. */
  settled: (() => void)[] | undefined;
}

export class WaitingRecords {
  private items: WaitingRecord[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(record: PendingRecord, since: number): void {
    this.items.push({ record, since, settled: undefined });
  }

  /** The oldest, or undefined when none waits. */
  first(): WaitingRecord | undefined {
    return this.items[this.head];
  }

  /** The newest, or undefined when none waits. */
  last(): WaitingRecord | undefined {
    return this.head < this.items.length ? this.items[this.items.length - 1] : undefined;
  }

  /** Takes the oldest off the queue. */
  shift(): void {
    this.items[this.head++] = undefined as unknown as WaitingRecord;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  /** Takes every waiting record off the queue, oldest first. */
  takeAll(): WaitingRecord[] {
    const all = this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    return all;
  }
}

/** Calls the flushes waiting for `w` to be appended. */
export function settleWaiters(w: WaitingRecord): void {
  if (w.settled !== undefined) for (const settled of w.settled) settled();
}

/** Resolves once `w` has been appended (or has failed). */
export function appended(w: WaitingRecord): Promise<void> {
  return new Promise((resolve) => {
    if (w.settled === undefined) w.settled = [resolve];
    else w.settled.push(resolve);
  });
}
