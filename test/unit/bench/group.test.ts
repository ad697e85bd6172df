/**
 * The group workloads' arithmetic (bench/clients/group.ts, group-coverage.ts, bench/results-markdown.ts): a
 * round's rate is the distinct records over the barrier's release to the last record, CPU and RSS summed over
 * the members; the members' record numbers show every record was read and count the re-reads; and the
 * partitions-1000 results header states tidemark's ratio to its own headline from the same run.
 */
import { describe, expect, it } from 'vitest';
import { everyRecordRead, groupResult, type MemberFinal } from '../../../bench/clients/group.js';
import { coverage, RecordRuns, type Run, recordNumber } from '../../../bench/clients/group-coverage.js';
import { benchValue } from '../../../bench/load.js';
import { type ClientSummary, noteRow, summarise } from '../../../bench/report.js';
import { groupParagraph, partitionsRatioLine } from '../../../bench/results-markdown.js';

/** The checksum the members compute: record numbers summed mod 2^32. */
const checksumOf = (runs: readonly Run[]) => {
  let sum = 0;
  for (const [from, to] of runs) for (let i = from; i < to; i++) sum = (sum + i) >>> 0;
  return sum;
};

const member = (joinedAt: number, lastAt: number, read: Run[] | undefined, records?: number): MemberFinal => {
  const n = records ?? (read ?? []).reduce((s, [a, b]) => s + b - a, 0);
  return {
    records: n,
    bytes: n * 108,
    checksum: read === undefined ? 0 : checksumOf(read),
    joinedAt,
    lastAt,
    cpuSeconds: 0.5,
    peakRssBytes: 100 * 1024 * 1024,
    runtime: 'node v20.19.5',
    ...(read === undefined ? {} : { read }),
  };
};

const round = { records: 400, recordBytes: 108 };

describe('record numbers read', () => {
  it('takes the number from the first four bytes of a bench value', () => {
    expect(recordNumber(benchValue(123_456, 100))).toBe(123_456);
    expect(recordNumber(benchValue(0xfffffffe, 100))).toBe(0xfffffffe);
    expect(recordNumber(new Uint8Array(3))).toBe(-1);
    expect(recordNumber(null)).toBe(-1);
  });

  it('keeps a member’s runs short, joining touching runs and keeping a copy read twice', () => {
    const runs = new RecordRuns();
    // Two partitions interleaved batch by batch, then partition 0's 10..14 read again after a rebalance.
    for (const [from, to] of [
      [0, 5],
      [100, 105],
      [5, 15],
      [105, 110],
      [10, 15],
    ])
      for (let i = from; i < to; i++) runs.add(i);
    expect(runs.snapshot()).toEqual([
      [0, 15],
      [10, 15],
      [100, 110],
    ]);
    runs.add(15);
    expect(runs.snapshot()).toEqual([
      [0, 15],
      [10, 16],
      [100, 110],
    ]);
  });

  it('counts distinct records, re-read copies and their numbers, gaps and strays', () => {
    const c = coverage(
      [
        [
          [0, 100],
          [150, 200],
        ],
        [
          [90, 160],
          [95, 100],
        ],
      ],
      250,
    );
    expect(c.copies).toBe(100 + 50 + 70 + 5);
    expect(c.distinct).toBe(200);
    expect(c.reReads).toBe(25); // 90..99 twice (95..99 a third time), 150..159 twice
    const again = checksumOf([
      [90, 100],
      [95, 100],
      [150, 160],
    ]);
    expect(c.reReadSum).toBe(again);
    expect(c.missing).toBe(50);
    expect(c.firstMissing).toBe(200);
    expect(coverage([[[0, 10]]], 5).outside).toBe(5);
    expect(coverage([[], [[3, 5]]], 5)).toMatchObject({ missing: 3, firstMissing: 0, distinct: 2 });
  });
});

