import { describe, expect, it } from 'vitest';
import {
  CompressionCodec,
  CompressionError,
  compress,
  compressAsync,
  decompress,
  decompressAsync,
  UnsupportedCompressionError,
  zstdCompressionAvailable,
} from '../../../../codecs/compression/index.js';
import { ProtocolError } from '../../../../codecs/errors.js';

/** Deterministic pseudo-random bytes (incompressible). */
function noise(n: number, seed = 1): Buffer {
  const out = Buffer.allocUnsafe(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** Text-like bytes that compress the way record payloads do. */
function text(n: number): Buffer {
  const words = ['alpha', 'beta', 'gamma', 'delta', '{"id":', '"user"', 'click', '\n'];
  let s = '';
  let i = 0;
  while (s.length < n) s += `${words[(i * 7 + (i >> 3)) % words.length]}${i++ % 13} `;
  return Buffer.from(s.slice(0, n));
}

const inputs: Array<[string, Buffer]> = [
  ['empty', Buffer.alloc(0)],
  ['one byte', Buffer.from([42])],
  ['short text', Buffer.from('hello hello hello hello')],
  ['100 B noise', noise(100)],
  ['64 KiB + 1 text (two lz4 blocks)', text(64 * 1024 + 1)],
  ['100 KiB noise (stored lz4 blocks, 4 snappy blocks)', noise(100 * 1024, 7)],
  ['1 MiB text', text(1024 * 1024)],
  ['all zeros', Buffer.alloc(300_000)],
];

const codecs = [
  ['gzip', CompressionCodec.gzip],
  ['snappy', CompressionCodec.snappy],
  ['lz4', CompressionCodec.lz4],
] as const;

describe('compression round trips', () => {
  for (const [name, codec] of codecs) {
    for (const [label, data] of inputs) {
      it(`${name}: ${label}`, () => {
        const packed = compress(codec, data);
        expect(decompress(codec, packed).equals(data)).toBe(true);
      });
    }
  }

  it('none passes bytes through (and still applies the limit)', () => {
    const data = text(1000);
    expect(compress(CompressionCodec.none, data)).toBe(data);
    expect(decompress(CompressionCodec.none, data)).toBe(data);
    expect(() => decompress(CompressionCodec.none, data, { maxDecompressedBytes: 10 })).toThrow(ProtocolError);
  });

  it('compresses text well enough to show the codecs really compress', () => {
    const data = text(256 * 1024);
    for (const [, codec] of codecs) expect(compress(codec, data).length).toBeLessThan(data.length / 2);
  });

  it('rejects unknown codec ids with a typed error', () => {
    expect(() => decompress(5, Buffer.from([1]))).toThrow(CompressionError);
    expect(() => decompress(7, Buffer.from([1]))).toThrow(ProtocolError);
  });

  it('async variants agree with the sync ones', async () => {
    const data = text(200_000);
    for (const [, codec] of codecs) {
      const packed = await compressAsync(codec, data);
      expect((await decompressAsync(codec, packed)).equals(data)).toBe(true);
    }
  });

  it.runIf(zstdCompressionAvailable)('zstd round trips natively where Node has zstd', () => {
    for (const [, data] of inputs) {
      expect(decompress(CompressionCodec.zstd, compress(CompressionCodec.zstd, data)).equals(data)).toBe(true);
    }
  });

  it.runIf(!zstdCompressionAvailable)('zstd compression raises UnsupportedCompressionError on this Node', () => {
    expect(() => compress(CompressionCodec.zstd, text(100))).toThrow(UnsupportedCompressionError);
  });
});
