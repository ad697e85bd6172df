import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  CompressionError,
  DecompressionLimitError,
  zstdCompress,
  zstdCompressionAvailable,
  zstdDecompress,
} from '../../../../codecs/compression/index.js';
import { scanZstdFrames } from '../../../../codecs/compression/zstd-frames.js';
import { zstdDecodeFrameNative } from '../../../../codecs/compression/zstd-native.js';

const LIMIT = 64 * 1024 * 1024;

/** A frame without a content size, as zstd-jni's stream in Kafka's Java producer writes it. */
function unsized(data: Uint8Array): Buffer {
  const z = zlib as unknown as {
    zstdCompressSync(d: Uint8Array, o: object): Buffer;
    constants: Record<string, number>;
  };
  return z.zstdCompressSync(data, { params: { [z.constants.ZSTD_c_contentSizeFlag]: 0 } });
}

function records(size: number, seed = 0): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = i % 121 < 100 ? 0x61 + ((i + seed) % 26) : (i * 2654435761) >>> 27;
  return b;
}

// The native path needs zlib's zstd (Node >= 22.15 / 23.8); on Node 20 fzstd decodes and zstd.test.ts covers it.
describe.skipIf(!zstdCompressionAvailable)('zstd native decoding into the output slab', () => {
  it('decodes sized and unsized frames through the long-lived handle', () => {
    for (const size of [0, 1, 1000, 64 * 1024, 300 * 1024]) {
      const data = records(size, size);
      for (const frame of [zstdCompress(data), unsized(data)]) {
        const [scanned] = scanZstdFrames(frame, LIMIT);
        const out = zstdDecodeFrameNative(frame, scanned, LIMIT);
        expect(out?.equals(data)).toBe(true);
        expect(zstdDecompress(frame, LIMIT).equals(data)).toBe(true);
      }
    }
  });

  it('leaves frames larger than its reservation to the public API, with the same result', () => {
    const data = records(3 * 1024 * 1024);
    const frame = unsized(data);
    const [scanned] = scanZstdFrames(frame, LIMIT);
    expect(zstdDecodeFrameNative(frame, scanned, LIMIT)).toBeUndefined();
    expect(zstdDecompress(frame, LIMIT).equals(data)).toBe(true);
  });

  it('a corrupt frame raises CompressionError, and the next good frame still decodes', () => {
    const data = records(50_000);
    const good = zstdCompress(data);
    const bad = Buffer.from(good);
    bad[bad.length - 20] ^= 0xff;
    bad[bad.length - 40] ^= 0xff;
    expect(() => zstdDecompress(bad, LIMIT)).toThrow(CompressionError);
    expect(zstdDecompress(good, LIMIT).equals(data)).toBe(true);
    expect(zstdDecompress(unsized(data), LIMIT).equals(data)).toBe(true);
  });

  it('an unsized frame past the limit raises DecompressionLimitError', () => {
    const frame = unsized(records(200_000));
    expect(() => zstdDecompress(frame, 100_000)).toThrow(DecompressionLimitError);
    expect(zstdDecompress(frame, 200_000).length).toBe(200_000);
  });

  it('outputs stay intact while later frames are decoded', () => {
    const kept = Array.from({ length: 40 }, (_, i) => {
      const data = records(20_000 + i * 997, i);
      return [data, zstdDecompress(i % 2 === 0 ? zstdCompress(data) : unsized(data), LIMIT)] as const;
    });
    for (const [data, out] of kept) expect(out.equals(data)).toBe(true);
  });
});
