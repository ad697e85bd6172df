import { describe, expect, it } from 'vitest';
import { decodeRecords } from '../../../../codecs/records/decode.js';
import { encodeRecordBatch } from '../../../../codecs/records/index.js';
import { ConsumerRecord, RecordSource } from '../../../../src/consumer/consumer-record.js';
import { PartitionState, Positions } from '../../../../src/consumer/positions.js';

function records(n: number, baseOffset: bigint): ConsumerRecord[] {
  const [batch] = decodeRecords(
    encodeRecordBatch(
      [...Array(n)].map(() => ({ value: null })),
      { baseOffset, partitionLeaderEpoch: 3 },
    ),
  ).batches;
  const source = new RecordSource('t', 0, batch.partitionLeaderEpoch);
  return batch.records.map((r) => new ConsumerRecord(source, r));
}

describe('PartitionState', () => {
  it('keeps the processed mark as a record until an offset is needed, and acks never move it back', () => {
    const s = new PartitionState('t', 0);
    const rs = records(5, 100n);
    s.markRecordProcessed(rs[2]);
    expect(s.processed()).toEqual({ offset: 103n, leaderEpoch: 3 });
    s.ackUpTo(rs[1]);
    expect(s.processed()?.offset).toBe(103n);
    s.ackUpTo(rs[4]);
    expect(s.processed()?.offset).toBe(105n);
  });

  it('a move voids what was fetched ahead (new generation) and counts as a deliberate move; a rewind does not', () => {
    const s = new PartitionState('t', 0);
    s.moveTo(10n, 1);
    s.fetchOffset = 50n;
    const { generation, moves } = s;
    s.rewind();
    expect([s.fetchOffset, s.generation, s.moves]).toEqual([10n, generation + 1, moves]);
    s.moveTo(3n, -1);
    expect([s.position, s.fetchOffset, s.moves]).toEqual([3n, 3n, moves + 1]);
  });

  it('lag: from the position to the high watermark, or the last stable offset with read_committed', () => {
    const s = new PartitionState('t', 0);
    expect(s.lag(false)).toBeUndefined();
    s.moveTo(40n, 0);
    s.highWatermark = 100n;
    s.lastStableOffset = 90n;
    expect(s.lag(false)).toBe(60n);
    expect(s.lag(true)).toBe(50n);
  });
});

describe('Positions', () => {
  it('finds states by topic and partition; removing one bumps its generation so in-flight data is void', () => {
    const p = new Positions();
    const a = p.add('t', 0);
    expect(p.add('t', 0)).toBe(a);
    const g = a.generation;
    p.remove('t', 0);
    expect(p.get('t', 0)).toBeUndefined();
    expect(a.generation).toBe(g + 1);
    expect(() => p.require({ topic: 't', partition: 0 })).toThrow(/not assigned/);
  });
});
