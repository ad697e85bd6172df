import { describe, expect, it } from 'vitest';
import {
  CooperativeStickyAssignor,
  decodeCooperativeUserData,
  decodeStickyUserData,
  encodeCooperativeUserData,
  encodeStickyUserData,
  StickyAssignor,
} from '../../../../src/consumer/assignors/index.js';

// What Kafka's StickyAssignor sends after being assigned [t0-1, t1-2, t0-0] in generation 5 (captured from Java).
const JAVA_V1 = Buffer.from(
  '00000002' + // two topics
    '0002' +
    '7430' + // "t0"
    '00000002' +
    '00000001' +
    '00000000' + // partitions 1, 0
    '0002' +
    '7431' + // "t1"
    '00000001' +
    '00000002' + // partition 2
    '00000005', // generation
  'hex',
);

describe('sticky userData', () => {
  it("encodes as Kafka's StickyAssignor does", () => {
    const partitions = [
      { topic: 't0', partition: 1 },
      { topic: 't1', partition: 2 },
      { topic: 't0', partition: 0 },
    ];
    expect(encodeStickyUserData({ partitions, generation: 5 })).toEqual(JAVA_V1);
  });

  it('round-trips, grouping partitions by topic', () => {
    const decoded = decodeStickyUserData(JAVA_V1);
    expect(decoded.generation).toBe(5);
    expect(decoded.partitions).toEqual([
      { topic: 't0', partition: 1 },
      { topic: 't0', partition: 0 },
      { topic: 't1', partition: 2 },
    ]);
    const unicode = { partitions: [{ topic: 'ü-topic', partition: 9 }], generation: 0 };
    expect(decodeStickyUserData(encodeStickyUserData(unicode))).toEqual(unicode);
  });

  it('reads V0 (no generation) and ignores trailing bytes', () => {
    expect(decodeStickyUserData(JAVA_V1.subarray(0, JAVA_V1.length - 4))).toEqual({
      partitions: expect.any(Array),
      generation: undefined,
    });
    expect(decodeStickyUserData(Buffer.concat([JAVA_V1, Buffer.from([1, 2, 3])])).generation).toBe(5);
  });

  it('treats no bytes as nothing owned and bad bytes as nothing owned in the default generation', () => {
    expect(decodeStickyUserData(null)).toEqual({ partitions: [], generation: undefined });
    expect(decodeStickyUserData(Buffer.alloc(0))).toEqual({ partitions: [], generation: undefined });
    expect(decodeStickyUserData(Buffer.from([0, 0]))).toEqual({ partitions: [], generation: -1 });
    // a topic count larger than the bytes left, and a negative string length
    expect(decodeStickyUserData(Buffer.from('7fffffff', 'hex')).generation).toBe(-1);
    expect(decodeStickyUserData(Buffer.from('00000001ffff', 'hex')).generation).toBe(-1);
  });

  it('is what StickyAssignor sends: nothing before its first assignment, then the last one', () => {
    const assignor = new StickyAssignor();
    expect(assignor.subscriptionUserData(new Set(['t0']))).toBeNull();
    assignor.onAssignment({ partitions: [{ topic: 't0', partitions: [0, 1] }] }, { generationId: 3 });
    expect(decodeStickyUserData(assignor.subscriptionUserData(new Set(['t0'])))).toEqual({
      partitions: [
        { topic: 't0', partition: 0 },
        { topic: 't0', partition: 1 },
      ],
      generation: 3,
    });
  });
});

describe('cooperative-sticky userData', () => {
  it('is the generation as an int32', () => {
    expect(encodeCooperativeUserData(7)).toEqual(Buffer.from('00000007', 'hex'));
    expect(decodeCooperativeUserData(encodeCooperativeUserData(-1))).toBe(-1);
    expect(decodeCooperativeUserData(null)).toBeUndefined();
    expect(decodeCooperativeUserData(Buffer.from([1]))).toBe(-1);
  });

  it('is what CooperativeStickyAssignor sends', () => {
    const assignor = new CooperativeStickyAssignor();
    expect(assignor.subscriptionUserData(new Set())).toEqual(encodeCooperativeUserData(-1));
    assignor.onAssignment({ partitions: [] }, { generationId: 12 });
    expect(assignor.subscriptionUserData(new Set())).toEqual(encodeCooperativeUserData(12));
  });
});
