import { describe, expect, it } from 'vitest';
import {
  CompressionError,
  decompress,
  lz4Compress,
  snappyCompress,
  zstdCompress,
  zstdCompressionAvailable,
} from '../../../../codecs/compression/index.js';
import { commitOutput, reserveOutput } from '../../../../codecs/compression/output-slab.js';

const LIMIT = 64 * 1024 * 1024;

function payload(seed: number, size: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i % 97 < 60 ? 0x61 + ((i + seed) % 7) : (i * seed * 31) >>> 3) & 0xff;
  return b;
}

describe('decompression output slab', () => {
  it('takes only committed bytes: the next reservation starts after them, 8-byte aligned', () => {
    const a = commitOutput(reserveOutput(1000), 13);
    const b = reserveOutput(100);
    expect(a.length).toBe(13);
    if (b.buffer === a.buffer) expect(b.byteOffset).toBe(a.byteOffset + 16);
    commitOutput(b, 100);
  });

  it('gives large outputs a buffer of their own', () => {
    const big = commitOutput(reserveOutput(512 * 1024), 300 * 1024);
    const small = commitOutput(reserveOutput(64), 64);
    expect(big.buffer).not.toBe(small.buffer);
    expect(big.byteOffset).toBe(0);
  });

  it('outputs of many decompressions stay intact, through failed ones and slab changes', () => {
    const codecs: Array<[number, (d: Buffer) => Buffer]> = [
      [2, (d) => snappyCompress(d)],
      [3, (d) => lz4Compress(d)],
    ];
    if (zstdCompressionAvailable) codecs.push([4, (d) => zstdCompress(d)]);
    const kept: Array<[Buffer, Buffer]> = [];
    for (let i = 0; i < 120; i++) {
      const [codec, compress] = codecs[i % codecs.length];
      const original = payload(i, 1000 + ((i * 7919) % 60_000));
      const compressed = compress(original);
      kept.push([original, decompress(codec, compressed, { maxDecompressedBytes: LIMIT })]);
      // A truncated input fails mid-way; it must not take or overwrite anyone's bytes.
      expect(() =>
        decompress(codec, compressed.subarray(0, compressed.length - 3), { maxDecompressedBytes: LIMIT }),
      ).toThrow(CompressionError);
    }
    const slabs = new Set(kept.map(([, out]) => out.buffer));
    expect(slabs.size).toBeGreaterThan(1);
    expect(slabs.size).toBeLessThan(kept.length / 4);
    for (const [original, out] of kept) expect(out.equals(original)).toBe(true);
  });
});
