/**
 * The `--json` line of a fetch workload (bench/summary-json.ts): the shape
 * `{"workload":…,"clients":{name:{recordsPerSec,mbPerSec,cpuSecPerMillion,peakRssMiB,node}}}`, one line,
 * rounded figures, and clients without numbers listed apart with their reason.
 */
import { describe, expect, it } from 'vitest';
import { type ClientSummary, noteRow } from '../../../bench/report.js';
import { workloadJson, workloadJsonLine } from '../../../bench/summary-json.js';

const row = (name: string, runtime: string, rate: number, cpu: number, rss: number): ClientSummary => ({
  name,
  runtime,
  rounds: 3,
  recordsPerSec: rate,
  recordsPerSecMin: rate * 0.9,
  recordsPerSecMax: rate * 1.1,
  mbPerSec: rate / 9709.3,
  cpuSecPerMillion: cpu,
  peakRssMiB: rss,
});

const rows = [
  row('tidemark', 'node v20.19.5', 1_275_676.4, 0.85123, 97.3456),
  row('tidemark@abc1234', 'node v20.19.5, commit abc1234', 1_100_000.6, 1.2, 101),
  row('Kafka Java consumer', 'java 21.0.5, kafka-tools 4.1.1', 1_017_812, 2.8, 480.04),
  noteRow('kafkajs', 'node v20.19.5', 'not supported: no zstd codec'),
];

describe('bench --json line', () => {
  it('has the issue’s shape for every measured client, peak RSS included', () => {
    const j = workloadJson('headline', '2,000,000 records, 100-byte values', rows);
    expect(j.workload).toBe('headline');
    expect(Object.keys(j.clients)).toEqual(['tidemark', 'tidemark@abc1234', 'Kafka Java consumer']);
    for (const figures of Object.values(j.clients))
      expect(Object.keys(figures).sort()).toEqual(
        ['cpuSecPerMillion', 'mbPerSec', 'node', 'peakRssMiB', 'recordsPerSec'].sort(),
      );
    expect(j.clients.tidemark).toEqual({
      recordsPerSec: 1_275_676,
      mbPerSec: 131.39,
      cpuSecPerMillion: 0.851,
      peakRssMiB: 97.3,
      node: 'v20.19.5',
    });
    expect(j.clients['Kafka Java consumer'].node).toBe('java 21.0.5, kafka-tools 4.1.1');
    expect(j.unavailable).toEqual({ kafkajs: 'not supported: no zstd codec' });
  });

  it('is one line of JSON that parses back to the same object', () => {
    const line = workloadJsonLine('group-4', 'a group', rows);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual(workloadJson('group-4', 'a group', rows));
  });
});
