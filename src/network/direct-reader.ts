/**
 * The frame reader for sockets that read straight into memory we choose (the `onread` option of `net.connect`
 * and `tls.connect`, which Node, Bun and Deno honour; see socket.ts). It removes the second copy of every large
 * response: the socket's bytes land in the frame itself, not in a chunk we then copy into the frame.
 *
 * While no large frame is being read, reads go into one reused scratch buffer; every frame found complete in it
 * is copied out into memory of its own (the scratch is reused, and a frame's keys and values are views the
 * application may keep: docs/ARCHITECTURE.md, "The fetch path"). Once a size prefix says a frame is larger than
 * the scratch, the frame is allocated at exactly its size (checked against maxFrameBytes first, as the chunk path
 * does), the bytes already read are copied in, and the socket is handed the rest of the frame to read into.
 * Such a frame comes from the connection's FrameAllocator when it has one (frame-allocator.ts), else it is
 * fresh memory.
 */
import type { FrameAllocator } from './frame-allocator.js';
import { checkFrameSize, SIZE_PREFIX_BYTES } from './frame-assembler.js';

/** Node's own read size: frames up to this size are read into the scratch and copied out. */
export const DEFAULT_SCRATCH_BYTES = 64 * 1024;

export class DirectFrameReader {
  /** Allocated on the first read, so a connection whose socket never reads this way holds none. */
  private scratch: Buffer | undefined;
  /** Bytes of the scratch read but not yet cut into frames: [start, end). */
  private start = 0;
  private end = 0;
  /** The frame the socket is reading into, once its size is known to exceed the scratch. */
  private frame: Buffer | undefined;
  private frameFilled = 0;
  /** The allocator `frame` came from, told when it is complete. */
  private frameFrom: FrameAllocator | undefined;
  /** Where frames larger than the scratch are read into; fresh memory when unset. */
  allocator: FrameAllocator | undefined;

  constructor(
    private readonly maxFrameBytes: number,
    private readonly onFrame: (frame: Buffer) => void,
    private readonly scratchBytes = DEFAULT_SCRATCH_BYTES,
  ) {
    // A size prefix must always fit, or a prefix split at the scratch's end could not be completed.
    if (scratchBytes < 2 * SIZE_PREFIX_BYTES) throw new RangeError(`scratch of ${scratchBytes} bytes is too small`);
  }

  /** Bytes received of a frame not yet complete (prefix included); non-zero means the stream stopped mid-frame. */
  get bufferedBytes(): number {
    return this.frame === undefined ? this.end - this.start : SIZE_PREFIX_BYTES + this.frameFilled;
  }

  /** Where the socket's next read goes (never empty): the rest of the large frame, else the scratch's free end. */
  nextBuffer(): Buffer {
    if (this.frame !== undefined) return this.frame.subarray(this.frameFilled);
    this.scratch ??= Buffer.allocUnsafeSlow(this.scratchBytes);
    return this.scratch.subarray(this.end);
  }

  /**
   * The socket wrote `bytes` bytes at the start of the last buffer nextBuffer() returned. Calls `onFrame` for every
   * frame this completes; throws FrameSizeError on an invalid size prefix, before allocating anything for it.
   */
  read(bytes: number): void {
    const frame = this.frame;
    if (frame === undefined) {
      this.end += bytes;
      this.cutScratch();
      return;
    }
    this.frameFilled += bytes;
    if (this.frameFilled < frame.length) return;
    this.frame = undefined;
    this.frameFilled = 0;
    if (this.frameFrom !== undefined) {
      this.frameFrom.received(frame);
      this.frameFrom = undefined;
    }
    this.onFrame(frame);
  }

  /** Hands out every complete frame in the scratch, then makes room for the rest of the incomplete one. */
  private cutScratch(): void {
    const scratch = this.scratch!;
    while (this.end - this.start >= SIZE_PREFIX_BYTES) {
      const size = scratch.readInt32BE(this.start);
      checkFrameSize(size, this.maxFrameBytes);
      const body = this.start + SIZE_PREFIX_BYTES;
      if (this.end - body < size) {
        if (SIZE_PREFIX_BYTES + size > scratch.length) this.readInPlace(scratch, body, size);
        else this.makeRoom(scratch, SIZE_PREFIX_BYTES + size);
        return;
      }
      // allocUnsafe: a small frame takes a slice of Node's shared pool, a larger one its own ArrayBuffer.
      const frame = Buffer.allocUnsafe(size);
      scratch.copy(frame, 0, body, body + size);
      this.start = body + size;
      this.onFrame(frame);
    }
    this.makeRoom(scratch, SIZE_PREFIX_BYTES);
  }

  /** Switches to reading a frame larger than the scratch into its own memory: only what is already read is copied. */
  private readInPlace(scratch: Buffer, body: number, size: number): void {
    // allocUnsafeSlow: its own ArrayBuffer of exactly `size` bytes, not a slice of Node's shared pool.
    const allocator = this.allocator;
    const frame = allocator === undefined ? Buffer.allocUnsafeSlow(size) : allocator.allocate(size);
    this.frameFrom = allocator;
    this.frameFilled = scratch.copy(frame, 0, body, this.end);
    this.frame = frame;
    this.start = 0;
    this.end = 0;
  }

  /** Moves the unread bytes to the scratch's start when `needed` bytes from `start` would not fit after it. */
  private makeRoom(scratch: Buffer, needed: number): void {
    if (this.start === this.end) {
      this.start = 0;
      this.end = 0;
    } else if (this.start + needed > scratch.length) {
      scratch.copyWithin(0, this.start, this.end);
      this.end -= this.start;
      this.start = 0;
    }
  }
}
