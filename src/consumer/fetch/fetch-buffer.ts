import type { PartitionState } from '../positions.js';
import { type FrameLease, type FramePool, letGoOfFrame } from './frame-pool.js';

/** One partition's records from one fetch response, not decoded yet. */
export interface CompletedFetch {
  state: PartitionState;
  /** The partition's generation when the fetch was sent; a seek since then makes this chunk void. */
  generation: number;
  /** The records section: a view into the response frame. */
  records: Buffer;
  /** The offset the fetch asked for: the chunk is delivered only if the position is still there. */
  fetchOffset: bigint;
  /** The offset after the chunk's last complete batch. */
  nextOffset: bigint;
  /** The leader epoch of the chunk's last batch. */
  lastEpoch: number;
  highWatermark: bigint;
  lastStableOffset: bigint;
  logStartOffset: bigint;
  /** read_committed: the transactions aborted within the chunk's range (null when none or read_uncommitted). */
  abortedTransactions: readonly { producerId: bigint; firstOffset: bigint }[] | null;
  /** The header scan met bytes that cannot be a batch: delivering this chunk fails the partition. */
  corrupt: boolean;
  /**
   * The pooled response memory `records` lies in, held until the chunk is released, or with default options
   * until its last slice is decoded (frame-pool.ts); undefined for a response in memory of its own.
   */
  frame: FrameLease | undefined;
}

/**
 * Fetched data waiting for the application, and the byte budget that bounds it. A fetch reserves the bytes it
 * may receive before it is sent and converts the reservation into buffered bytes when it is answered; bytes
 * are released only when the application has finished with a chunk (moved past it), dropped it (seek, pause,
 * revoke), or the consumer closes. So fetched + in-flight + in-hand bytes stay within `limit`, and the memory a
 * slow application pins is bounded by configuration, not by how far ahead the brokers could run.
 */
export class FetchBuffer {
  private queue: CompletedFetch[] = [];
  private head = 0;
  private bufferedBytes = 0;
  private reservedBytes = 0;
  private readonly waiters = new Set<() => void>();
  /**
   * The most one fetch asks for, and the room a fetch needs before it starts: a quarter of the limit. Many small
   * fetches cost more than a few large ones, and a response as large as the whole budget would leave no room to
   * fetch the next while the application works through it.
   */
  readonly requestBytes: number;

  constructor(
    readonly limit: number,
    /** Called when bytes are released (by a finished chunk: once requestBytes are free), so the loop can use them. */
    private readonly onSpace: () => void,
    /** Where large responses are read (frame-pool.ts): each chunk in its memory holds its frame until released. */
    private readonly frames?: FramePool,
  ) {
    this.requestBytes = Math.floor(limit / 4);
  }

  get buffered(): number {
    return this.bufferedBytes;
  }

  get reserved(): number {
    return this.reservedBytes;
  }

  /** Bytes a new fetch may still ask for. */
  get available(): number {
    return this.limit - this.bufferedBytes - this.reservedBytes;
  }

  /** Chunks waiting for delivery. */
  get length(): number {
    return this.queue.length - this.head;
  }

  reserve(bytes: number): void {
    this.reservedBytes += bytes;
  }

  /** Ends a reservation (the fetch was answered, failed or abandoned). */
  unreserve(bytes: number): void {
    this.reservedBytes -= bytes;
    this.onSpace();
  }

  push(chunk: CompletedFetch): void {
    if (this.frames !== undefined) {
      const lease = this.frames.leaseOf(chunk.records);
      lease?.hold();
      chunk.frame = lease;
    }
    this.queue.push(chunk);
    this.bufferedBytes += chunk.records.length;
    this.notify();
  }

  shift(): CompletedFetch | undefined {
    if (this.head >= this.queue.length) return undefined;
    const chunk = this.queue[this.head];
    this.queue[this.head++] = undefined as unknown as CompletedFetch;
    // Compact now and then rather than shifting the array on every take.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return chunk;
  }

  /** The application is done with a chunk it took: its bytes may be fetched again. */
  release(chunk: CompletedFetch): void {
    this.bufferedBytes -= chunk.records.length;
    letGoOfFrame(chunk);
    // Only room for a fetch is news to the loop.
    if (this.available >= this.requestBytes) this.onSpace();
  }

  /** Drops waiting chunks that `match` (a partition sought, paused or revoked) and frees their bytes. */
  drop(match: (chunk: CompletedFetch) => boolean): number {
    let freed = 0;
    const kept: CompletedFetch[] = [];
    for (let i = this.head; i < this.queue.length; i++) {
      const chunk = this.queue[i];
      if (match(chunk)) {
        freed += chunk.records.length;
        letGoOfFrame(chunk);
      } else kept.push(chunk);
    }
    this.queue = kept;
    this.head = 0;
    if (freed > 0) {
      this.bufferedBytes -= freed;
      this.onSpace();
    }
    return freed;
  }

  /** Resolves at the next push or notify, or rejects when `signal` aborts. */
  wait(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const done = () => {
        this.waiters.delete(done);
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        this.waiters.delete(done);
        reject(signal?.reason);
      };
      this.waiters.add(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Wakes every waiter: something other than data changed (an error to report, a close). */
  notify(): void {
    if (this.waiters.size === 0) return;
    for (const waiter of [...this.waiters]) waiter();
  }
}
