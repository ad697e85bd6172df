/**
 * encodeRecordBatch writes plain records (byte or null key and value, no headers) straight from their input
 * and prepares the rest: both ways must give the same bytes, in any mix, with and without compression, and
 * batches encoded one after another must not see each other's scratch memory.
 */
import { describe, expect, it } from 'vitest';
import { decodeRecords, encodeRecordBatch, type RecordInput } from '../../../../codecs/records/index.js';

const T0 = 1_700_000_000_000;

/** The same record forced through the prepared path: its bytes given as a latin1 string (one byte a char). */
function asStrings(r: RecordInput): RecordInput {
  const str = (v: RecordInput['key']) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v);
  return { ...r, key: str(r.key), value: str(r.value) };
}

const plain: RecordInput[] = [
  { key: Buffer.from('k1'), value: Buffer.from('v1'), timestamp: T0 },
  { key: null, value: Buffer.alloc(200, 0x41), timestamp: T0 + 1 }, // two-byte length, null key
  { value: null, timestamp: T0 - 7 }, // tombstone, negative delta, key absent
  { key: new Uint8Array([1, 2, 3]), value: new Uint8Array(0), timestamp: T0 + 70_000 }, // three-byte delta
  { key: Buffer.from('gap'), value: Buffer.from('x'), timestamp: T0 + 2, offsetDelta: 9 }, // offset gap
  { key: Buffer.from('h'), value: Buffer.alloc(20_000, 7), headers: [], timestamp: T0, offsetDelta: 10 }, // empty headers: plain
];

describe('plain records', () => {
  for (const compression of [0, 3] as const) {
    it(`codec ${compression}: encode as the prepared path does, alone and mixed`, () => {
      const options = { compression, now: T0, producerId: 5n, producerEpoch: 1, baseSequence: 10 };
      const reference = encodeRecordBatch(plain.map(asStrings), options);
      expect(encodeRecordBatch(plain, options)).toEqual(reference);
      const mixed = plain.map((r, i) => (i % 2 === 0 ? r : asStrings(r)));
      expect(encodeRecordBatch(mixed, options)).toEqual(reference);
      const decoded = decodeRecords(reference).batches[0].records;
      expect(decoded.map((r) => r.offset)).toEqual([0n, 1n, 2n, 3n, 9n, 10n]);
      expect(decoded[1].value).toEqual(Buffer.alloc(200, 0x41));
      expect(decoded[2].key).toBeNull();
      expect(decoded[2].value).toBeNull();
    });
  }

  it('a batch encoded after a larger one does not carry its bytes (scratch memory is reused)', () => {
    const big = Array.from({ length: 3000 }, (_, i) => ({ value: Buffer.alloc(300, i & 0xff), timestamp: T0 }));
    const small = [{ value: Buffer.from('only'), timestamp: T0 }];
    const first = encodeRecordBatch(small, { compression: 3, now: T0 });
    encodeRecordBatch(big, { compression: 3, now: T0 });
    const again = encodeRecordBatch(small, { compression: 3, now: T0 });
    expect(again).toEqual(first);
    const records = decodeRecords(encodeRecordBatch(big, { compression: 3, now: T0 })).batches[0].records;
    expect(records).toHaveLength(3000);
    expect(records[2999].value).toEqual(Buffer.alloc(300, 2999 & 0xff));
  });

  it('rejects offset deltas that do not increase, on either path', () => {
    const bad = [plain[0], { ...plain[1], offsetDelta: 0 }];
    expect(() => encodeRecordBatch(bad)).toThrow(/offsetDelta 0, not above 0/);
    expect(() => encodeRecordBatch(bad.map(asStrings))).toThrow(/offsetDelta 0, not above 0/);
  });
});
