/**
 * The LZ4 block format: sequences of (token, literals, 2-byte offset,
 * match length). A small greedy compressor (LZ4's "fast" strategy with a
 * 4096-entry hash table) and a bounds-checked decoder that writes into a
 * caller-provided buffer. ./lz4-wasm.ts runs the same two in WebAssembly and
 * falls back to these where WebAssembly is missing (and for blocks over 64 KiB).
 */

const MIN_MATCH = 4;
/** The last 5 bytes of a block are always literals. */
const LAST_LITERALS = 5;
/** A match may not start within the last 12 bytes. */
const MF_LIMIT = 12;
const MAX_OFFSET = 65535;
const HASH_LOG = 12;
const SKIP_TRIGGER = 6;

const hashTable = new Int32Array(1 << HASH_LOG);

/** Worst-case compressed size of `n` input bytes. */
export function lz4BlockBound(n: number): number {
  return n + Math.floor(n / 255) + 16;
}

function read32(a: Uint8Array, i: number): number {
  return a[i] | (a[i + 1] << 8) | (a[i + 2] << 16) | (a[i + 3] << 24);
}

function hash(seq: number): number {
  return Math.imul(seq, 0x9e3779b1) >>> (32 - HASH_LOG);
}

function writeLength(dst: Uint8Array, op: number, rest: number): number {
  while (rest >= 255) {
    dst[op++] = 255;
    rest -= 255;
  }
  dst[op++] = rest;
  return op;
}

function emitSequence(
  src: Uint8Array,
  anchor: number,
  litLen: number,
  dst: Uint8Array,
  op: number,
  offset: number,
  matchLen: number,
): number {
  const tokenPos = op++;
  let token = 0;
  if (litLen >= 15) {
    token = 0xf0;
    op = writeLength(dst, op, litLen - 15);
  } else {
    token = litLen << 4;
  }
  // Short runs by hand: a subarray per sequence costs more than the copy.
  if (litLen < 32) for (let i = 0; i < litLen; i++) dst[op + i] = src[anchor + i];
  else dst.set(src.subarray(anchor, anchor + litLen), op);
  op += litLen;
  if (matchLen > 0) {
    dst[op++] = offset & 0xff;
    dst[op++] = offset >>> 8;
    const ml = matchLen - MIN_MATCH;
    if (ml >= 15) {
      token |= 0x0f;
      op = writeLength(dst, op, ml - 15);
    } else {
      token |= ml;
    }
  }
  dst[tokenPos] = token;
  return op;
}

/**
 * Compresses `src[start, end)` into `dst` at `dstStart` (which must have
 * lz4BlockBound(end - start) bytes of room). Returns the end position in dst.
 */
export function lz4CompressBlock(
  src: Uint8Array,
  start: number,
  end: number,
  dst: Uint8Array,
  dstStart: number,
): number {
  let op = dstStart;
  let anchor = start;
  if (end - start >= MF_LIMIT + 1) {
    hashTable.fill(-1);
    const matchLimit = end - MF_LIMIT;
    const extendLimit = end - LAST_LITERALS;
    let ip = start;
    let misses = 1 << SKIP_TRIGGER;
    // The 4 bytes at ip, rolled forward one byte at a time while the search steps by one (one load, not four).
    let seq = read32(src, ip);
    while (ip < matchLimit) {
      const h = hash(seq);
      let ref = hashTable[h];
      hashTable[h] = ip;
      // Byte by byte: most candidates differ in the first byte, so one load rejects them.
      if (
        ref < 0 ||
        ip - ref > MAX_OFFSET ||
        src[ref] !== (seq & 0xff) ||
        src[ref + 1] !== src[ip + 1] ||
        src[ref + 2] !== src[ip + 2] ||
        src[ref + 3] !== src[ip + 3]
      ) {
        // Step further the longer nothing matched, so incompressible data is passed over quickly.
        const step = misses++ >>> SKIP_TRIGGER;
        ip += step;
        // ip + 3 stays inside src while ip < matchLimit (MF_LIMIT bytes before the end).
        if (ip < matchLimit) seq = step === 1 ? (seq >>> 8) | (src[ip + 3] << 24) : read32(src, ip);
        continue;
      }
      misses = 1 << SKIP_TRIGGER;
      let p = ip;
      while (p > anchor && ref > start && src[p - 1] === src[ref - 1]) {
        p--;
        ref--;
      }
      let len = MIN_MATCH + (ip - p);
      while (p + len < extendLimit && src[p + len] === src[ref + len]) len++;
      op = emitSequence(src, anchor, p - anchor, dst, op, p - ref, len);
      ip = p + len;
      anchor = ip;
      if (ip < matchLimit) {
        if (ip - 2 >= start) hashTable[hash(read32(src, ip - 2))] = ip - 2;
        seq = read32(src, ip);
      }
    }
  }
  return emitSequence(src, anchor, end - anchor, dst, op, 0, 0);
}

/** Returned by lz4DecompressBlock when the output would pass `dstEnd`. */
export const LZ4_OUTPUT_OVERFLOW = -1;

/**
 * Decodes the block `src[start, end)` into `dst` from `dstPos`, never
 * writing at or past `dstEnd`. Back-references may reach anywhere after
 * `windowStart` (earlier blocks of a linked-block frame). Returns the end
 * position in dst, LZ4_OUTPUT_OVERFLOW when the output does not fit, or
 * throws `fail(reason)` for malformed input.
 */
export function lz4DecompressBlock(
  src: Uint8Array,
  start: number,
  end: number,
  dst: Uint8Array,
  dstPos: number,
  dstEnd: number,
  windowStart: number,
  fail: (reason: string) => never,
): number {
  let s = start;
  let d = dstPos;
  for (;;) {
    if (s >= end) fail('block ends inside a sequence');
    const token = src[s++];
    let litLen = token >>> 4;
    if (litLen === 15) {
      let b: number;
      do {
        if (s >= end) fail('literal length runs past the end');
        b = src[s++];
        litLen += b;
      } while (b === 255);
    }
    if (litLen > end - s) fail('literals run past the end of the block');
    if (litLen > dstEnd - d) return LZ4_OUTPUT_OVERFLOW;
    if (litLen < 64) {
      for (let i = 0; i < litLen; i++) dst[d + i] = src[s + i];
    } else {
      dst.set(src.subarray(s, s + litLen), d);
    }
    s += litLen;
    d += litLen;
    if (s === end) return d;
    if (end - s < 2) fail('match offset runs past the end');
    const offset = src[s] | (src[s + 1] << 8);
    s += 2;
    if (offset === 0 || offset > d - windowStart) fail(`match offset ${offset} points before the output start`);
    let matchLen = (token & 15) + MIN_MATCH;
    if ((token & 15) === 15) {
      let b: number;
      do {
        if (s >= end) fail('match length runs past the end');
        b = src[s++];
        matchLen += b;
      } while (b === 255);
    }
    if (matchLen > dstEnd - d) return LZ4_OUTPUT_OVERFLOW;
    let from = d - offset;
    if (offset >= matchLen && matchLen >= 64) {
      dst.copyWithin(d, from, from + matchLen);
      d += matchLen;
    } else {
      // Overlapping matches repeat the last `offset` bytes: copy forward byte by byte.
      const stop = d + matchLen;
      while (d < stop) dst[d++] = dst[from++];
    }
  }
}
