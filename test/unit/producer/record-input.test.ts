/** prepareRecord: the send path's checks and conversions, with the common case (no timestamp, Buffer bytes) first. */
import { describe, expect, it } from 'vitest';
import {
  encodedRecordSize,
  prepareRecord as prepareForBatch,
  writeRecord,
} from '../../../codecs/records/encode-records.js';
import { InvalidRecordError } from '../../../src/producer/errors.js';
import { type ProducerRecord, prepareRecord } from '../../../src/producer/record-input.js';

const NOW = 1_700_000_000_000;
const prepare = (r: Partial<ProducerRecord>) => prepareRecord({ topic: 't', ...r } as ProducerRecord, NOW, 1 << 20);

describe('prepareRecord', () => {
  it('takes the send time when the record has no timestamp (absent or null), else its own', () => {
    expect(prepare({}).timestamp).toBe(NOW);
    expect(prepare({ timestamp: null as unknown as number }).timestamp).toBe(NOW);
    expect(prepare({ timestamp: 5 }).timestamp).toBe(5);
    expect(prepare({ timestamp: new Date(1234) }).timestamp).toBe(1234);
  });

  it('refuses a timestamp that is negative, fractional, not a number or an invalid Date', () => {
    for (const timestamp of [-1, 1.5, Number.NaN, new Date(Number.NaN), '7' as unknown as number]) {
      expect(() => prepare({ timestamp })).toThrow(InvalidRecordError);
    }
  });

  it('keeps a Buffer as it is, views a Uint8Array without copying, writes strings as UTF-8', () => {
    const value = Buffer.from('v');
    expect(prepare({ value }).value).toBe(value);
    const bytes = new Uint8Array([1, 2, 3]);
    const viewed = prepare({ key: bytes }).key as Buffer;
    expect(viewed.buffer).toBe(bytes.buffer);
    expect(prepare({ value: 'é' }).value).toEqual(Buffer.from([0xc3, 0xa9]));
    expect(() => prepare({ value: 7 as unknown as string })).toThrow(InvalidRecordError);
  });

  it('sizes a record as the encoder writes it, with deltas at their counted width, at every varint boundary', () => {
    // The estimate counts the timestamp delta at 4 varint bytes and the offset delta at 3 (the batch it joins is
    // not known yet): the batch encoder's own bytes for such a record must come out exactly that long.
    const encodedBytes = (value: Buffer, headers: { key: string; value: Buffer }[]) => {
      const input = { value, headers, timestamp: NOW + 2 ** 21, offsetDelta: 2 ** 14 };
      const prepared = prepareForBatch(input, 0, NOW, NOW);
      const buf = Buffer.alloc(encodedRecordSize(prepared) + 16);
      return writeRecord(buf, 0, prepared);
    };
    for (const n of [0, 1, 63, 64, 65, 8191, 8192, 8193, 1_048_575, 1_048_576, 2_000_000]) {
      const value = Buffer.alloc(n);
      expect(prepareRecord({ topic: 't', value }, NOW, 1 << 24).size).toBe(encodedBytes(value, []));
      const headers = [{ key: 'h'.repeat(70), value: Buffer.alloc(n % 9000) }];
      expect(prepareRecord({ topic: 't', value, headers }, NOW, 1 << 24).size).toBe(encodedBytes(value, headers));
    }
  });
});
