import { describe, expect, it } from 'vitest';
import {
  decodeAssignment,
  decodeSubscription,
  encodeAssignment,
  encodeSubscription,
} from '../../../../src/consumer/group/classic/consumer-protocol-codec.js';

const str = (s: string) => {
  const b = Buffer.alloc(2 + Buffer.byteLength(s));
  b.writeInt16BE(Buffer.byteLength(s));
  b.write(s, 2);
  return b;
};
const i16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const i32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

describe('consumer protocol codec', () => {
  it('writes a subscription as Java does: version 3 with owned partitions, generation and rack', () => {
    const bytes = encodeSubscription({
      topics: ['a', 'b'],
      userData: null,
      ownedPartitions: [{ topic: 'a', partitions: [0, 1] }],
      generationId: 5,
      rackId: 'r',
    });
    const expected = Buffer.concat([
      i16(3),
      i32(2),
      str('a'),
      str('b'),
      i32(-1),
      i32(1),
      str('a'),
      i32(2),
      i32(0),
      i32(1),
      i32(5),
      str('r'),
    ]);
    expect(bytes.toString('hex')).toBe(expected.toString('hex'));
    expect(decodeSubscription(bytes)).toEqual({
      topics: ['a', 'b'],
      userData: null,
      ownedPartitions: [{ topic: 'a', partitions: [0, 1] }],
      generationId: 5,
      rackId: 'r',
    });
  });

  it('reads version 0 (an old client) with Java’s defaults, and a newer version by the fields it knows', () => {
    const v0 = Buffer.concat([i16(0), i32(1), str('t'), i32(2), Buffer.from([7, 8])]);
    expect(decodeSubscription(v0)).toEqual({
      topics: ['t'],
      userData: Buffer.from([7, 8]),
      ownedPartitions: [],
      generationId: -1,
      rackId: null,
    });
    const v3 = encodeSubscription({
      topics: ['t'],
      userData: null,
      ownedPartitions: [],
      generationId: 2,
      rackId: null,
    });
    const v9 = Buffer.concat([i16(9), v3.subarray(2), Buffer.from('trailing fields of a future version')]);
    expect(decodeSubscription(v9)).toMatchObject({ topics: ['t'], generationId: 2, rackId: null });
  });

  it('round-trips an assignment, sorted by topic and partition; empty bytes are no partitions', () => {
    const bytes = encodeAssignment({
      partitions: [
        { topic: 'b', partition: 1 },
        { topic: 'a', partition: 2 },
        { topic: 'a', partition: 0 },
      ],
      userData: Buffer.from([1]),
    });
    expect(bytes.readInt16BE(0)).toBe(3);
    expect(decodeAssignment(bytes)).toEqual({
      partitions: [
        { topic: 'a', partition: 0 },
        { topic: 'a', partition: 2 },
        { topic: 'b', partition: 1 },
      ],
      userData: Buffer.from([1]),
    });
    expect(decodeAssignment(Buffer.alloc(0))).toEqual({ partitions: [], userData: null });
  });

  it('fails with a typed protocol error on truncated bytes', () => {
    expect(() => decodeSubscription(Buffer.from([0, 1, 0, 0]))).toThrow(/needs|bytes/);
    expect(() => decodeAssignment(Buffer.from([0xff, 0xff]))).toThrow(/negative/);
  });
});
