import { BufferExhaustedError } from './errors.js';

interface Waiter {
  bytes: number;
  resolve: () => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * The producer's memory budget (Java's buffer.memory): bytes of records accepted but not yet acknowledged.
 * Records wait for room first come, first served, so a large record is not starved by small ones behind it and
 * records leave in the order `send()` was called.
 */
export class BufferMemory {
  private used = 0;
  private readonly waiters: Waiter[] = [];

  constructor(
    readonly total: number,
    /** Called after bytes are given back (the producer ends backpressure from here). */
    private readonly onRelease: () => void = () => {},
  ) {}

  get usedBytes(): number {
    return this.used;
  }

  /** Someone is waiting for room: the sender then sends what it has without lingering, as Java does. */
  get exhausted(): boolean {
    return this.waiters.length > 0;
  }

  /** Takes `bytes` now when there is room and nobody waits ahead. */
  tryReserve(bytes: number): boolean {
    if (this.waiters.length > 0 || this.used + bytes > this.total) return false;
    this.used += bytes;
    return true;
  }

  /** Takes `bytes` once there is room; rejects with BufferExhaustedError after `maxWaitMs`. */
  reserve(bytes: number, maxWaitMs: number): Promise<void> {
    if (this.tryReserve(bytes)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { bytes, resolve, reject, timer: undefined };
      waiter.timer = setTimeout(() => {
        this.remove(waiter);
        reject(new BufferExhaustedError(maxWaitMs, this.total));
        this.grant();
      }, maxWaitMs);
      this.waiters.push(waiter);
    });
  }

  release(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
    this.grant();
    this.onRelease();
  }

  /** Rejects every waiter (the producer is closing for good). */
  abortWaiters(err: Error): void {
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(err);
    }
  }

  private grant(): void {
    while (this.waiters.length > 0 && this.used + this.waiters[0].bytes <= this.total) {
      const w = this.waiters.shift()!;
      clearTimeout(w.timer);
      this.used += w.bytes;
      w.resolve();
    }
  }

  private remove(waiter: Waiter): void {
    const i = this.waiters.indexOf(waiter);
    if (i >= 0) this.waiters.splice(i, 1);
  }
}
