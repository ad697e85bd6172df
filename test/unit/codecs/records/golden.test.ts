import { describe, expect, it } from 'vitest';
import { decodeRecords, encodeRecordBatch, type RecordBatch } from '../../../../codecs/records/index.js';
import { specBatch, specRecord } from './spec-bytes.js';

/**
 * Golden bytes from IBM/sarama record_test.go (recordBatchTestCases), an
 * independent Go implementation whose fixtures carry their own CRC-32C:
 * one record, key 01020304, value 050607, header 08090a = 0b0c,
 * baseTimestamp 1479847795000 ms, timestampDelta 5 ms, maxTimestamp 0,
 * producer id / epoch / sequence 0, leader epoch 0.
 */
const HEADER = (length: number, crc: number[], attributes: number) => [
  ...[0, 0, 0, 0, 0, 0, 0, 0], // baseOffset
  ...[0, 0, 0, length],
  ...[0, 0, 0, 0], // partitionLeaderEpoch
  2,
  ...crc,
  0,
  attributes,
  ...[0, 0, 0, 0], // lastOffsetDelta
  ...[0, 0, 1, 88, 141, 205, 89, 56], // baseTimestamp
  ...[0, 0, 0, 0, 0, 0, 0, 0], // maxTimestamp
  ...[0, 0, 0, 0, 0, 0, 0, 0], // producerId
  ...[0, 0], // producerEpoch
  ...[0, 0, 0, 0], // baseSequence
  ...[0, 0, 0, 1], // records count
];
const RECORD = [40, 0, 10, 0, 8, 1, 2, 3, 4, 6, 5, 6, 7, 2, 6, 8, 9, 10, 4, 11, 12];

const SARAMA = {
  uncompressed: Buffer.from([...HEADER(70, [84, 121, 97, 253], 0), ...RECORD]),
  gzip: Buffer.from([
    ...HEADER(95, [231, 74, 206, 165], 1),
    ...[31, 139, 8, 0, 0, 9, 110, 136, 0, 255, 0, 21, 0, 234, 255, 40, 0, 10, 0, 8, 1, 2],
    ...[3, 4, 6, 5, 6, 7, 2, 6, 8, 9, 10, 4, 11, 12, 3, 0, 173, 201, 88, 103, 21, 0, 0, 0],
  ]),
  snappy: Buffer.from([...HEADER(72, [21, 0, 159, 97], 2), 21, 80, ...RECORD]),
  lz4: Buffer.from([
    ...HEADER(89, [169, 74, 119, 197], 3),
    ...[4, 34, 77, 24, 100, 112, 185, 21, 0, 0, 128, ...RECORD, 0, 0, 0, 0, 12, 59, 239, 146],
  ]),
};

function expectSaramaRecord(batch: RecordBatch, compression: number): void {
  expect(batch.magic).toBe(2);
  expect(batch.compression).toBe(compression);
  expect(batch.baseOffset).toBe(0n);
  expect(batch.baseTimestamp).toBe(1479847795000);
  expect(batch.maxTimestamp).toBe(0);
  expect(batch.producerId).toBe(0n);
  expect(batch.records).toHaveLength(1);
  const [r] = batch.records;
  expect(r.offset).toBe(0n);
  expect(r.timestamp).toBe(1479847795005);
  expect([...r.key!]).toEqual([1, 2, 3, 4]);
  expect([...r.value!]).toEqual([5, 6, 7]);
  expect(r.headers).toHaveLength(1);
  expect(r.headers[0].key).toBe('\x08\x09\x0a');
  expect([...r.headers[0].value!]).toEqual([11, 12]);
}

