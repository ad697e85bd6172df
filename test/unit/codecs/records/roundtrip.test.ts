import { describe, expect, it } from 'vitest';
import { type CompressionCodecId, zstdCompressionAvailable } from '../../../../codecs/compression/index.js';
import { crc32c } from '../../../../codecs/crc.js';
import {
  ControlRecordType,
  dataRecords,
  decodeRecords,
  encodeControlBatch,
  encodeRecordBatch,
  parseEndTxnMarker,
  type RecordInput,
  TimestampType,
} from '../../../../codecs/records/index.js';

const T0 = 1_700_000_000_000;

const records: RecordInput[] = [
  { key: 'a', value: 'first', timestamp: T0 },
  { key: null, value: 'no key', timestamp: T0 + 5 },
  { key: 'tomb', value: null, timestamp: T0 - 3 }, // tombstone, timestamp before the base
  { key: Buffer.alloc(0), value: Buffer.alloc(0), timestamp: T0 + 1 }, // empty, not null
  {
    key: 'h',
    value: 'x'.repeat(300), // two-byte lengths
    timestamp: T0 + 100_000, // multi-byte timestamp delta
    headers: [
      { key: 'content-type', value: 'application/json' },
      { key: 'null-header', value: null },
      { key: 'ünïcödé', value: Buffer.from([0, 255]) },
    ],
  },
];

const codecs: CompressionCodecId[] = [0, 1, 2, 3, ...(zstdCompressionAvailable ? ([4] as const) : [])];

describe('RecordBatch v2 round trips', () => {
  for (const compression of codecs) {
    it(`codec ${compression}: keys, values, nulls, tombstones, headers, timestamps`, () => {
      const bytes = encodeRecordBatch(records, { baseOffset: 500n, compression });
      const { batches, partialBytes } = decodeRecords(bytes);
      expect(partialBytes).toBe(0);
      const [b] = batches;
      expect(b.compression).toBe(compression);
      expect(b.baseOffset).toBe(500n);
      expect(b.lastOffset).toBe(504n);
      expect(b.baseTimestamp).toBe(T0);
      expect(b.maxTimestamp).toBe(T0 + 100_000);
      const got = b.records.map((r) => ({
        offset: r.offset,
        key: r.key === null ? null : r.key.toString(),
        value: r.value === null ? null : r.value.toString(),
        timestamp: r.timestamp,
        headers: r.headers.map((h) => [h.key, h.value === null ? null : h.value.toString('hex')]),
      }));
      expect(got).toEqual([
        { offset: 500n, key: 'a', value: 'first', timestamp: T0, headers: [] },
        { offset: 501n, key: null, value: 'no key', timestamp: T0 + 5, headers: [] },
        { offset: 502n, key: 'tomb', value: null, timestamp: T0 - 3, headers: [] },
        { offset: 503n, key: '', value: '', timestamp: T0 + 1, headers: [] },
        {
          offset: 504n,
          key: 'h',
          value: 'x'.repeat(300),
          timestamp: T0 + 100_000,
          headers: [
            ['content-type', Buffer.from('application/json').toString('hex')],
            ['null-header', null],
            ['ünïcödé', '00ff'],
          ],
        },
      ]);
    });
  }

  it('producer fields, transactional flag, leader epoch and explicit offset deltas', () => {
    const bytes = encodeRecordBatch(
      [
        { value: 'a', offsetDelta: 0 },
        { value: 'b', offsetDelta: 3 },
      ],
      {
        producerId: 9_007_199_254_740_993n, // beyond 2^53: must stay exact
        producerEpoch: 12,
        baseSequence: 2_000_000_000,
        transactional: true,
        partitionLeaderEpoch: 42,
        now: T0,
      },
    );
    const [b] = decodeRecords(bytes).batches;
    expect([b.producerId, b.producerEpoch, b.baseSequence, b.isTransactional]).toEqual([
      9_007_199_254_740_993n,
      12,
      2_000_000_000,
      true,
    ]);
    expect(b.partitionLeaderEpoch).toBe(42);
    expect(b.lastOffsetDelta).toBe(3);
    expect(b.records.map((r) => [r.offset, r.timestamp])).toEqual([
      [0n, T0],
      [3n, T0],
    ]);
  });

  it('LogAppendTime: every record takes the batch maxTimestamp', () => {
    const bytes = encodeRecordBatch(
      [
        { value: 'a', timestamp: 1 },
        { value: 'b', timestamp: 2 },
      ],
      { timestampType: TimestampType.logAppendTime, maxTimestamp: T0 },
    );
    const [b] = decodeRecords(bytes).batches;
    expect(b.timestampType).toBe(TimestampType.logAppendTime);
    expect(b.records.map((r) => r.timestamp)).toEqual([T0, T0]);
  });

  it('timestamps are the batch base plus each delta, exact for deltas past 2^31 ms and before the base', () => {
    const far = T0 + 3_000_000_000; // ~35 days later: a delta no int32 holds
    const [b] = decodeRecords(
      encodeRecordBatch([
        { value: 'a', timestamp: T0 },
        { value: 'b', timestamp: far },
        { value: 'c', timestamp: T0 - 2_500_000_000 },
      ]),
    ).batches;
    expect(b.records.map((r) => r.timestamp)).toEqual([T0, far, T0 - 2_500_000_000]);
    expect(b.records.map((r) => r.timestampDelta)).toEqual([0, 3_000_000_000, -2_500_000_000]);
    // One object per batch holds the bases; the records only point at it.
    expect(new Set(b.records.map((r) => r.batchBase)).size).toBe(1);
    expect(b.records[1].baseOffset).toBe(b.baseOffset);
  });

  it('delete horizon: bit 6 set and the horizon stored as baseTimestamp', () => {
    const bytes = encodeRecordBatch([{ value: 'a', timestamp: T0 + 10 }], { deleteHorizonMs: T0 });
    const [b] = decodeRecords(bytes).batches;
    expect(b.hasDeleteHorizonMs).toBe(true);
    expect(b.baseTimestamp).toBe(T0);
    expect(b.records[0].timestamp).toBe(T0 + 10);
  });

  it('offsets past 2^53 stay exact', () => {
    const base = 2n ** 60n + 7n;
    const [b] = decodeRecords(encodeRecordBatch([{ value: 'a' }, { value: 'b' }], { baseOffset: base })).batches;
    expect(b.records.map((r) => r.offset)).toEqual([base, base + 1n]);
  });

  it('rejects offset deltas that do not increase', () => {
    expect(() =>
      encodeRecordBatch([
        { value: 'a', offsetDelta: 1 },
        { value: 'b', offsetDelta: 1 },
      ]),
    ).toThrow();
  });

  it('batches on both sides of the record count whose array is made up front (8192) decode every record', () => {
    for (const count of [8192, 8193]) {
      const input = [...Array(count)].map((_, i) => ({ value: i % 1000 === 0 ? `v${i}` : null }));
      const [b] = decodeRecords(encodeRecordBatch(input, { baseOffset: 5n })).batches;
      expect(b.records).toHaveLength(count);
      expect(Object.keys(b.records)).toHaveLength(count); // no holes
      expect(b.records[count - 1].offset).toBe(5n + BigInt(count - 1));
      expect(b.records[8000].value?.toString()).toBe('v8000');
    }
  });

  it('an empty batch round trips', () => {
    const [b] = decodeRecords(encodeRecordBatch([])).batches;
    expect(b.records).toEqual([]);
    expect(b.baseTimestamp).toBe(-1);
  });
});

