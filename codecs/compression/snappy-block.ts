import { CompressionError } from './errors.js';

/**
 * The raw Snappy block format (no framing): a varint uncompressed length,
 * then literal and copy elements. Decoding writes into a caller-provided
 * buffer so the xerial framing can decode all its blocks into one output
 * allocation; every read and write is bounds-checked.
 */

/** A block's declared uncompressed length and where its elements begin. */
export interface SnappyBlockHeader {
  length: number;
  dataStart: number;
}

/** One block of a stream: its elements are `src[dataStart, end)` and decode to `length` bytes. */
export interface SnappyBlock {
  dataStart: number;
  end: number;
  length: number;
}

function fail(reason: string): never {
  throw new CompressionError('snappy', reason);
}

/**
 * No element expands more than a 3-byte copy of 64 bytes does, so a block
 * can never decode to more than ~21.4x its size: a larger declared length
 * is corrupt, and is refused before anything is allocated for it.
 */
const MAX_EXPANSION = 22;

export function readSnappyBlockHeader(src: Uint8Array, start: number, end: number): SnappyBlockHeader {
  let length = 0;
  let pos = start;
  for (let shift = 0; shift < 35; shift += 7) {
    if (pos >= end) fail('block length runs past the end');
    const b = src[pos++];
    length += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) {
      if (length > 0xffffffff) fail('block length does not fit in 32 bits');
      if (length > (end - pos) * MAX_EXPANSION) fail(`block of ${end - pos} bytes cannot hold ${length} bytes`);
      return { length, dataStart: pos };
    }
  }
  return fail('block length varint longer than 5 bytes');
}

/**
 * Decodes the elements in `src[start, end)` into `dst` at `dstStart`; they
 * must produce exactly `length` bytes. Returns the end position in `dst`.
 */
export function decodeSnappyElements(
  src: Uint8Array,
  start: number,
  end: number,
  dst: Uint8Array,
  dstStart: number,
  length: number,
): number {
  const dstEnd = dstStart + length;
  if (dstEnd > dst.length) fail('output buffer too small for the declared length');
  let s = start;
  let d = dstStart;
  while (s < end) {
    const tag = src[s++];
    const kind = tag & 3;
    if (kind === 0) {
      let len = (tag >>> 2) + 1;
      if (len > 60) {
        const extra = len - 60;
        if (s + extra > end) fail('literal length runs past the end');
        len = 0;
        for (let i = 0; i < extra; i++) len += src[s + i] * 2 ** (8 * i);
        len += 1;
        s += extra;
      }
      if (len > end - s) fail('literal runs past the end of the input');
      if (len > dstEnd - d) fail('literal overflows the declared length');
      if (len < 64) {
        for (let i = 0; i < len; i++) dst[d + i] = src[s + i];
      } else {
        dst.set(src.subarray(s, s + len), d);
      }
      s += len;
      d += len;
      continue;
    }
    let len: number;
    let offset: number;
    if (kind === 1) {
      if (s >= end) fail('copy runs past the end of the input');
      len = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | src[s++];
    } else if (kind === 2) {
      if (s + 2 > end) fail('copy runs past the end of the input');
      len = (tag >>> 2) + 1;
      offset = src[s] | (src[s + 1] << 8);
      s += 2;
    } else {
      if (s + 4 > end) fail('copy runs past the end of the input');
      len = (tag >>> 2) + 1;
      offset = (src[s] | (src[s + 1] << 8) | (src[s + 2] << 16) | (src[s + 3] << 24)) >>> 0;
      s += 4;
    }
    if (offset === 0 || offset > d - dstStart) fail(`copy offset ${offset} points before the block start`);
    if (len > dstEnd - d) fail('copy overflows the declared length');
    let from = d - offset;
    if (offset >= len && len >= 64) {
      dst.copyWithin(d, from, from + len);
      d += len;
    } else {
      // Overlapping copies repeat the last `offset` bytes, so they go byte by byte.
      const stop = d + len;
      while (d < stop) dst[d++] = dst[from++];
    }
  }
  if (d !== dstEnd) fail(`block produced ${d - dstStart} bytes but declared ${length}`);
  return d;
}
