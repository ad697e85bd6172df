/**
 * Memory for decompressed batches, carved from shared 1 MiB slabs instead
 * of one fresh ArrayBuffer per batch.
 *
 * Why: on Node 24 (V8 13.6) every new ArrayBuffer feeds V8's external-memory
 * accounting, which starts a major GC far more often than Node 20's did when
 * many small buffers are made: with a consumer-sized heap, 64 KiB outputs
 * cost about 1 CPU second per GB allocated there, 1 MiB slabs about a third
 * of that (bench/results/decompress.md). Outputs are views, so a slab lives
 * while any record of any batch carved from it is referenced, as with Node's
 * own Buffer pool; outputs never overlap.
 *
 * A decompressor reserves an upper bound, writes, and commits what it used;
 * only committed bytes are taken, so an exact size is not needed up front.
 * Reservations do not nest: everything here is synchronous, and a
 * decompressor that throws simply never commits.
 */

const SLAB_SIZE = 1024 * 1024;
/** Larger outputs get a buffer of their own: carving them would strand most of a slab. */
const MAX_CARVED = SLAB_SIZE / 4;

let slab: ArrayBuffer = new ArrayBuffer(0);
let used = 0;

/** Room for up to `max` bytes of output (uninitialised); pass it to `commitOutput` when done. */
export function reserveOutput(max: number): Buffer {
  if (max > MAX_CARVED) return Buffer.allocUnsafeSlow(max);
  if (slab.byteLength - used < max) {
    slab = Buffer.allocUnsafeSlow(SLAB_SIZE).buffer as ArrayBuffer;
    used = 0;
  }
  return Buffer.from(slab, used, max);
}

/** Takes the first `length` bytes of the latest reservation and returns them. */
export function commitOutput(out: Buffer, length: number): Buffer {
  // 8-byte steps keep every output's start aligned, as a fresh buffer's would be.
  if (out.buffer === slab && out.byteOffset === used) used = Math.min(slab.byteLength, (used + length + 7) & ~7);
  return length === out.length ? out : out.subarray(0, length);
}