describe('control batches', () => {
  it('commit and abort markers are recognised and hidden from data records', () => {
    const bytes = Buffer.concat([
      encodeRecordBatch([{ value: 'in txn' }], {
        baseOffset: 0n,
        producerId: 7n,
        producerEpoch: 1,
        transactional: true,
      }),
      encodeControlBatch({
        type: ControlRecordType.commit,
        producerId: 7n,
        producerEpoch: 1,
        coordinatorEpoch: 5,
        baseOffset: 1n,
      }),
      encodeControlBatch({ type: ControlRecordType.abort, producerId: 8n, producerEpoch: 2, baseOffset: 2n }),
    ]);
    const decoded = decodeRecords(bytes);
    const [data, commit, abort] = decoded.batches;
    expect(data.isControl).toBe(false);
    expect(data.controlType).toBe(-1);
    expect([commit.isControl, commit.isTransactional, commit.controlType]).toEqual([
      true,
      true,
      ControlRecordType.commit,
    ]);
    expect(parseEndTxnMarker(commit.records[0].value)).toEqual({ version: 0, coordinatorEpoch: 5 });
    expect([abort.controlType, abort.producerId]).toEqual([ControlRecordType.abort, 8n]);
    expect(dataRecords(decoded).map((r) => r.value!.toString())).toEqual(['in txn']);
  });
});

describe('trailing partial batches', () => {
  const one = encodeRecordBatch([{ value: 'one' }], { baseOffset: 0n });
  const two = encodeRecordBatch([{ value: 'two' }], { baseOffset: 1n });
  const three = encodeRecordBatch([{ value: 'three', key: 'k' }], { baseOffset: 2n, compression: 1 });

  it('every cut of the last batch returns the complete ones before it', () => {
    const all = Buffer.concat([one, two, three]);
    for (let cut = one.length + two.length; cut < all.length; cut++) {
      const { batches, partialBytes } = decodeRecords(all.subarray(0, cut));
      expect(batches.map((b) => b.baseOffset)).toEqual([0n, 1n]);
      expect(partialBytes).toBe(cut - one.length - two.length);
    }
    expect(decodeRecords(all).batches).toHaveLength(3);
  });

  it('a fetch holding only part of one batch yields no batches and reports the bytes', () => {
    for (let cut = 0; cut < one.length; cut++) {
      const { batches, partialBytes } = decodeRecords(one.subarray(0, cut));
      expect(batches).toEqual([]);
      expect(partialBytes).toBe(cut);
    }
  });
});

describe('edge cases the spec allows', () => {
  it('an empty records section decodes to nothing', () => {
    expect(decodeRecords(Buffer.alloc(0))).toEqual({ batches: [], partialBytes: 0 });
  });

  it('a compressed batch with no records and no payload (as log compaction can leave) decodes', () => {
    const empty = encodeRecordBatch([], { producerId: 3n, producerEpoch: 0 });
    empty.writeInt16BE(1, 21); // gzip attribute, no payload
    empty.writeUInt32BE(crc32c(empty, 21, empty.length), 17);
    const [b] = decodeRecords(empty).batches;
    expect([b.compression, b.records.length, b.producerId]).toEqual([1, 0, 3n]);
  });
});
