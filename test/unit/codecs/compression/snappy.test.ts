import { describe, expect, it } from 'vitest';
import {
  CompressionError,
  DecompressionLimitError,
  snappyCompress,
  snappyCompressRaw,
  snappyDecompress,
  snappyDecompressRaw,
  XERIAL_BLOCK_SIZE,
} from '../../../../codecs/compression/index.js';

const LIMIT = 64 * 1024 * 1024;
const XERIAL_HEADER = '82534e4150505900' + '00000001' + '00000001';

describe('snappy (xerial framing, as Kafka Java producers write it)', () => {
  it('uses snappy-java block size 32 KiB', () => {
    expect(XERIAL_BLOCK_SIZE).toBe(32 * 1024);
  });

  it('writes the xerial header and int32-length-prefixed 32 KiB blocks', () => {
    const data = Buffer.alloc(100 * 1024, 1);
    const framed = snappyCompress(data);
    expect(framed.subarray(0, 16).toString('hex')).toBe(XERIAL_HEADER);
    const blockLengths: number[] = [];
    let pos = 16;
    while (pos < framed.length) {
      const size = framed.readInt32BE(pos);
      // Each raw block starts with its uncompressed length varint.
      const block = framed.subarray(pos + 4, pos + 4 + size);
      blockLengths.push(snappyDecompressRaw(block, LIMIT).length);
      pos += 4 + size;
    }
    expect(blockLengths).toEqual([32768, 32768, 32768, 4096]);
    expect(snappyDecompress(framed, LIMIT).equals(data)).toBe(true);
  });

  it('an empty input is just the header', () => {
    const framed = snappyCompress(Buffer.alloc(0));
    expect(framed.toString('hex')).toBe(XERIAL_HEADER);
    expect(snappyDecompress(framed, LIMIT).length).toBe(0);
  });

  it('decodes the sarama golden xerial stream (a magic 0 wrapper value)', () => {
    // IBM/sarama message_test.go emptyBulkSnappyMessage: the value after its int32 length.
    const stream = Buffer.from([
      130, 83, 78, 65, 80, 80, 89, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 22, 52, 0, 0, 25, 1, 16, 14, 227, 138, 104, 118,
      25, 15, 13, 1, 8, 1, 0, 0, 62, 26, 0,
    ]);
    const inner = snappyDecompress(stream, LIMIT);
    expect(inner.length).toBe(52); // two empty messages: 2 x (12 + 14)
    expect(inner.readInt32BE(8)).toBe(14);
  });

  it('decodes raw snappy (no framing), as sarama and others send it', () => {
    // IBM/sarama record_test.go, "snappy compressed record": the records section.
    const raw = Buffer.from([21, 80, 40, 0, 10, 0, 8, 1, 2, 3, 4, 6, 5, 6, 7, 2, 6, 8, 9, 10, 4, 11, 12]);
    expect([...snappyDecompress(raw, LIMIT)]).toEqual([
      40, 0, 10, 0, 8, 1, 2, 3, 4, 6, 5, 6, 7, 2, 6, 8, 9, 10, 4, 11, 12,
    ]);
    const text = Buffer.from('abcabcabcabcabcabcabcabc xyz xyz xyz');
    expect(snappyDecompress(snappyCompressRaw(text), LIMIT).equals(text)).toBe(true);
  });

  it('accepts concatenated xerial streams', () => {
    const joined = Buffer.concat([snappyCompress(Buffer.from('first ')), snappyCompress(Buffer.from('second'))]);
    expect(snappyDecompress(joined, LIMIT).toString()).toBe('first second');
  });

  it('rejects corrupt input with CompressionError', () => {
    const good = snappyCompress(Buffer.from('hello hello hello hello hello hello'));
    const cases: Buffer[] = [
      good.subarray(0, 12), // truncated header
      good.subarray(0, 18), // truncated block length
      good.subarray(0, good.length - 1), // block runs past the end
      Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), // varint too long
      Buffer.from([5, 0x00, 0x61]), // raw: declares 5, holds a 1-byte literal
      Buffer.from([4, 0x0c, 0x61, 0x62, 0x63, 0x64, 0x65]), // literal overflows the declared length
      Buffer.from([8, 0x00, 0x61, 0x11, 9]), // copy offset 9 before the start
      Buffer.from([8, 0x00, 0x61, 0x11, 0]), // copy offset 0
    ];
    const negative = Buffer.from(good);
    negative.writeInt32BE(-5, 16);
    cases.push(negative);
    for (const c of cases) expect(() => snappyDecompress(c, LIMIT)).toThrow(CompressionError);
  });

  it('checks declared lengths against the limit before allocating', () => {
    const zeros = Buffer.alloc(8 * 1024 * 1024);
    // One raw block declaring 8 MiB, refused from its header.
    expect(() => snappyDecompress(snappyCompressRaw(zeros), 1024 * 1024)).toThrow(DecompressionLimitError);
    // Xerial: 256 blocks of 32 KiB add up past the limit; refused while scanning the block headers.
    expect(() => snappyDecompress(snappyCompress(zeros), 1024 * 1024)).toThrow(DecompressionLimitError);
  });

  it('refuses a declared length the block is too small to hold', () => {
    // 4 GiB - 1 declared by a 6-byte input: no snappy element expands that far.
    expect(() => snappyDecompress(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x00]), LIMIT)).toThrow(CompressionError);
    const block = Buffer.from([0x80, 0x80, 0x40, 0x00]); // declares 1 MiB in 4 bytes
    const framed = Buffer.concat([Buffer.from(XERIAL_HEADER, 'hex'), Buffer.from([0, 0, 0, block.length]), block]);
    expect(() => snappyDecompress(framed, LIMIT)).toThrow(CompressionError);
  });
});
