import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CompressionError, lz4Compress, lz4Decompress, xxhash32 } from '../../../../codecs/compression/index.js';
import { cliInput, LZ4_256K_BLOCKS, LZ4_LINKED_BLOCK_CHECKSUMS } from './fixtures.js';

const LIMIT = 64 * 1024 * 1024;

function hasCli(name: string): boolean {
  try {
    execFileSync(name, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('xxhash32', () => {
  it('matches the reference test vectors', () => {
    expect(xxhash32(Buffer.alloc(0))).toBe(0x02cc5d05);
    expect(xxhash32(Buffer.from('abc'))).toBe(0x32d153ff);
    expect(xxhash32(Buffer.from('Nobody inspects the spammish repetition'))).toBe(0xe2293b2f);
  });

  it('hashes a sub-range the same as a copy of it', () => {
    const data = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz');
    expect(xxhash32(data, 3, 30)).toBe(xxhash32(Buffer.from(data.subarray(3, 30))));
  });
});

describe('lz4 frame (Kafka layout)', () => {
  it('writes the frame header Kafka writes: FLG 0x60, BD 0x40 (64 KiB), HC 0x82', () => {
    const frame = lz4Compress(Buffer.from('hello'));
    expect(frame.subarray(0, 7).toString('hex')).toBe('04224d18604082');
    expect(frame.subarray(-4).readUInt32LE(0)).toBe(0); // end mark, no content checksum
  });

  it('magic 0 frames carry the KAFKA-3160 header checksum (hash over magic too) and still decode', () => {
    const frame = lz4Compress(Buffer.from('hello'), 0);
    expect(frame[6]).toBe((xxhash32(frame, 0, 6) >>> 8) & 0xff);
    expect(frame[6]).not.toBe(0x82);
    expect(lz4Decompress(frame, LIMIT).toString()).toBe('hello');
  });

  it('splits input into 64 KiB blocks', () => {
    const data = Buffer.alloc(200 * 1024, 7);
    const frame = lz4Compress(data);
    let pos = 7;
    let blocks = 0;
    for (;;) {
      const size = frame.readUInt32LE(pos) & 0x7fffffff;
      pos += 4;
      if (size === 0) break;
      pos += size;
      blocks++;
    }
    expect(blocks).toBe(4);
    expect(lz4Decompress(frame, LIMIT).equals(data)).toBe(true);
  });

  it('decodes the sarama golden frame (4 MiB blocks, stored block, content checksum)', () => {
    // IBM/sarama record_test.go, "lz4 compressed record": the records section of a v2 batch.
    const frame = Buffer.from([
      4, 34, 77, 24, 100, 112, 185, 21, 0, 0, 128, 40, 0, 10, 0, 8, 1, 2, 3, 4, 6, 5, 6, 7, 2, 6, 8, 9, 10, 4, 11, 12,
      0, 0, 0, 0, 12, 59, 239, 146,
    ]);
    expect([...lz4Decompress(frame, LIMIT)]).toEqual([
      40, 0, 10, 0, 8, 1, 2, 3, 4, 6, 5, 6, 7, 2, 6, 8, 9, 10, 4, 11, 12,
    ]);
    const bad = Buffer.from(frame);
    bad[bad.length - 1] ^= 1;
    expect(() => lz4Decompress(bad, LIMIT)).toThrow(/content checksum/);
  });

  it('decodes the LZ4 CLI: linked blocks, block checksums, content size', () => {
    expect(lz4Decompress(LZ4_LINKED_BLOCK_CHECKSUMS, LIMIT).equals(cliInput())).toBe(true);
  });

  it('decodes the LZ4 CLI: 256 KiB blocks with a content checksum', () => {
    expect(lz4Decompress(LZ4_256K_BLOCKS, LIMIT).equals(cliInput())).toBe(true);
  });

  it('detects a flipped block checksum', () => {
    const bad = Buffer.from(LZ4_LINKED_BLOCK_CHECKSUMS);
    bad[bad.length - 10] ^= 0x40;
    expect(() => lz4Decompress(bad, LIMIT)).toThrow(CompressionError);
  });

  it('decodes concatenated frames and skips skippable frames', () => {
    const skippable = Buffer.from([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 9, 9, 9]);
    const joined = Buffer.concat([lz4Compress(Buffer.from('ab')), skippable, lz4Compress(Buffer.from('cd'))]);
    expect(lz4Decompress(joined, LIMIT).toString()).toBe('abcd');
  });

  it.runIf(hasCli('lz4'))('produces frames the LZ4 CLI decodes', () => {
    const data = cliInput();
    const out = execFileSync('lz4', ['-d', '-c', '-q'], { input: lz4Compress(data) });
    expect(out.equals(data)).toBe(true);
  });

  it('rejects bad frames with CompressionError, never RangeError', () => {
    const good = lz4Compress(Buffer.from('hello hello hello hello hello'));
    const cases: Buffer[] = [
      Buffer.alloc(0),
      Buffer.from([1, 2, 3]),
      Buffer.from('not an lz4 frame at all'),
      good.subarray(0, 6),
      good.subarray(0, good.length - 2),
      Buffer.concat([good.subarray(0, 4), Buffer.from([0x80]), good.subarray(5)]), // version bits 10
      Buffer.concat([good.subarray(0, 5), Buffer.from([0x10]), good.subarray(6)]), // block size id 1
    ];
    const badHc = Buffer.from(good);
    badHc[6] ^= 0xff;
    cases.push(badHc);
    const hugeBlock = Buffer.from(good);
    hugeBlock.writeUInt32LE(0x7fff0000, 7);
    cases.push(hugeBlock);
    for (const c of cases) expect(() => lz4Decompress(c, LIMIT)).toThrow(CompressionError);
  });

  it('rejects a match offset pointing before the output', () => {
    // Block: token 0x10 (1 literal, match len 4), literal 'a', offset 5 (> 1 byte of output).
    const block = Buffer.from([0x10, 0x61, 5, 0, 0x10, 0x61]);
    const frame = Buffer.concat([lz4Compress(Buffer.alloc(0)).subarray(0, 7), Buffer.alloc(4), block, Buffer.alloc(4)]);
    frame.writeUInt32LE(block.length, 7);
    expect(() => lz4Decompress(frame, LIMIT)).toThrow(/offset/);
  });
});
