/**
 * The fetch charts: every value label starts right of its bar and of its whisker's far end (no label struck
 * through), carries the ratio to the fastest peer, and committed tables parse back into the same numbers.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type ClientSummary,
  cpuBars,
  markdownTable,
  noteRow,
  parseResultsTable,
  svgChart,
  throughputBars,
} from '../../../bench/report.js';

const row = (name: string, rate: number, min: number, max: number, cpu: number): ClientSummary => ({
  name,
  runtime: 'node',
  rounds: 3,
  recordsPerSec: rate,
  recordsPerSecMin: min,
  recordsPerSecMax: max,
  mbPerSec: rate / 1e4,
  cpuSecPerMillion: cpu,
  peakRssMiB: 100,
});

const rows = [
  row('tidemark', 1_275_676, 1_020_777, 1_641_448, 0.85),
  row('kcat', 708_272, 649_664, 785_075, 2.06),
  row('Kafka Java consumer', 1_017_812, 926_784, 1_070_091, 2.8),
  noteRow('kafkajs', 'node', 'not supported: no zstd codec'),
];

describe('fetch chart', () => {
  it('puts every label right of its bar and whisker', () => {
    for (const bar of [...throughputBars(rows), ...cpuBars(rows)]) {
      expect(bar.labelX).toBeGreaterThan(bar.barEnd);
      expect(bar.labelX).toBeGreaterThan(bar.whiskerMax);
    }
  });

  it('names the ratio to the fastest peer on each bar', () => {
    const labels = Object.fromEntries(throughputBars(rows).map((b) => [b.name, b.label]));
    expect(labels.tidemark).toBe('1.28 M/s (1.25×)');
    expect(labels['Kafka Java consumer']).toBe('1.02 M/s (1.00×)');
    expect(labels.kcat).toBe('0.71 M/s (0.70×)');
    const svg = svgChart('Fetch throughput: test', rows);
    expect(svg).toContain('ratio to the fastest peer, Kafka Java consumer');
    expect(svg).toContain('CPU seconds per million records');
    expect(svg).toContain('not supported: no zstd codec');
  });

  it('parses a results table back into its numbers', () => {
    const parsed = parseResultsTable(markdownTable(rows));
    expect(parsed.map((r) => r.name)).toEqual(rows.map((r) => r.name));
    expect(parsed[0]).toMatchObject({ recordsPerSec: 1_275_676, recordsPerSecMin: 1_020_777, cpuSecPerMillion: 0.85 });
    expect(parsed[3].note).toBe('not supported: no zstd codec');
  });

  it('reads the committed headline table', () => {
    const committed = parseResultsTable(
      readFileSync(new URL('../../../bench/results/fetch.md', import.meta.url), 'utf8'),
    );
    expect(committed.find((r) => r.name === 'tidemark')?.recordsPerSec).toBeGreaterThan(0);
  });
});
