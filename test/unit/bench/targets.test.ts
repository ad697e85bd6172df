/**
 * Issue 18's targets in the results files (bench/targets.ts): each tidemark row against the best named
 * peer of the same run, "today's main" as the --baseline row, the memory ceiling, and a clear cell when a
 * peer or the baseline was not measured.
 */
import { describe, expect, it } from 'vitest';
import { type ClientSummary, noteRow } from '../../../bench/report.js';
import { targetsTable } from '../../../bench/targets.js';

const row = (name: string, recordsPerSec: number, cpuSecPerMillion: number, peakRssMiB = 100): ClientSummary => ({
  ...noteRow(name, 'node', ''),
  note: undefined,
  recordsPerSec,
  cpuSecPerMillion,
  peakRssMiB,
});

const line = (table: string, target: string) => table.split('\n').find((l) => l.startsWith(`| ${target}`)) ?? '';

describe('workload targets', () => {
  it('headline: 2× Java, half of today’s main CPU, 150 MiB; the baseline has no column of its own', () => {
    const t = targetsTable('headline', [
      row('tidemark', 2_400_000, 0.4, 120),
      row('tidemark@abc1234', 1_200_000, 1.0, 140),
      row('Kafka Java consumer', 1_000_000, 2.8, 400),
    ]);
    expect(t.split('\n')[0]).toBe('| target | tidemark |');
    expect(line(t, '≥ 2× the Java consumer')).toContain('2.4× (met)');
    expect(line(t, 'CPU per record ≤ 0.5× today’s main')).toContain('0.4× its CPU (met)');
    expect(line(t, 'peak RSS ≤ 150 MiB')).toContain('120 MiB (met)');
    expect(line(t, '≥ 3× kafkajs')).toContain('no peer result');
  });

  it('values-1k compares against the faster librdkafka client, and says when there is no baseline', () => {
    const t = targetsTable('values-1k', [
      row('tidemark', 900_000, 1.6),
      row('kcat', 1_970_000, 0.6),
      row('@confluentinc/kafka-javascript', 1_000_000, 1.2),
      noteRow('Kafka Java consumer', 'java', 'FAILED: timed out'),
    ]);
    expect(line(t, '≥ the best librdkafka client')).toContain('0.46× kcat (missed by 54 %)');
    expect(line(t, '≥ 2× the Java consumer')).toContain('no peer result');
    expect(line(t, 'CPU per record ≤ 0.5× today’s main')).toContain('no baseline (--baseline <ref>)');
  });

  it('the scale and codec workloads have theirs; the others none', () => {
    expect(
      line(
        targetsTable('partitions-1000', [row('tidemark', 1_500_000, 1), row('Kafka Java consumer', 1_000_000, 3)]),
        '≥ 1.5×',
      ),
    ).toContain('1.5× (met)');
    expect(targetsTable('zstd', [row('tidemark', 1_000_000, 1), row('Kafka Java consumer', 1_000_000, 3)])).toContain(
      'missed by 50 %',
    );
    expect(targetsTable('partitions-1', [row('tidemark', 1, 1)])).toBe('');
  });
});
