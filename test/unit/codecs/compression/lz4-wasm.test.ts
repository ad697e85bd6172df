import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CompressionError } from '../../../../codecs/compression/errors.js';
import { lz4Compress, lz4Decompress } from '../../../../codecs/compression/index.js';
import { lz4BlockBound, lz4CompressBlock, lz4DecompressBlock } from '../../../../codecs/compression/lz4-block.js';
import {
  LZ4_COMPRESS_WASM_BASE64,
  LZ4_WASM_MAX_BLOCK,
  lz4BlockCompressor,
  makeWasmLz4Compressor,
} from '../../../../codecs/compression/lz4-wasm.js';
import { assembleWat } from '../../../../scripts/wat-assemble.js';

/** Deterministic pseudo-random generator (xorshift), so a failure reproduces. */
function rng(seed: number): (bound: number) => number {
  let x = seed | 1;
  return (bound) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % bound;
  };
}

/**
 * `n` bytes of one of several shapes: random, runs of one byte, random words from a small alphabet (record-like),
 * repeats of a short period (overlapping matches), and mixes with long literal stretches.
 */
function sample(n: number, kind: number, next: (bound: number) => number): Buffer {
  const out = Buffer.allocUnsafe(n);
  const words = Array.from({ length: 16 }, () =>
    Buffer.from(Array.from({ length: 3 + next(12) }, () => 97 + next(26))),
  );
  const period = 1 + next(9);
  for (let i = 0; i < n; ) {
    if (kind === 0) out[i++] = next(256);
    else if (kind === 1) {
      const b = next(256);
      for (let run = 1 + next(600); run > 0 && i < n; run--) out[i++] = b;
    } else if (kind === 2) {
      const w = words[next(words.length)];
      for (let k = 0; k < w.length && i < n; k++) out[i++] = w[k];
    } else if (kind === 3) {
      out[i] = i < period ? next(256) : out[i - period];
      i++;
    } else {
      const random = next(2) === 0;
      for (let run = 1 + next(3000); run > 0 && i < n; run--) {
        out[i] = random || i < 64 ? next(256) : out[i - 64];
        i++;
      }
    }
  }
  return out;
}

function fail(reason: string): never {
  throw new CompressionError('lz4', reason);
}

/** Decodes one block with the JS decoder into exactly `size` bytes. */
function decodeBlock(block: Uint8Array, size: number): Buffer {
  const out = Buffer.alloc(size);
  const end = lz4DecompressBlock(block, 0, block.length, out, 0, size, 0, fail);
  expect(end).toBe(size);
  return out;
}

const wasmCompress = makeWasmLz4Compressor();

describe('LZ4 block compressor in WebAssembly', () => {
  it('embeds exactly the assembly of codecs/lz4-compress.wat', () => {
    const wat = readFileSync(new URL('../../../../codecs/lz4-compress.wat', import.meta.url), 'utf8');
    expect(Buffer.from(assembleWat(wat)).toString('base64')).toBe(LZ4_COMPRESS_WASM_BASE64);
  });

  it('is the compressor lz4Compress runs on Node', () => {
    expect(wasmCompress).toBeDefined();
    expect(lz4BlockCompressor()).not.toBe(lz4CompressBlock);
  });

  it('round-trips through the JS decoder: every shape, sizes 0-70 KiB, odd source and destination offsets', () => {
    const next = rng(0x1a2b3c);
    const sizes = [
      ...Array.from({ length: 40 }, (_, i) => i),
      ...[63, 64, 65, 255, 256, 270, 4095, 4096, 65535, LZ4_WASM_MAX_BLOCK],
      ...Array.from({ length: 60 }, () => next(LZ4_WASM_MAX_BLOCK)),
    ];
    let compressible = 0;
    for (const [i, size] of sizes.entries()) {
      const kind = i % 5;
      const offset = 1 + 2 * next(50);
      const src = Buffer.alloc(offset + size + 9, 0xee);
      sample(size, kind, next).copy(src, offset);
      const dstStart = 3 + 2 * next(20);
      const dst = Buffer.alloc(dstStart + lz4BlockBound(size), 0xcc);
      const end = wasmCompress?.(src, offset, offset + size, dst, dstStart) ?? -1;
      expect(end).toBeGreaterThan(dstStart);
      expect(end - dstStart).toBeLessThanOrEqual(lz4BlockBound(size));
      // Nothing written before the destination offset.
      expect(dst.subarray(0, dstStart).every((b) => b === 0xcc)).toBe(true);
      const decoded = decodeBlock(dst.subarray(dstStart, end), size);
      expect(decoded.equals(src.subarray(offset, offset + size)), `size ${size} kind ${kind}`).toBe(true);
      if (kind !== 0 && size > 1000 && end - dstStart < size / 2) compressible++;
    }
    // The compressible shapes did compress (a compressor that emitted only literals would pass the rest).
    expect(compressible).toBeGreaterThan(20);
  });

  it('writes the same bytes as the JS compressor (same strategy, same hash, same match extents)', () => {
    const next = rng(99);
    for (let i = 0; i < 60; i++) {
      const src = sample(next(LZ4_WASM_MAX_BLOCK + 1), i % 5, next);
      const bound = lz4BlockBound(src.length);
      const js = Buffer.alloc(bound);
      const wasm = Buffer.alloc(bound);
      const jsEnd = lz4CompressBlock(src, 0, src.length, js, 0);
      const wasmEnd = wasmCompress?.(src, 0, src.length, wasm, 0) ?? -1;
      expect(wasmEnd, `case ${i}`).toBe(jsEnd);
      expect(wasm.equals(js), `case ${i}`).toBe(true);
    }
  });

  it('gives the same output for the same input (the hash table is cleared per block)', () => {
    const next = rng(5);
    const a = sample(30000, 2, next);
    const b = sample(50000, 4, next);
    const bound = lz4BlockBound(a.length);
    const first = Buffer.alloc(bound);
    const firstEnd = wasmCompress?.(a, 0, a.length, first, 0) ?? 0;
    wasmCompress?.(b, 0, b.length, Buffer.alloc(lz4BlockBound(b.length)), 0);
    const again = Buffer.alloc(bound);
    const againEnd = wasmCompress?.(a, 0, a.length, again, 0) ?? -1;
    expect(againEnd).toBe(firstEnd);
    expect(again.equals(first)).toBe(true);
  });

  it('hands blocks over 64 KiB to the JS compressor (the module holds one block)', () => {
    const src = sample(LZ4_WASM_MAX_BLOCK + 1000, 2, rng(7));
    const dst = Buffer.alloc(lz4BlockBound(src.length));
    const end = wasmCompress?.(src, 0, src.length, dst, 0) ?? 0;
    expect(end).toBe(lz4CompressBlock(src, 0, src.length, Buffer.alloc(dst.length), 0));
    expect(decodeBlock(dst.subarray(0, end), src.length).equals(src)).toBe(true);
  });

  it('lz4Compress frames of many sizes decode back (multi-block, stored blocks)', () => {
    const next = rng(31337);
    for (const size of [0, 1, 12, 13, 100, 65535, 65536, 65537, 200_000, 300_001]) {
      const data = sample(size, size % 5, next);
      expect(lz4Decompress(lz4Compress(data), 1 << 30).equals(data), `size ${size}`).toBe(true);
    }
  });

  it('is undefined where the module does not compile (the JS compressor runs there)', () => {
    const refuse = (): object => {
      throw new Error('WebAssembly compilation disallowed');
    };
    expect(makeWasmLz4Compressor({ compile: refuse })).toBeUndefined();
  });
});
