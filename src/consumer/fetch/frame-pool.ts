/**
 * Reused Fetch response memory (docs/ARCHITECTURE.md, "The fetch path").
 *
 * Fresh memory for every large response costs the kernel's page faults and zeroing (on a machine that reclaims
 * memory, glibc gives each freed response back and the next is faulted in again: bench/results/fresh-memory.md),
 * and V8 counts it as external memory, which brings on old-space collections. So a consumer's fetch connections
 * read large frames (those the network layer would allocate, above its 64 KiB scratch) into memory from this
 * pool, and a frame's memory goes back to the pool once nothing of the consumer reads it any more:
 *
 * - the response itself, until the fetch source has applied it (`ConnectionFrames.responseHandled`);
 * - every chunk carved from it, until the buffer releases or drops the chunk (fetch-buffer.ts), or with default
 *   options until its last slice is decoded (delivery.ts): records are then decoded from copies (chunk-reader.ts);
 * - with `reuseFetchBuffers`, whose records are views into the frame, every batch delivered from it, until that
 *   batch is settled (delivery.ts): a detached batch of `processBatches` may outlive its chunk.
 *
 * Each holder releases once (the holders clear their reference as they release), so memory can come back late
 * (a batch never settled leaves it to the garbage collector) but never early. Under `reuseFetchBuffers`, what the
 * application keeps of a record past its batch is its own business: the documented contract is then that keys,
 * values and headers are valid until the batch is finished.
 */
import type { FrameAllocator } from '../../network/frame-allocator.js';

/** One frame's memory and the holders it still has; back to its pool when the last lets go. */
export class FrameLease {
  /** Starts held by the response being read into it. */
  private holders = 1;

  constructor(
    readonly memory: ArrayBuffer,
    private readonly pool: FramePool,
  ) {}

  hold(): void {
    this.holders++;
  }

  release(): void {
    if (--this.holders === 0) this.pool.recycle(this);
  }
}

/** A holder lets go of its lease, once: its reference is cleared, so a second call finds nothing to release. */
export function letGoOfFrame(holder: { frame: FrameLease | undefined }): void {
  const lease = holder.frame;
  if (lease === undefined) return;
  holder.frame = undefined;
  lease.release();
}

/** Counts for tests and benchmarks: how often memory was made, and how often it was handed out again. */
export interface FramePoolStats {
  allocated: number;
  reused: number;
  idleBytes: number;
}

/**
 * Frame memory is made in size classes of an eighth of a power of two (at most 12.5 % above the frame), so a
 * buffer freed by one response fits the next of about the same size; a frame takes the smallest idle buffer that
 * fits. Memory returned when the idle buffers already hold `maxIdleBytes` (the consumer's maxBufferedBytes) is
 * left to the garbage collector.
 */
export class FramePool {
  /** Idle buffers, smallest first. */
  private readonly idle: ArrayBuffer[] = [];
  private idleBytes = 0;
  private readonly leases = new WeakMap<ArrayBuffer, FrameLease>();
  private allocated = 0;
  private reused = 0;

  constructor(readonly maxIdleBytes: number) {}

  get stats(): FramePoolStats {
    return { allocated: this.allocated, reused: this.reused, idleBytes: this.idleBytes };
  }

  /** An allocator for one connection's frames. */
  connectionFrames(): ConnectionFrames {
    return new ConnectionFrames(this);
  }

  /** Memory for a frame of `size` bytes, held by its response. */
  take(size: number): Buffer {
    let memory: ArrayBuffer | undefined;
    const idle = this.idle;
    for (let i = 0; i < idle.length; i++) {
      if (idle[i].byteLength >= size) {
        memory = idle[i];
        idle.splice(i, 1);
        this.idleBytes -= memory.byteLength;
        this.reused++;
        break;
      }
    }
    if (memory === undefined) {
      memory = Buffer.allocUnsafeSlow(sizeClass(size)).buffer as ArrayBuffer;
      this.allocated++;
    }
    this.leases.set(memory, new FrameLease(memory, this));
    return Buffer.from(memory, 0, size);
  }

  /** The lease of the frame `view` lies in, if it is pooled memory. */
  leaseOf(view: Buffer): FrameLease | undefined {
    return this.leases.get(view.buffer as ArrayBuffer);
  }

  /** A lease's last holder let go: its memory may be handed out again. */
  recycle(lease: FrameLease): void {
    const memory = lease.memory;
    if (this.leases.get(memory) !== lease) return;
    this.leases.delete(memory);
    if (this.idleBytes + memory.byteLength > this.maxIdleBytes) return;
    const idle = this.idle;
    let i = 0;
    while (i < idle.length && idle[i].byteLength < memory.byteLength) i++;
    idle.splice(i, 0, memory);
    this.idleBytes += memory.byteLength;
  }
}

/**
 * One fetch connection's frames: allocated from the pool, and held for their response until the fetch source
 * says it has applied the response it awaited. A connection carries one fetch at a time, so when that response
 * is handled every frame received before it is too (answers to abandoned requests are dropped unread).
 */
export class ConnectionFrames implements FrameAllocator {
  /** Frames received whose response may still be being applied. */
  private readonly unhandled: FrameLease[] = [];

  constructor(private readonly pool: FramePool) {}

  allocate(size: number): Buffer {
    return this.pool.take(size);
  }

  received(frame: Buffer): void {
    const lease = this.pool.leaseOf(frame);
    if (lease !== undefined) this.unhandled.push(lease);
  }

  /** The response just awaited has been applied: its chunks hold what they need; the response lets go. */
  responseHandled(): void {
    const unhandled = this.unhandled;
    if (unhandled.length === 0) return;
    for (let i = 0; i < unhandled.length; i++) unhandled[i].release();
    unhandled.length = 0;
  }
}

/** `size` rounded up to the next eighth of its power of two. */
export function sizeClass(size: number): number {
  if (size <= 8) return 8;
  const step = 2 ** (Math.floor(Math.log2(size - 1)) - 3);
  return Math.ceil(size / step) * step;
}
