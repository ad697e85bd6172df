import { describe, expect, it } from 'vitest';
import { gzipCompress } from '../../../../codecs/compression/gzip.js';
import { lz4Compress } from '../../../../codecs/compression/index.js';
import { snappyCompress } from '../../../../codecs/compression/snappy.js';
import { CorruptRecordError, decodeRecords, encodeRecordBatch } from '../../../../codecs/records/index.js';
import { specMessage, withLogOverhead } from './spec-bytes.js';

/**
 * Legacy message fixtures from IBM/sarama message_test.go (each message
 * from its CRC on; the offset and size prefix is added here).
 */
const SARAMA = {
  emptyV0: [167, 236, 104, 3, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255],
  emptyV1: [204, 47, 121, 217, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255],
  bulkSnappyV0: [
    ...[
      180, 47, 53, 209, 0, 2, 255, 255, 255, 255, 0, 0, 0, 42, 130, 83, 78, 65, 80, 80, 89, 0, 0, 0, 0, 1, 0, 0, 0, 1,
    ],
    ...[0, 0, 0, 22, 52, 0, 0, 25, 1, 16, 14, 227, 138, 104, 118, 25, 15, 13, 1, 8, 1, 0, 0, 62, 26, 0],
  ],
  bulkGzipV0: [
    ...[139, 160, 63, 141, 0, 1, 255, 255, 255, 255, 0, 0, 0, 39, 31, 139, 8, 0, 0, 0, 0, 0, 0, 0, 99, 96, 128, 3],
    ...[190, 202, 112, 143, 7, 12, 12, 255, 129, 0, 33, 200, 192, 136, 41, 3, 0, 199, 226, 155, 70, 52, 0, 0, 0],
  ],
  bulkLz4V1: [
    ...[246, 12, 188, 129, 1, 3, 255, 255, 249, 209, 212, 181, 73, 201, 255, 255, 255, 255, 0, 0, 0, 71],
    ...[4, 34, 77, 24, 100, 112, 185, 52, 0, 0, 128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 14, 121, 87, 72, 224, 0, 0],
    ...[255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 14, 121, 87, 72, 224, 0, 0, 255, 255, 255],
    ...[255, 0, 0, 0, 0, 0, 0, 0, 0, 71, 129, 23, 111],
  ],
  bulkZstdV1: [
    ...[203, 151, 133, 28, 1, 4, 255, 255, 249, 209, 212, 181, 73, 201, 255, 255, 255, 255, 0, 0, 0, 38],
    ...[0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x34, 0xcd, 0x0, 0x0, 0x78, 0x0, 0x0, 0xe, 0x79, 0x57, 0x48, 0xe0, 0x0, 0x0],
    ...[0xff, 0xff, 0xff, 0xff, 0x0, 0x1, 0x3, 0x0, 0x3d, 0xbd, 0x0, 0x3b, 0x15, 0x0, 0xb, 0xd2, 0x34, 0xc1, 0x78],
  ],
};

