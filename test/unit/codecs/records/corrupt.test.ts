import { describe, expect, it } from 'vitest';
import { gzipCompress } from '../../../../codecs/compression/gzip.js';
import { DecompressionLimitError, lz4Compress } from '../../../../codecs/compression/index.js';
import { snappyCompress } from '../../../../codecs/compression/snappy.js';
import { crc32c } from '../../../../codecs/crc.js';
import { ProtocolError } from '../../../../codecs/errors.js';
import { CorruptRecordError, decodeRecords, encodeRecordBatch } from '../../../../codecs/records/index.js';
import { specBatch, specRecord, varint } from './spec-bytes.js';

const ctx = { topic: 'orders', partition: 4 };

/** Decodes and returns the error it must throw. */
function failure(bytes: Buffer, options: Parameters<typeof decodeRecords>[1] = ctx): Error {
  try {
    decodeRecords(bytes, options);
  } catch (err) {
    expect(err).toBeInstanceOf(ProtocolError);
    return err as Error;
  }
  return expect.fail('decoded without an error');
}

/** A v2 batch around hand-written record bytes, CRC correct, so only the structure is wrong. */
function batchWith(records: number[], recordCount: number, attributes = 0): Buffer {
  return specBatch({
    baseOffset: 300n,
    partitionLeaderEpoch: 0,
    attributes,
    lastOffsetDelta: 0,
    baseTimestamp: 0n,
    maxTimestamp: 0n,
    producerId: -1n,
    producerEpoch: -1,
    baseSequence: -1,
    recordCount,
    records,
  });
}

/** Re-seals a batch's CRC after a test edits it. */
function reseal(b: Buffer): Buffer {
  b.writeUInt32BE(crc32c(b, 21, b.length), 17);
  return b;
}

const good = encodeRecordBatch([{ key: 'k', value: 'hello' }, { value: 'world' }], { baseOffset: 300n });

