import { describe, expect, it } from 'vitest';
import { judgeTruncation } from '../../../src/cluster/offset-for-leader-epoch.js';

const at = (offset: bigint, leaderEpoch: number) => ({ topic: 't', partition: 0, offset, leaderEpoch });
const end = (leaderEpoch: number, endOffset: bigint) => ({ topic: 't', partition: 0, leaderEpoch, endOffset });

describe('judgeTruncation', () => {
  it('keeps a position its epoch still reaches', () => {
    expect(judgeTruncation(at(10n, 3), end(3, 10n))).toMatchObject({ status: 'valid', truncated: false });
    expect(judgeTruncation(at(5n, 3), end(3, 40n)).validPosition).toEqual({ offset: 5n, leaderEpoch: 3 });
  });

  it('reports truncation below the position and resumes at the end of the epoch', () => {
    const check = judgeTruncation(at(12n, 0), end(0, 8n));
    expect(check).toMatchObject({ status: 'truncated', truncated: true });
    expect(check.validPosition).toEqual({ offset: 8n, leaderEpoch: 0 });
  });

  it('uses the largest older epoch the leader has', () => {
    expect(judgeTruncation(at(30n, 4), end(2, 20n)).validPosition).toEqual({ offset: 20n, leaderEpoch: 2 });
  });

  it('flags an epoch the leader does not know at all', () => {
    expect(judgeTruncation(at(3n, 99), end(-1, -1n))).toMatchObject({
      status: 'unknown-epoch',
      truncated: true,
      validPosition: undefined,
    });
  });

  it('cannot check a position without an epoch', () => {
    expect(judgeTruncation(at(3n, -1), undefined)).toMatchObject({ status: 'unchecked', truncated: false });
  });
});
