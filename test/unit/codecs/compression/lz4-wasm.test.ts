import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CompressionError } from '../../../../codecs/compression/errors.js';
import { lz4Compress, lz4Decompress } from '../../../../codecs/compression/index.js';
import {
  LZ4_OUTPUT_OVERFLOW,
  lz4BlockBound,
  lz4CompressBlock,
  lz4DecompressBlock,
} from '../../../../codecs/compression/lz4-block.js';
import {
  LZ4_COMPRESS_WASM_BASE64,
  LZ4_DECOMPRESS_WASM_BASE64,
  LZ4_WASM_MAX_BLOCK,
  lz4BlockCompressor,
  lz4BlockDecompressor,
  makeWasmLz4Compressor,
  makeWasmLz4Decompressor,
} from '../../../../codecs/compression/lz4-wasm.js';
import { assembleWat } from '../../../../scripts/wat-assemble.js';
import { Rng } from '../../../conformance/random.js';

/** Seeded integers below a bound (the tests' shared generator), so a failure reproduces. */
function rng(seed: number): (bound: number) => number {
  const rand = new Rng(seed);
  return (bound) => rand.int(bound);
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
  it.each([
    ['codecs/lz4-compress.wat', LZ4_COMPRESS_WASM_BASE64],
    ['codecs/lz4-decompress.wat', LZ4_DECOMPRESS_WASM_BASE64],
  ])('embeds exactly the assembly of %s', (file, embedded) => {
    const wat = readFileSync(new URL(`../../../../${file}`, import.meta.url), 'utf8');
    expect(Buffer.from(assembleWat(wat)).toString('base64')).toBe(embedded);
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

  it('is undefined, as the decoder is, where the module does not compile (the JS codec runs there)', () => {
    const refuse = (): object => {
      throw new Error('WebAssembly compilation disallowed');
    };
    expect(makeWasmLz4Compressor({ compile: refuse })).toBeUndefined();
    expect(makeWasmLz4Decompressor({ compile: refuse })).toBeUndefined();
  });
});

const wasmDecompress = makeWasmLz4Decompressor();

/** The WebAssembly decoder (throwing a plain Error, which outcome() rejects, where it is missing). */
function wasmDecode(...args: Parameters<typeof lz4DecompressBlock>): number {
  if (wasmDecompress === undefined) throw new Error('no WebAssembly decoder');
  return wasmDecompress(...args);
}

/** What a block decoder did: its result and the bytes it wrote, or the error it threw. */
function outcome(
  decode: typeof lz4DecompressBlock,
  block: Uint8Array,
  room: number,
  windowBytes = 0,
): { result: number; output?: string } | { error: string } {
  const dst = Buffer.alloc(windowBytes + room + 16, 0xaa);
  dst.fill(0x5a, 0, windowBytes);
  try {
    const result = decode(block, 1, block.length, dst, windowBytes, windowBytes + room, 0, fail);
    const output = result === LZ4_OUTPUT_OVERFLOW ? undefined : dst.subarray(0, result).toString('base64');
    return { result, output };
  } catch (err) {
    expect(err).toBeInstanceOf(CompressionError);
    return { error: (err as Error).message };
  }
}

/** A compressed block of `size` bytes of shape `kind`, at offset 1 of the returned buffer. */
function compressedBlock(size: number, kind: number, next: (bound: number) => number): Buffer {
  const src = sample(size, kind, next);
  const dst = Buffer.alloc(1 + lz4BlockBound(size));
  return dst.subarray(0, lz4CompressBlock(src, 0, size, dst, 1));
}

describe('LZ4 block decoder in WebAssembly', () => {
  it('is the decoder lz4Decompress runs on Node', () => {
    expect(wasmDecompress).toBeDefined();
    expect(lz4BlockDecompressor()).not.toBe(lz4DecompressBlock);
  });

  it('decodes what the compressor wrote, every shape and size up to 64 KiB, exactly as the JS decoder', () => {
    const next = rng(0xdec0de);
    for (let i = 0; i < 80; i++) {
      const size = i < 30 ? i : next(LZ4_WASM_MAX_BLOCK + 1);
      const block = compressedBlock(size, i % 5, next);
      const ours = outcome(wasmDecode, block, size);
      expect(ours, `case ${i}`).toEqual(outcome(lz4DecompressBlock, block, size));
      expect(ours).toHaveProperty('result', size);
    }
  });

  it('gives the JS decoder result or typed error for truncated, corrupted and overlong blocks', () => {
    const next = rng(0xbad);
    const kinds = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const size = 1 + next(i % 2 === 0 ? 300 : 20000);
      const good = compressedBlock(size, 1 + (i % 4), next);
      const bad = Buffer.from(good);
      let input: Buffer = bad;
      let room = size;
      switch (i % 5) {
        case 0: // truncated
          input = bad.subarray(0, 1 + next(bad.length - 1));
          break;
        case 1: // a few corrupted bytes (tokens, lengths, offsets, literals alike)
          for (let k = 1 + next(3); k > 0; k--) bad[1 + next(bad.length - 1)] = next(256);
          break;
        case 2: // overlong: trailing garbage after the last sequence
          input = Buffer.concat([bad, Buffer.from(Array.from({ length: 1 + next(40) }, () => next(256)))]);
          break;
        case 3: // output room too small
          room = next(size);
          break;
        default: // a run of 255 length bytes (a literal or match length that runs on)
          bad.fill(255, 1 + next(bad.length - 1), bad.length);
      }
      const js = outcome(lz4DecompressBlock, input, room);
      expect(outcome(wasmDecode, input, room), `case ${i}`).toEqual(js);
      kinds.add(
        'error' in js
          ? js.error.replace(/offset [0-9]+/, 'offset N')
          : js.result === LZ4_OUTPUT_OVERFLOW
            ? 'overflow'
            : 'ok',
      );
    }
    // Every check of the decoder was reached.
    expect([...kinds].sort()).toEqual(
      [
        'lz4: block ends inside a sequence (compression)',
        'lz4: literal length runs past the end (compression)',
        'lz4: literals run past the end of the block (compression)',
        'lz4: match length runs past the end (compression)',
        'lz4: match offset N points before the output start (compression)',
        'lz4: match offset runs past the end (compression)',
        'ok',
        'overflow',
      ].sort(),
    );
  });

  it("lets a match reach into earlier output (a linked frame's window) as the JS decoder does", () => {
    // Token: 0 literals, match length 4; offset 3 into the 5 bytes written before the block.
    const block = Buffer.from([0, 0x00, 3, 0, 0x50, 1, 2, 3, 4, 5]);
    const ours = outcome(wasmDecode, block, 16, 5);
    expect(ours).toEqual(outcome(lz4DecompressBlock, block, 16, 5));
    expect(ours).toHaveProperty('result', 5 + 4 + 5);
  });

  it('hands blocks over 64 KiB (in or out) to the JS decoder', () => {
    const next = rng(3);
    const block = compressedBlock(LZ4_WASM_MAX_BLOCK + 5000, 2, next);
    expect(outcome(wasmDecode, block, LZ4_WASM_MAX_BLOCK + 5000)).toEqual(
      outcome(lz4DecompressBlock, block, LZ4_WASM_MAX_BLOCK + 5000),
    );
  });
});