describe('group round', () => {
  it('ends a round only when every record was read, however many copies the members read', () => {
    // 400 copies read, but 100..199 by nobody: a count of records would have stopped here.
    const twice: Run[] = [[0, 100]];
    expect(everyRecordRead([twice, twice, undefined, [[200, 400]]], 400)).toBe(false);
    expect(everyRecordRead([twice, [[100, 200]], undefined, [[200, 400]]], 400)).toBe(true);
    expect(everyRecordRead([undefined, undefined], 1)).toBe(false);
  });

  it('rates the group from the barrier’s release to the last record, summing CPU and RSS', () => {
    const r = groupResult(
      [
        member(1000, 3000, [[0, 100]]),
        member(1200, 5000, [
          [100, 250],
          [300, 400],
        ]),
        member(1500, 4000, [[250, 300]]),
      ],
      round,
      { withChecksum: true, releasedAt: 900 },
    );
    expect(r.records).toBe(400);
    expect(r.reReads).toBe(0);
    expect(r.bytes).toBe(400 * 108);
    expect(r.seconds).toBe(4.1);
    expect(r.cpuSeconds).toBe(1.5);
    expect(r.peakRssBytes).toBe(300 * 1024 * 1024);
    expect(r.checksum).toBe(checksumOf([[0, 400]]));
    expect(r.runtime).toBe('node v20.19.5 × 3');
  });

  it('counts each record once and shows the re-reads, with bytes and checksum of the distinct records', () => {
    // Member 1 read 0..199, was revoked before committing 150..199, and member 2 read them again.
    const r = groupResult([member(1000, 3000, [[0, 200]]), member(1000, 3000, [[150, 400]])], round, {
      withChecksum: true,
      releasedAt: 1000,
    });
    expect(r.records).toBe(400);
    expect(r.reReads).toBe(50);
    expect(r.bytes).toBe(400 * 108);
    expect(r.checksum).toBe(checksumOf([[0, 400]]));
  });

  it('fails the round when a record is missing or a member’s numbers do not add up', () => {
    const options = { withChecksum: true, releasedAt: 1 };
    expect(() => groupResult([member(1, 2, [[0, 100]]), member(1, 2, [[120, 400]])], round, options)).toThrow(
      'the group lost 20 of 400 records (first missing: record 100)',
    );
    expect(() => groupResult([member(1, 2, [[0, 400]], 401)], round, options)).toThrow(/member 1 counted 401/);
    expect(() => groupResult([member(1, 2, [[0, 401]])], round, options)).toThrow(/1 records that are not/);
  });

  it('times members of an older commit (no barrier, no numbers) from the first join, by their count', () => {
    const r = groupResult([member(1000, 3000, undefined, 100), member(1200, 5000, undefined, 300)], round, {
      withChecksum: false,
      releasedAt: 0,
    });
    expect(r.records).toBe(400);
    expect(r.seconds).toBe(4);
    expect(r.reReads).toBeUndefined();
    expect(r.checksum).toBeUndefined();
    expect(() => groupResult([member(0, 0, undefined, 0)], round, { withChecksum: true, releasedAt: 0 })).toThrow(
      /no member joined/,
    );
  });

  it('states each client’s group and its re-reads per round in the results', () => {
    const base = { records: 400, bytes: 1, seconds: 1, cpuSeconds: 1, peakRssBytes: 1, runtime: 'java' };
    const described = 'classic, range, 4 members holding 8/8/8/8 partitions';
    const java = summarise('Kafka Java consumer', [
      { ...base, reReads: 0, group: described },
      { ...base, reReads: 1234 },
    ]);
    const text = groupParagraph(4, [java, noteRow('kafkajs', 'node', 'FAILED: x')]);
    expect(text).toContain(`- **Kafka Java consumer**: ${described}; re-read records per round: 0, 1,234.`);
    expect(text).not.toContain('**kafkajs**');
  });
});

const rate = (name: string, recordsPerSec: number): ClientSummary => ({
  ...noteRow(name, 'node', ''),
  note: undefined,
  recordsPerSec,
});

describe('partitions-1000 header', () => {
  it('states tidemark’s ratio to its own headline and the target verdict', () => {
    const line = partitionsRatioLine([rate('tidemark', 900_000)], [rate('tidemark', 1_000_000)]);
    expect(line).toContain('**0.90×**');
    expect(line).toContain('target ≥ 0.8×: met');
    expect(partitionsRatioLine([rate('tidemark', 600_000)], [rate('tidemark', 1_000_000)])).toContain('missed by 25 %');
  });

  it('says so when the headline was not measured in the same run', () => {
    expect(partitionsRatioLine([rate('tidemark', 600_000)], undefined)).toMatch(/not measured in this run/);
  });
});
