import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  CompressionCodec,
  CompressionError,
  compress,
  DecompressionLimitError,
  decompress,
  decompressAsync,
  gzipDecompress,
} from '../../../../codecs/compression/index.js';
import { ProtocolError } from '../../../../codecs/errors.js';

const MiB = 1024 * 1024;

describe('gzip', () => {
  it('decodes what Java GZIPOutputStream-style streams look like (sarama golden, empty value)', () => {
    // IBM/sarama message_test.go emptyGzipMessage value.
    const stream = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255, 1, 0, 0, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(gzipDecompress(stream, MiB).length).toBe(0);
  });

  it('decodes concatenated gzip members', () => {
    const joined = Buffer.concat([gzipSync(Buffer.from('ab')), gzipSync(Buffer.from('cd'))]);
    expect(decompress(CompressionCodec.gzip, joined).toString()).toBe('abcd');
  });

  it('rejects corrupt streams with CompressionError', () => {
    const good = gzipSync(Buffer.from('hello world hello world'));
    for (const bad of [Buffer.from('not gzip'), good.subarray(0, good.length - 6)]) {
      expect(() => decompress(CompressionCodec.gzip, bad)).toThrow(CompressionError);
    }
    const flipped = Buffer.from(good);
    flipped[12] ^= 0xff;
    expect(() => decompress(CompressionCodec.gzip, flipped)).toThrow(ProtocolError);
  });
});

describe('maxDecompressedBytes: bombs fail typed, for every codec', () => {
  const zeros = Buffer.alloc(8 * MiB);
  const bombs = [
    ['gzip', CompressionCodec.gzip],
    ['snappy', CompressionCodec.snappy],
    ['lz4', CompressionCodec.lz4],
  ] as const;

  for (const [name, codec] of bombs) {
    it(`${name}: 8 MiB of zeros against a 1 MiB limit`, () => {
      const bomb = compress(codec, zeros);
      expect(bomb.length).toBeLessThan(MiB / 2);
      expect(() => decompress(codec, bomb, { maxDecompressedBytes: MiB })).toThrow(DecompressionLimitError);
      expect(decompress(codec, bomb, { maxDecompressedBytes: 8 * MiB }).length).toBe(8 * MiB);
    });
  }

  it('gzip async variant applies the limit too', async () => {
    const bomb = compress(CompressionCodec.gzip, zeros);
    await expect(decompressAsync(CompressionCodec.gzip, bomb, { maxDecompressedBytes: MiB })).rejects.toThrow(
      DecompressionLimitError,
    );
  });

  it('lz4: a declared content size past the limit fails before decoding', () => {
    // FLG 0x68: version 01, independent blocks, content size; BD 0x40; size 2^40; HC; end mark.
    const frame = Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x68, 0x40, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    expect(() => decompress(CompressionCodec.lz4, frame, { magic: 0 })).toThrow(DecompressionLimitError);
  });

  it('the error says which limit was hit', () => {
    const bomb = compress(CompressionCodec.lz4, zeros);
    try {
      decompress(CompressionCodec.lz4, bomb, { maxDecompressedBytes: 12345 });
      expect.fail('no error');
    } catch (err) {
      expect(err).toBeInstanceOf(DecompressionLimitError);
      expect((err as DecompressionLimitError).limit).toBe(12345);
      expect((err as Error).message).toMatch(/12345/);
    }
  });
});
