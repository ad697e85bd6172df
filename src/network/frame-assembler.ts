/**
 * The frame reader for sockets that hand us their bytes as chunks ('data' events): where a socket ignores the
 * `onread` option that direct-reader.ts needs (a custom SocketFactory that does not pass it on), and on the
 * server side of the test fakes.
 */
import { FrameSizeError } from './errors.js';
import type { FrameAllocator } from './frame-allocator.js';

/** Every Kafka frame starts with its size: a 4-byte big-endian signed integer. */
export const SIZE_PREFIX_BYTES = 4;

/** Throws FrameSizeError for a size prefix below zero or above `maxFrameBytes`: checked before any allocation. */
export function checkFrameSize(size: number, maxFrameBytes: number): void {
  if (size < 0 || size > maxFrameBytes) throw new FrameSizeError(size, maxFrameBytes);
}

/**
 * Cuts a byte stream into Kafka frames (a 4-byte big-endian size, then that many bytes).
 *
 * A frame that lies inside one chunk is handed out as a view of the chunk, with no copy. A frame that spans
 * chunks is copied into one buffer allocated at exactly its size when its size prefix is read, so assembly
 * never reallocates. The size is checked against `maxFrameBytes` before anything is allocated, so a hostile
 * or confused peer cannot make us reserve gigabytes.
 */
export class FrameAssembler {
  private readonly sizeBytes = Buffer.alloc(SIZE_PREFIX_BYTES);
  private sizeFilled = 0;
  /** The frame being assembled across chunks, if any. */
  private partial: Buffer | undefined;
  private partialFilled = 0;
  /** The allocator `partial` came from, told when it is complete. */
  private partialFrom: FrameAllocator | undefined;
  /** Where frames that span chunks are assembled (frame-allocator.ts); fresh memory when unset. */
  allocator: FrameAllocator | undefined;

  constructor(
    private readonly maxFrameBytes: number,
    private readonly onFrame: (frame: Buffer) => void,
  ) {}

  /** Bytes received of a frame not yet complete (prefix included); non-zero means the stream stopped mid-frame. */
  get bufferedBytes(): number {
    return this.partial === undefined ? this.sizeFilled : SIZE_PREFIX_BYTES + this.partialFilled;
  }

  /** Feeds one chunk; calls `onFrame` for every frame it completes. Throws FrameSizeError on an invalid size. */
  push(chunk: Buffer): void {
    let offset = 0;
    const end = chunk.length;
    while (offset < end) {
      if (this.partial !== undefined) {
        const n = Math.min(this.partial.length - this.partialFilled, end - offset);
        chunk.copy(this.partial, this.partialFilled, offset, offset + n);
        this.partialFilled += n;
        offset += n;
        if (this.partialFilled === this.partial.length) {
          const frame = this.partial;
          this.partial = undefined;
          this.partialFilled = 0;
          if (this.partialFrom !== undefined) {
            this.partialFrom.received(frame);
            this.partialFrom = undefined;
          }
          this.onFrame(frame);
        }
        continue;
      }

      let size: number;
      if (this.sizeFilled === 0 && end - offset >= SIZE_PREFIX_BYTES) {
        size = chunk.readInt32BE(offset);
        offset += SIZE_PREFIX_BYTES;
      } else {
        const n = Math.min(SIZE_PREFIX_BYTES - this.sizeFilled, end - offset);
        chunk.copy(this.sizeBytes, this.sizeFilled, offset, offset + n);
        this.sizeFilled += n;
        offset += n;
        if (this.sizeFilled < SIZE_PREFIX_BYTES) return;
        this.sizeFilled = 0;
        size = this.sizeBytes.readInt32BE(0);
      }
      checkFrameSize(size, this.maxFrameBytes);

      if (end - offset >= size) {
        const frame = chunk.subarray(offset, offset + size);
        offset += size;
        this.onFrame(frame);
      } else {
        // allocUnsafeSlow: its own ArrayBuffer of exactly `size` bytes, not a slice of Node's shared pool.
        const allocator = this.allocator;
        this.partial = allocator === undefined ? Buffer.allocUnsafeSlow(size) : allocator.allocate(size);
        this.partialFrom = allocator;
        this.partialFilled = 0;
      }
    }
  }
}
