/**
 * The group workloads' arithmetic (bench/clients/group.ts, bench/results-markdown.ts): a round's rate is
 * the total over first join to last record, CPU and RSS summed over the members; and the partitions-1000
 * results header states tidemark's ratio to its own headline from the same run.
 */
import { describe, expect, it } from 'vitest';
import { groupResult, type MemberFinal } from '../../../bench/clients/group.js';
import { type ClientSummary, noteRow } from '../../../bench/report.js';
import { partitionsRatioLine } from '../../../bench/results-markdown.js';

const member = (joinedAt: number, lastAt: number, records: number, checksum: number): MemberFinal => ({
  records,
  bytes: records * 108,
  checksum,
  joinedAt,
  lastAt,
  cpuSeconds: 0.5,
  peakRssBytes: 100 * 1024 * 1024,
  runtime: 'node v20.19.5',
});

describe('group round', () => {
  it('rates the group from the first join to the last record, summing CPU, RSS and records', () => {
    const r = groupResult(
      [member(1000, 3000, 100, 0xffffffff), member(1200, 5000, 300, 2), member(1500, 4000, 0, 0)],
      true,
    );
    expect(r.records).toBe(400);
    expect(r.bytes).toBe(400 * 108);
    expect(r.seconds).toBe(4);
    expect(r.cpuSeconds).toBe(1.5);
    expect(r.peakRssBytes).toBe(300 * 1024 * 1024);
    expect(r.checksum).toBe(1); // sums mod 2^32, as the single-process clients do
    expect(r.runtime).toBe('node v20.19.5 × 3');
  });

  it('leaves the checksum out where the members do not compute it, and fails when nobody joined', () => {
    expect(groupResult([member(1, 2, 5, 0)], false).checksum).toBeUndefined();
    expect(() => groupResult([member(0, 0, 0, 0)], true)).toThrow(/no member joined/);
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
