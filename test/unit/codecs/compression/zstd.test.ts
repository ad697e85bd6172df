import { describe, expect, it } from 'vitest';
import {
  CompressionError,
  DecompressionLimitError,
  zstdCompressionAvailable,
  zstdDecompress,
} from '../../../../codecs/compression/index.js';
import { scanZstdFrames, windowDescriptorFor } from '../../../../codecs/compression/zstd-frames.js';
import { cliInput, ZSTD_NO_CONTENT_SIZE, ZSTD_WITH_CONTENT_SIZE } from './fixtures.js';

const LIMIT = 64 * 1024 * 1024;
const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

/** A frame of `blocks` RLE blocks of `size` bytes each, no content size: an easy decompression bomb. */
function rleBomb(blocks: number, size = 128 * 1024, windowDescriptor = 0x58): Buffer {
  const parts = [Buffer.from([...MAGIC, 0x00, windowDescriptor])];
  for (let i = 0; i < blocks; i++) {
    const header = (size << 3) | (1 << 1) | (i === blocks - 1 ? 1 : 0);
    parts.push(Buffer.from([header & 0xff, (header >>> 8) & 0xff, (header >>> 16) & 0xff, 0x41]));
  }
  return Buffer.concat(parts);
}

// Both paths run the same checks; on Node 20 the native one is absent and `forceJs` changes nothing.
for (const forceJs of [true, false]) {
  describe(`zstd decompression (${forceJs ? 'fzstd' : 'default path'})`, () => {
    const decode = (data: Buffer, limit = LIMIT) => zstdDecompress(data, limit, { forceJs });

    it('decodes a streamed frame without content size (zstd CLI, as zstd-jni streams write)', () => {
      expect(decode(ZSTD_NO_CONTENT_SIZE).equals(cliInput())).toBe(true);
    });

    it('decodes a single-segment frame with content size (zstd CLI)', () => {
      expect(decode(ZSTD_WITH_CONTENT_SIZE).equals(cliInput())).toBe(true);
    });

    it('decodes concatenated frames and skips skippable ones', () => {
      const skippable = Buffer.from([0x5f, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 7, 7]);
      const joined = Buffer.concat([ZSTD_WITH_CONTENT_SIZE, skippable, ZSTD_NO_CONTENT_SIZE]);
      expect(decode(joined).equals(Buffer.concat([cliInput(), cliInput()]))).toBe(true);
    });

    it('decodes the sarama golden frames', () => {
      // IBM/sarama message_test.go: emptyZSTDMessage value (empty) and emptyBulkZSTDMessage value (2 messages).
      const empty = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x00, 0x01, 0x00, 0x00, 0x99, 0xe9, 0xd8, 0x51]);
      expect(decode(empty).length).toBe(0);
      const bulk = Buffer.from([
        0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x34, 0xcd, 0x0, 0x0, 0x78, 0x0, 0x0, 0xe, 0x79, 0x57, 0x48, 0xe0, 0x0, 0x0, 0xff,
        0xff, 0xff, 0xff, 0x0, 0x1, 0x3, 0x0, 0x3d, 0xbd, 0x0, 0x3b, 0x15, 0x0, 0xb, 0xd2, 0x34, 0xc1, 0x78,
      ]);
      expect(decode(bulk).length).toBe(0x34);
    });

    it('stops an RLE bomb at the limit', () => {
      // 1024 blocks x 128 KiB = 128 MiB from 4 KiB of input.
      expect(() => decode(rleBomb(1024), 1024 * 1024)).toThrow(DecompressionLimitError);
    });

    it('refuses a declared content size past the limit before decoding', () => {
      // Single segment, 4-byte Frame_Content_Size of 2 MiB, then 16 RLE blocks of 128 KiB.
      const header = Buffer.from([...MAGIC, 0xa0, 0, 0, 0x20, 0]);
      const frame = Buffer.concat([header, rleBomb(16).subarray(6)]);
      expect(decode(frame).length).toBe(2 * 1024 * 1024);
      expect(() => decode(frame, 1024 * 1024)).toThrow(DecompressionLimitError);
    });

    it('refuses a declared content size its blocks cannot hold', () => {
      // 8-byte Frame_Content_Size of 2^40 with one empty raw block.
      const frame = Buffer.from([...MAGIC, 0xe0, 0, 0, 0, 0, 0, 1, 0, 0, 0x01, 0, 0]);
      expect(() => decode(frame)).toThrow(CompressionError);
    });

    it('a huge declared window does not allocate it (window shrunk to what the frame can produce)', () => {
      // Window descriptor 0xa8 declares 2 GiB (more than fzstd accepts).
      const bomb = rleBomb(2, 128 * 1024, 0xa8);
      if (!forceJs && zstdCompressionAvailable) {
        // Node's native zstd (22.15+) refuses a window past its windowLogMax (128 MiB), as zstd-jni in Kafka's
        // Java client does: a typed CompressionError, nothing allocated.
        expect(() => decode(bomb)).toThrow(CompressionError);
        return;
      }
      // The pure-JS decoder caps the window at this frame's 256 KiB and decodes it.
      const out = decode(bomb);
      expect(out.length).toBe(256 * 1024);
      expect(out.every((b) => b === 0x41)).toBe(true);
    });

    it('rejects garbage with CompressionError, never RangeError', () => {
      const cases = [
        Buffer.alloc(0),
        Buffer.from([1, 2, 3, 4, 5, 6, 7]),
        Buffer.from([...MAGIC]),
        Buffer.from([...MAGIC, 0x08, 0x58, 1, 0, 0]), // reserved bit
        Buffer.from([...MAGIC, 0x00, 0x58, 0x07, 0x00, 0x00]), // reserved block type
        Buffer.from([...MAGIC, 0x01, 0x58, 0x05, 0x01, 0x00, 0x00]), // dictionary id
        ZSTD_NO_CONTENT_SIZE.subarray(0, 100),
      ];
      const flipped = Buffer.from(ZSTD_NO_CONTENT_SIZE);
      for (let i = 20; i < 60; i++) flipped[i] ^= 0x5a;
      cases.push(flipped);
      for (const c of cases) {
        let thrown: unknown;
        try {
          decode(c);
        } catch (err) {
          thrown = err;
        }
        if (thrown !== undefined) expect(thrown).toBeInstanceOf(CompressionError);
        else if (c !== flipped) expect.fail(`accepted ${c.toString('hex')}`);
      }
    });
  });
}

describe('zstd frame scanning', () => {
  it('reads window and content sizes from headers', () => {
    const [streamed] = scanZstdFrames(ZSTD_NO_CONTENT_SIZE, LIMIT);
    expect(streamed.contentSize).toBe(-1);
    expect(streamed.windowSize).toBeGreaterThan(0);
    expect(streamed.outputBound).toBeGreaterThanOrEqual(cliInput().length);
    const [sized] = scanZstdFrames(ZSTD_WITH_CONTENT_SIZE, LIMIT);
    expect(sized.contentSize).toBe(cliInput().length);
  });

  it('encodes window descriptors as the smallest window that fits', () => {
    expect(windowDescriptorFor(1024)).toBe(0);
    expect(windowDescriptorFor(1025)).toBe(1); // 1 KiB + 1/8
    expect(windowDescriptorFor(2048)).toBe(8);
    expect(windowDescriptorFor(128 * 1024)).toBe(7 << 3);
  });
});