describe('golden bytes: sarama record batches', () => {
  for (const [name, bytes] of Object.entries(SARAMA)) {
    it(`decodes the ${name} batch (CRC checked)`, () => {
      const { batches, partialBytes } = decodeRecords(bytes);
      expect(partialBytes).toBe(0);
      expect(batches).toHaveLength(1);
      expectSaramaRecord(batches[0], ['uncompressed', 'gzip', 'snappy', 'lz4'].indexOf(name));
    });
  }

  it('encodes the uncompressed batch byte for byte', () => {
    const encoded = encodeRecordBatch(
      [
        {
          key: Buffer.from([1, 2, 3, 4]),
          value: Buffer.from([5, 6, 7]),
          timestamp: 1479847795005,
          headers: [{ key: '\x08\x09\x0a', value: Buffer.from([11, 12]) }],
        },
      ],
      {
        baseTimestamp: 1479847795000,
        maxTimestamp: 0,
        partitionLeaderEpoch: 0,
        producerId: 0n,
        producerEpoch: 0,
        baseSequence: 0,
      },
    );
    expect(encoded.toString('hex')).toBe(SARAMA.uncompressed.toString('hex'));
  });

  it('decodes sarama empty and control batches (no records)', () => {
    const empty = Buffer.from([
      ...[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 49, 0, 0, 0, 0, 2, 89, 95, 183, 221, 0, 0],
      ...new Array(38).fill(0),
    ]);
    const control = Buffer.from([
      ...[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 49, 0, 0, 0, 0, 2, 81, 46, 67, 217, 0, 32],
      ...new Array(38).fill(0),
    ]);
    const [e] = decodeRecords(empty).batches;
    expect(e.records).toHaveLength(0);
    expect(e.isControl).toBe(false);
    const [c] = decodeRecords(control).batches;
    expect(c.isControl).toBe(true);
    expect(c.controlType).toBe(-1);
  });
});

describe('golden bytes: a batch built field by field from the spec', () => {
  // Two records: a keyed record with two headers (one null-valued), and a tombstone with a null key.
  const bytes = specBatch({
    baseOffset: 1000n,
    partitionLeaderEpoch: 7,
    attributes: 0x10, // transactional, CreateTime, uncompressed
    lastOffsetDelta: 1,
    baseTimestamp: 1700000000000n,
    maxTimestamp: 1700000000250n,
    producerId: 4242n,
    producerEpoch: 3,
    baseSequence: 17,
    recordCount: 2,
    records: [
      ...specRecord({
        timestampDelta: 0,
        offsetDelta: 0,
        key: Buffer.from('user-1'),
        value: Buffer.from('{"n":1}'),
        headers: [
          ['trace', Buffer.from('abc')],
          ['empty', null],
        ],
      }),
      ...specRecord({ timestampDelta: 250, offsetDelta: 1, key: null, value: null }),
    ],
  });

  it('decodes every header field and both records', () => {
    const { batches } = decodeRecords(bytes);
    const [b] = batches;
    expect(b.baseOffset).toBe(1000n);
    expect(b.lastOffset).toBe(1001n);
    expect(b.batchLength).toBe(bytes.length - 12);
    expect(b.partitionLeaderEpoch).toBe(7);
    expect(b.isTransactional).toBe(true);
    expect(b.isControl).toBe(false);
    expect(b.timestampType).toBe(0);
    expect(b.producerId).toBe(4242n);
    expect(b.producerEpoch).toBe(3);
    expect(b.baseSequence).toBe(17);
    expect(b.crc).toBe(bytes.readUInt32BE(17));
    const [r1, r2] = b.records;
    expect(r1.offset).toBe(1000n);
    expect(r1.key!.toString()).toBe('user-1');
    expect(r1.value!.toString()).toBe('{"n":1}');
    expect(r1.headers.map((h) => [h.key, h.value?.toString() ?? null])).toEqual([
      ['trace', 'abc'],
      ['empty', null],
    ]);
    expect(r2.offset).toBe(1001n);
    expect(r2.timestamp).toBe(1700000000250);
    expect(r2.key).toBeNull();
    expect(r2.value).toBeNull();
  });

  it('encodes the same bytes from the same inputs', () => {
    const encoded = encodeRecordBatch(
      [
        {
          key: 'user-1',
          value: '{"n":1}',
          timestamp: 1700000000000,
          headers: [
            { key: 'trace', value: 'abc' },
            { key: 'empty', value: null },
          ],
        },
        { key: null, value: null, timestamp: 1700000000250 },
      ],
      {
        baseOffset: 1000n,
        partitionLeaderEpoch: 7,
        transactional: true,
        producerId: 4242n,
        producerEpoch: 3,
        baseSequence: 17,
      },
    );
    expect(encoded.toString('hex')).toBe(bytes.toString('hex'));
  });

  it('keys and values are views into the input, not copies', () => {
    const [r1] = decodeRecords(bytes).batches[0].records;
    expect(Buffer.isBuffer(r1.value)).toBe(true);
    expect(r1.value!.buffer).toBe(bytes.buffer);
    bytes[bytes.indexOf('{"n":1}') + 5] = 0x32;
    expect(r1.value!.toString()).toBe('{"n":2}');
    bytes[bytes.indexOf('{"n":2}') + 5] = 0x31;
  });
});