describe('legacy message sets (magic 0 and 1)', () => {
  it('decodes sarama empty v0 and v1 messages', () => {
    const bytes = Buffer.concat([withLogOverhead(5n, SARAMA.emptyV0), withLogOverhead(6n, SARAMA.emptyV1)]);
    const { batches } = decodeRecords(bytes);
    expect(batches.map((b) => [b.magic, b.baseOffset, b.records.length])).toEqual([
      [0, 5n, 1],
      [1, 6n, 1],
    ]);
    const [v0, v1] = batches.map((b) => b.records[0]);
    expect([v0.offset, v0.key, v0.value, v0.timestamp]).toEqual([5n, null, null, -1]);
    expect([v1.offset, v1.key, v1.value, v1.timestamp]).toEqual([6n, null, null, 0]);
  });

  for (const name of ['bulkSnappyV0', 'bulkGzipV0', 'bulkLz4V1', 'bulkZstdV1'] as const) {
    it(`decodes sarama's compressed wrapper ${name} into its two inner messages`, () => {
      const { batches } = decodeRecords(withLogOverhead(101n, SARAMA[name]));
      expect(batches).toHaveLength(1);
      const [batch] = batches;
      expect(batch.records).toHaveLength(2);
      // Each inner message is an empty v0 message: empty (not null) value.
      expect(batch.records.every((r) => r.value?.length === 0)).toBe(true);
      // v1 inner offsets are relative (the wrapper's 101 is the last one's absolute offset); v0 ones are absolute.
      expect(batch.records.map((r) => r.offset)).toEqual(batch.magic === 1 ? [100n, 101n] : [0n, 1n]);
      expect(batch.lastOffset).toBe(101n);
    });
  }

  it('magic 1 wrapper: relative inner offsets and LogAppendTime from the wrapper', () => {
    const inner = Buffer.concat(
      [0, 1, 2].map((i) =>
        specMessage({
          offset: BigInt(i),
          magic: 1,
          attributes: 0,
          timestamp: 1000n + BigInt(i),
          key: Buffer.from(`k${i}`),
          value: Buffer.from(`v${i}`),
        }),
      ),
    );
    for (const [codec, squeeze] of [
      [1, gzipCompress],
      [2, snappyCompress],
      [3, (b: Buffer) => lz4Compress(b, 1)],
    ] as const) {
      const create = specMessage({
        offset: 52n,
        magic: 1,
        attributes: codec,
        timestamp: 9999n,
        key: null,
        value: squeeze(inner),
      });
      const [b] = decodeRecords(create).batches;
      expect(b.records.map((r) => [r.offset, r.key!.toString(), r.value!.toString(), r.timestamp])).toEqual([
        [50n, 'k0', 'v0', 1000],
        [51n, 'k1', 'v1', 1001],
        [52n, 'k2', 'v2', 1002],
      ]);
      expect([b.baseOffset, b.lastOffset, b.lastOffsetDelta, b.maxTimestamp]).toEqual([50n, 52n, 2, 1002]);
      const append = specMessage({
        offset: 52n,
        magic: 1,
        attributes: codec | 0x08,
        timestamp: 9999n,
        key: null,
        value: squeeze(inner),
      });
      const [a] = decodeRecords(append).batches;
      expect(a.timestampType).toBe(1);
      expect(a.records.map((r) => r.timestamp)).toEqual([9999, 9999, 9999]);
    }
  });

  it('magic 0 wrapper: inner offsets are absolute; lz4 with the old broken header checksum', () => {
    const inner = Buffer.concat(
      [7n, 8n].map((o) => specMessage({ offset: o, magic: 0, attributes: 0, key: null, value: Buffer.from(`m${o}`) })),
    );
    const wrapper = specMessage({ offset: 8n, magic: 0, attributes: 3, key: null, value: lz4Compress(inner, 0) });
    const [b] = decodeRecords(wrapper).batches;
    expect(b.records.map((r) => [r.offset, r.value!.toString(), r.timestamp])).toEqual([
      [7n, 'm7', -1],
      [8n, 'm8', -1],
    ]);
  });

  it('mixes legacy messages and v2 batches in one records section', () => {
    const bytes = Buffer.concat([
      specMessage({ offset: 0n, magic: 0, attributes: 0, key: null, value: Buffer.from('old') }),
      specMessage({
        offset: 1n,
        magic: 1,
        attributes: 0,
        timestamp: 5n,
        key: Buffer.from('k'),
        value: Buffer.from('mid'),
      }),
      encodeRecordBatch([{ value: 'new', timestamp: 6 }], { baseOffset: 2n }),
    ]);
    const { batches } = decodeRecords(bytes);
    expect(batches.map((b) => [b.magic, b.records[0].offset, b.records[0].value!.toString()])).toEqual([
      [0, 0n, 'old'],
      [1, 1n, 'mid'],
      [2, 2n, 'new'],
    ]);
  });

  it('CRC-32 mismatch names the message offset', () => {
    const bytes = specMessage({
      offset: 77n,
      magic: 1,
      attributes: 0,
      timestamp: 1n,
      key: null,
      value: Buffer.from('x'),
    });
    bytes[bytes.length - 1] ^= 1;
    expect(() => decodeRecords(bytes, { topic: 't', partition: 3 })).toThrow(
      /CRC-32 mismatch.*topic t, partition 3, batch at offset 77/,
    );
    expect(decodeRecords(bytes, { checkCrc: false }).batches[0].records[0].value!.toString()).toBe('y');
  });

  it('rejects broken wrappers with CorruptRecordError', () => {
    const inner = specMessage({
      offset: 0n,
      magic: 1,
      attributes: 0,
      timestamp: 1n,
      key: null,
      value: Buffer.from('a'),
    });
    const nested = specMessage({
      offset: 0n,
      magic: 1,
      attributes: 1,
      timestamp: 1n,
      key: null,
      value: gzipCompress(inner),
    });
    const cases = [
      specMessage({ offset: 0n, magic: 1, attributes: 1, timestamp: 1n, key: null, value: null }), // null value
      specMessage({
        offset: 0n,
        magic: 1,
        attributes: 1,
        timestamp: 1n,
        key: null,
        value: gzipCompress(Buffer.alloc(0)),
      }), // empty
      specMessage({ offset: 0n, magic: 1, attributes: 2, timestamp: 1n, key: null, value: Buffer.from('garbage!') }), // bad snappy
      specMessage({ offset: 0n, magic: 1, attributes: 1, timestamp: 1n, key: null, value: gzipCompress(nested) }), // nested
      specMessage({
        offset: 0n,
        magic: 1,
        attributes: 1,
        timestamp: 1n,
        key: null,
        value: gzipCompress(inner.subarray(0, 20)),
      }),
    ];
    for (const c of cases) expect(() => decodeRecords(c)).toThrow(CorruptRecordError);
  });
});
