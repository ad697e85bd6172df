/**
 * Buffers for producer batches, reused (Java's BufferPool): a batch takes one of `bufferBytes` (the producer's
 * `batchSize`) when it writes its first record, and gives it back once the broker has answered for the batch.
 * Without it each batch's buffer started at 16 KiB and doubled as records came, copying 112 KiB per 128 KiB
 * batch, and every batch allocated its buffers anew (an external allocation V8 counts towards its next
 * collection). A batch that outgrows its buffer (a record larger than `batchSize`, or raw bytes past it under
 * compression) moves to a larger one of its own, which is not pooled.
 *
 * Only an answered batch gives its buffer back: by then the broker has read every byte of the request, so no
 * socket write can still be reading it. A batch that fails, expires or is split lets its buffer go to the
 * collector, since a write of it may still be queued on a connection.
 */
export class BatchBuffers {
  private readonly free: Buffer[] = [];

  constructor(
    /** Size of every pooled buffer. */
    readonly bufferBytes: number,
    /** Buffers kept while unused; more are dropped (the idle memory the pool may hold is this many buffers). */
    private readonly maxFree: number,
  ) {}

  /** A buffer of `bufferBytes`, reused when one is free. Its contents are whatever was written last. */
  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafe(this.bufferBytes);
  }

  /** Gives back a buffer `take()` returned; the caller must not touch it again. */
  give(buf: Buffer): void {
    if (buf.length === this.bufferBytes && this.free.length < this.maxFree) this.free.push(buf);
  }

  /** Buffers free for reuse now. */
  get freeCount(): number {
    return this.free.length;
  }
}
