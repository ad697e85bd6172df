import { describe, expect, it } from 'vitest';
import { ImplausibleResponseError } from '../../../src/network/errors.js';
import { NoStoredOffsetError, OffsetOutOfRangeError } from '../../../src/offsets/errors.js';
import {
  checkOffsetRanges,
  describeRangeEvent,
  type OutOfRangePolicy,
  type PartitionRange,
} from '../../../src/offsets/range-check.js';

function p(partition: number, stored: bigint | undefined, earliest: bigint, latest: bigint): PartitionRange {
  return { topic: 'orders', partition, stored, earliest, latest };
}

describe('checkOffsetRanges', () => {
  it('keeps positions inside [earliest, latest], both ends included, without events', () => {
    const result = checkOffsetRanges([p(0, 100n, 100n, 200n), p(1, 150n, 100n, 200n), p(2, 200n, 100n, 200n)]);
    expect(result.positions.map((x) => [x.offset, x.source])).toEqual([
      [100n, 'stored'],
      [150n, 'stored'],
      [200n, 'stored'],
    ]);
    expect(result.events).toEqual([]);
  });

  it('clamps by default: below earliest skips the deleted range, past latest names the re-read range', () => {
    const result = checkOffsetRanges([p(0, 120n, 500n, 900n), p(1, 1000n, 0n, 700n)]);
    expect(result.positions.map((x) => [x.partition, x.offset, x.source])).toEqual([
      [0, 500n, 'corrected'],
      [1, 700n, 'corrected'],
    ]);
    expect(result.events).toEqual([
      {
        type: 'offset-corrected',
        topic: 'orders',
        partition: 0,
        reason: 'below-earliest',
        stored: 120n,
        corrected: 500n,
        earliest: 500n,
        latest: 900n,
        policy: 'clamp',
        skipped: { from: 120n, to: 500n },
      },
      {
        type: 'offset-corrected',
        topic: 'orders',
        partition: 1,
        reason: 'above-latest',
        stored: 1000n,
        corrected: 700n,
        earliest: 0n,
        latest: 700n,
        policy: 'clamp',
        reread: { from: 700n, to: 1000n },
      },
    ]);
    expect(describeRangeEvent(result.events[0])).toBe(
      'orders-0: stored offset 120 is below the log start (log [500, 900)); clamp moves to 500, skipping [120, 500) (380 offsets)',
    );
    expect(describeRangeEvent(result.events[1])).toMatch(
      /past the log end .* re-reading \[700, 1000\) \(300 offsets\)/,
    );
  });

  const policies: Array<[OutOfRangePolicy, bigint, object, bigint, object]> = [
    // policy, corrected (below), ranges (below), corrected (above), ranges (above)
    ['earliest', 500n, { skipped: { from: 120n, to: 500n } }, 500n, { reread: { from: 500n, to: 1000n } }],
    ['latest', 900n, { skipped: { from: 120n, to: 900n } }, 900n, { reread: { from: 900n, to: 1000n } }],
  ];
  for (const [policy, belowTo, belowRanges, aboveTo, aboveRanges] of policies) {
    it(`policy ${policy} moves both kinds of out-of-range offsets to ${policy}`, () => {
      const result = checkOffsetRanges([p(0, 120n, 500n, 900n), p(1, 1000n, 500n, 900n)], { outOfRange: policy });
      expect(result.positions.map((x) => x.offset)).toEqual([belowTo, aboveTo]);
      expect(result.events[0]).toMatchObject({ policy, reason: 'below-earliest', ...belowRanges });
      expect(result.events[0]).not.toHaveProperty('reread');
      expect(result.events[1]).toMatchObject({ policy, reason: 'above-latest', ...aboveRanges });
      expect(result.events[1]).not.toHaveProperty('skipped');
    });
  }

  it('policy fail names every partition outside the log', () => {
    const error = (() => {
      try {
        checkOffsetRanges([p(0, 120n, 500n, 900n), p(1, 600n, 500n, 900n), p(2, 1000n, 500n, 900n)], {
          outOfRange: 'fail',
        });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(OffsetOutOfRangeError);
    expect((error as OffsetOutOfRangeError).partitions.map((x) => x.partition)).toEqual([0, 2]);
    expect((error as Error).message).toMatch(/orders-0: 120 not in \[500, 900\], orders-2: 1000/);
  });

  it('without a stored offset applies the auto offset reset, as an event', () => {
    const earliest = checkOffsetRanges([p(0, undefined, 500n, 900n)]);
    expect(earliest.positions).toEqual([{ topic: 'orders', partition: 0, offset: 500n, source: 'reset' }]);
    expect(earliest.events).toEqual([
      expect.objectContaining({
        type: 'offset-reset',
        reason: 'no-stored-offset',
        policy: 'earliest',
        corrected: 500n,
      }),
    ]);
    expect(earliest.events[0]).not.toHaveProperty('skipped');

    const latest = checkOffsetRanges([p(0, undefined, 500n, 900n)], { autoOffsetReset: 'latest' });
    expect(latest.positions[0].offset).toBe(900n);
    expect(latest.events[0]).toMatchObject({ policy: 'latest', skipped: { from: 500n, to: 900n } });
    expect(describeRangeEvent(latest.events[0])).toBe(
      'orders-0: no stored offset; auto offset reset latest starts at 900 (log [500, 900)), skipping [500, 900) (400 offsets)',
    );

    expect(() => checkOffsetRanges([p(0, undefined, 0n, 0n), p(1, 5n, 0n, 9n)], { autoOffsetReset: 'none' })).toThrow(
      NoStoredOffsetError,
    );
  });

  it('handles an empty log and refuses an impossible log range', () => {
    const empty = checkOffsetRanges([p(0, 0n, 0n, 0n), p(1, 5n, 3n, 3n)]);
    expect(empty.positions.map((x) => x.offset)).toEqual([0n, 3n]);
    expect(empty.events[0]).toMatchObject({ reread: { from: 3n, to: 5n } });
    expect(() => checkOffsetRanges([p(0, 0n, 10n, 5n)])).toThrow(ImplausibleResponseError);
  });
});