describe('corrupt batches fail with typed errors', () => {
  it('a flipped byte fails the CRC, naming topic, partition and batch offset', () => {
    for (const at of [21, 30, 61, good.length - 1]) {
      const bad = Buffer.from(good);
      bad[at] ^= 0x04;
      const err = failure(bad);
      expect(err).toBeInstanceOf(CorruptRecordError);
      expect(err.message).toMatch(/CRC-32C mismatch/);
      expect(err.message).toMatch(/topic orders, partition 4, batch at offset 300/);
      expect((err as CorruptRecordError).baseOffset).toBe(300n);
    }
  });

  it('checkCrc: false skips the check (a flipped value byte then decodes)', () => {
    const bad = Buffer.from(good);
    bad[bad.length - 2] ^= 0x01; // last byte of the value (the very last is the header count)
    expect(decodeRecords(bad, { checkCrc: false }).batches[0].records[1].value!.toString()).toBe('worle');
  });

  it('an error carries the complete batches decoded before the bad one', () => {
    const bad = Buffer.from(good);
    bad.writeBigInt64BE(301n, 0);
    bad[bad.length - 1] ^= 1;
    const err = failure(Buffer.concat([good, bad])) as CorruptRecordError;
    expect(err.baseOffset).toBe(301n);
    expect(err.decodedBefore.map((b) => b.baseOffset)).toEqual([300n]);
  });

  it('unknown magic', () => {
    const bad = Buffer.from(good);
    bad[16] = 3;
    expect(failure(bad).message).toMatch(/unknown magic 3/);
  });

  it('batch length below the minimum, negative, or below the v2 header size', () => {
    for (const size of [-1, -100, 0, 13]) {
      const bad = Buffer.from(good);
      bad.writeInt32BE(size, 8);
      expect(failure(bad)).toBeInstanceOf(CorruptRecordError);
    }
    const shortV2 = Buffer.from(good.subarray(0, 40));
    shortV2.writeInt32BE(28, 8);
    expect(failure(shortV2).message).toMatch(/below the v2 minimum/);
  });

  it('record count larger than the batch could hold, or negative', () => {
    const rec = specRecord({ timestampDelta: 0, offsetDelta: 0, key: null, value: Buffer.from('v') });
    expect(failure(batchWith(rec, 1_000_000)).message).toMatch(/record count 1000000 cannot fit/);
    expect(failure(batchWith(rec, -1)).message).toMatch(/record count -1/);
    expect(failure(batchWith(rec, 2)).message).toMatch(/cannot fit|ends after 1 of 2/);
    // Compressed: the count is checked against the decompressed size.
    expect(failure(batchWith([...gzipCompress(Buffer.from(rec))], 1000, 1)).message).toMatch(/cannot fit/);
  });

  it('records left over after the declared count', () => {
    const rec = specRecord({ timestampDelta: 0, offsetDelta: 0, key: null, value: Buffer.from('v') });
    expect(failure(batchWith([...rec, ...rec], 1)).message).toMatch(/bytes left after/);
  });

  it('record length past the end of the batch, and record fields that overrun their length', () => {
    const rec = specRecord({ timestampDelta: 0, offsetDelta: 0, key: null, value: Buffer.from('value') });
    const longer = [...varint(rec.length + 10), ...rec.slice(1)];
    expect(failure(batchWith(longer, 1)).message).toMatch(/invalid record length/);
    const shorter = [...varint(rec.length - 4), ...rec.slice(1)];
    expect(failure(batchWith(shorter, 1))).toBeInstanceOf(CorruptRecordError);
  });

  it('negative key, value and header lengths other than -1', () => {
    const body = (key: number, value: number, headers: number[]) => {
      const fields = [0, 0, 0, ...varint(key), ...varint(value), ...headers];
      return [...varint(fields.length), ...fields];
    };
    expect(failure(batchWith(body(-2, 0, [0]), 1)).message).toMatch(/invalid key length -2/);
    expect(failure(batchWith(body(-1, -7, [0]), 1)).message).toMatch(/invalid value length -7/);
    expect(failure(batchWith(body(-1, -1, varint(-3)), 1)).message).toMatch(/invalid header count -3/);
    expect(failure(batchWith(body(-1, -1, [...varint(1), ...varint(-1), 0]), 1)).message).toMatch(/header key length/);
    expect(failure(batchWith(body(-1, -1, [...varint(1), ...varint(0), ...varint(-9)]), 1)).message).toMatch(
      /header value length -9/,
    );
    expect(failure(batchWith(body(-1, 100, [0]), 1)).message).toMatch(/value length 100 runs past/);
  });

  it('varints that never end', () => {
    const endless = [...varint(8), 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
    expect(failure(batchWith(endless, 1))).toBeInstanceOf(CorruptRecordError);
  });

  it('unknown compression codec and undecodable payloads', () => {
    const rec = specRecord({ timestampDelta: 0, offsetDelta: 0, key: null, value: Buffer.from('v') });
    expect(failure(batchWith(rec, 1, 5)).message).toMatch(/unknown compression codec/);
    for (const codec of [1, 2, 3, 4]) {
      const err = failure(batchWith([1, 2, 3, 4, 5, 6, 7, 8], 1, codec));
      expect(err).toBeInstanceOf(CorruptRecordError);
      expect(err.message).toMatch(/cannot decompress/);
    }
  });

  it('decompression bombs stop at maxDecompressedBytes, naming the batch', () => {
    // A records section of 4 MiB: one record with a 4 MiB value of zeros.
    const value = 4 << 20;
    const fields = Buffer.concat([Buffer.from([0, 0, 0, ...varint(-1), ...varint(value)]), Buffer.alloc(value + 1)]);
    const rec = Buffer.concat([Buffer.from(varint(fields.length)), fields]);
    const bombs: Array<[string, number, Buffer]> = [
      ['gzip', 1, gzipCompress(rec)],
      ['snappy', 2, snappyCompress(rec)],
      ['lz4', 3, lz4Compress(rec)],
      // zstd: RLE blocks (128 KiB each) with no content size, 40 of them = 5 MiB.
      ['zstd', 4, zstdRleFrame(40)],
    ];
    for (const [name, codec, payload] of bombs) {
      expect(payload.length, name).toBeLessThan(300_000);
      const err = failure(batchWith([...payload], 1, codec), { ...ctx, maxDecompressedBytes: 1 << 20 });
      expect(err, name).toBeInstanceOf(DecompressionLimitError);
      expect(err.message, name).toMatch(/topic orders, partition 4, batch at offset 300/);
    }
  });

  it('garbage never escapes as RangeError or TypeError (mutation fuzz)', () => {
    const samples = [
      good,
      encodeRecordBatch([{ key: 'k', value: 'v'.repeat(200), headers: [{ key: 'h', value: 'x' }] }], {
        compression: 1,
      }),
      encodeRecordBatch([{ value: 'abc' }, { value: null }], { compression: 2 }),
      encodeRecordBatch([{ value: 'abc'.repeat(50) }], { compression: 3 }),
    ];
    let seed = 12345;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (let i = 0; i < 3000; i++) {
      const bytes = Buffer.from(samples[i % samples.length]);
      const edits = 1 + rand(4);
      for (let e = 0; e < edits; e++) bytes[12 + rand(bytes.length - 12)] = rand(256);
      const input = rand(5) === 0 ? bytes.subarray(0, rand(bytes.length)) : reseal(bytes);
      try {
        decodeRecords(input, { checkCrc: false, maxDecompressedBytes: 1 << 20 });
      } catch (err) {
        if (!(err instanceof ProtocolError)) throw new Error(`mutation ${i} escaped as ${String(err)}`);
      }
    }
  });
});

function zstdRleFrame(blocks: number): Buffer {
  const parts = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58])];
  for (let i = 0; i < blocks; i++) {
    const header = ((128 * 1024) << 3) | (1 << 1) | (i === blocks - 1 ? 1 : 0);
    parts.push(Buffer.from([header & 0xff, (header >>> 8) & 0xff, (header >>> 16) & 0xff, 0]));
  }
  return Buffer.concat(parts);
}
