/**
 * The hook through which a connection's owner may choose the memory large response frames are read into
 * (a consumer reusing Fetch response memory: src/consumer/fetch/frame-pool.ts). The network layer knows only
 * this interface; who holds a frame after it is decoded, and when its memory may be handed out again, is the
 * owner's business. Without an allocator every frame is fresh memory of its own, as before.
 */

/** Hands out the memory of frames the readers cannot copy out of their scratch (direct-reader.ts). */
export interface FrameAllocator {
  /**
   * Memory for one frame of `size` bytes (already checked against maxResponseBytes): a Buffer of exactly that
   * length, which the socket then fills. Called when the frame's size prefix has been read.
   */
  allocate(size: number): Buffer;
  /** The frame `allocate` returned is complete and is about to be decoded; every frame allocated is told once, in order. */
  received(frame: Buffer): void;
}
