import { describe, expect, it } from 'vitest';
import { CorruptRecordError } from '../../../../codecs/records/errors.js';
import { decodeRecords, encodeRecordBatch } from '../../../../codecs/records/index.js';
import { EMPTY_HEADERS } from '../../../../codecs/records/types.js';

/** Headers stay bytes until read (codecs/records/headers.ts); what a reader sees must not change. */
describe('lazily decoded headers', () => {
  const wire = encodeRecordBatch(
    [
      { key: 'k0', value: 'v0', headers: [] },
      {
        key: 'k1',
        value: 'v1',
        headers: [
          { key: 'traceparent', value: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
          { key: 'ünïcödé ✓', value: null },
          { key: '', value: '' },
          { key: 'dup', value: Buffer.from([0, 1, 2, 255]) },
          { key: 'dup', value: 'second' },
        ],
      },
      {
        key: 'k2',
        value: 'v2',
        headers: Array.from({ length: 70 }, (_, i) => ({ key: `h${i}`, value: 'x'.repeat(i * 3) })),
      },
    ],
    { baseOffset: 10n },
  );

  it('decode to the headers that were written, in wire order, as often as they are read', () => {
    const [batch] = decodeRecords(wire).batches;
    const [r0, r1, r2] = batch.records;
    expect(r0.headers).toBe(EMPTY_HEADERS);
    const first = r1.headers;
    expect(first.map((h) => [h.key, h.value === null ? null : h.value.toString('hex')])).toEqual([
      ['traceparent', Buffer.from('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01').toString('hex')],
      ['ünïcödé ✓', null],
      ['', ''],
      ['dup', '000102ff'],
      ['dup', Buffer.from('second').toString('hex')],
    ]);
    // The first read's array is not kept (see KafkaRecord.headers); from the second read on it is one array.
    const second = r1.headers;
    expect(second).toEqual(first);
    expect(r1.headers).toBe(second);
    expect(r1.headers).toBe(second);
    // 70 headers: the count takes a two-byte varint, and values up to 207 bytes two-byte lengths.
    expect(r2.headers).toHaveLength(70);
    expect(r2.headers[69]).toMatchObject({ key: 'h69' });
    expect(r2.headers[69].value?.toString()).toBe('x'.repeat(207));
    expect(r1.value?.toString()).toBe('v1');
  });

  it('hand out header values as views of the fetched bytes, like keys and values', () => {
    const copy = Buffer.from(wire);
    const [batch] = decodeRecords(copy).batches;
    const value = batch.records[1].headers[3].value;
    expect(Buffer.isBuffer(value)).toBe(true);
    expect(value?.buffer).toBe(copy.buffer);
  });

  it('cost a record no more fields than eagerly decoded headers did, read or not', () => {
    // Every consumed record is allocated on the fetch path: a field more on each was 5 % more allocation
    // there (bench/results/regression.md). Six: baseOffset, offsetDelta, timestamp, key, value, headers.
    const [batch] = decodeRecords(wire).batches;
    for (const r of batch.records) expect(Object.keys(r)).toHaveLength(6);
    for (const r of batch.records) void r.headers;
    for (const r of batch.records) void r.headers;
    for (const r of batch.records) expect(Object.keys(r)).toHaveLength(6);
  });

  it('still fail the batch at decode time when a header is corrupt', () => {
    const bad = Buffer.from(wire);
    // The last header's value length (207: the two-byte varint 0x9e 0x03) becomes 8191 (0xfe 0x7f), past the
    // record's end. The CRC is not checked here, so only the decoder's structural check can catch it.
    const at = bad.lastIndexOf(Buffer.from('h69')) + 3;
    expect([bad[at], bad[at + 1]]).toEqual([0x9e, 0x03]);
    bad[at] = 0xfe;
    bad[at + 1] = 0x7f;
    expect(() => decodeRecords(bad, { checkCrc: false })).toThrow(CorruptRecordError);
    expect(() => decodeRecords(bad, { checkCrc: false })).toThrow(/header value length 8191 runs past the record/);
  });
});
