/**
 * The produce and latency benchmarks' plumbing without a broker: the alternating order and a failed client's
 * exclusion, `--clients` and `--rate` / `--seconds` checking, ProducerPerformance's summary line, the target
 * ratios, the `--json` lines the issue names, and the stacked chart.
 */
import { describe, expect, it } from 'vitest';
import { parseProducerPerformance } from '../../../bench/clients/java-produce.js';
import { latencyJson, latencyNoteRow, latencyTargets, summariseLatency } from '../../../bench/latency-report.js';
import { latencyArgs } from '../../../bench/produce-command.js';
import { produceMarkdown, ratioTargetsTable, stackCharts, throughputJson } from '../../../bench/produce-report.js';
import { alternateRounds, selectClients } from '../../../bench/produce-rounds.js';
import { settingsLines } from '../../../bench/produce-settings.js';
import { type ClientSummary, noteRow } from '../../../bench/report.js';

const clients = ['a', 'b', 'c'].map((id) => ({ id, name: id.toUpperCase() }));

describe('alternateRounds', () => {
  it('rotates who goes first each round and stops running a client after it fails', async () => {
    const order: string[] = [];
    const { results, failures } = await alternateRounds(
      clients,
      3,
      async (c, round) => {
        order.push(`${round}${c.id}`);
        if (c.id === 'b' && round === 2) throw new Error('wrote 9 records, not 10\nstack…');
        return round;
      },
      () => {},
    );
    expect(order).toEqual(['1a', '1b', '1c', '2b', '2c', '2a', '3c', '3a']);
    expect(results.get('a')).toEqual([1, 2, 3]);
    expect(results.get('b')).toEqual([1]);
    expect(failures).toEqual(new Map([['b', 'wrote 9 records, not 10']]));
  });
});

describe('option checking', () => {
  it('selects clients by id, all by default, and names the known ids for an unknown one', () => {
    expect(selectClients(clients, undefined)).toHaveLength(3);
    expect(selectClients(clients, 'c, a').map((c) => c.id)).toEqual(['c', 'a']);
    expect(() => selectClients(clients, 'a,zz')).toThrow('unknown client zz; this benchmark has: a, b, c');
  });

  it('takes --rate and --seconds, with 20,000/s for 60 s by default', () => {
    expect(latencyArgs(undefined, undefined)).toEqual({ rate: 20_000, seconds: 60 });
    expect(latencyArgs('5000', '10')).toEqual({ rate: 5000, seconds: 10 });
    expect(latencyArgs('fast', undefined)).toMatch(/--rate must be a positive integer/);
    expect(latencyArgs(undefined, '1')).toMatch(/--seconds must be more than the 1 s warm-up/);
  });
});

describe('ProducerPerformance output', () => {
  it('reads the final total line, not the progress lines', () => {
    const out = [
      '492156 records sent, 98411.5 records/sec (9.39 MB/sec), 1.3 ms avg latency, 160.0 ms max latency.',
      '2000000 records sent, 412371.134021 records/sec (39.33 MB/sec), 5.21 ms avg latency, 210.00 ms max latency, 2 ms 50th, 9 ms 95th, 20 ms 99th, 150 ms 99.9th.',
    ].join('\n');
    expect(parseProducerPerformance(out)).toEqual({ records: 2_000_000, recordsPerSec: 412371.134021 });
    expect(parseProducerPerformance('Exception in thread "main"')).toBeUndefined();
  });
});

const row = (name: string, rate: number): ClientSummary => ({
  name,
  runtime: name.startsWith('Kafka') ? 'java 17' : 'node v20.20.2',
  rounds: 3,
  recordsPerSec: rate,
  recordsPerSecMin: rate * 0.9,
  recordsPerSecMax: rate * 1.1,
  mbPerSec: (rate * 100) / 1024 / 1024,
  cpuSecPerMillion: 1.5,
  peakRssMiB: 120.4,
});

describe('produce report', () => {
  const rows = [
    row('tidemark', 600_000),
    row('kafkajs', 100_000),
    noteRow('@platformatic/kafka', 'node v24', 'FAILED: timed out'),
    row('Kafka Java producer', 500_000),
  ];

  it('checks the issue’s ratios against the peers of the same run', () => {
    const table = ratioTargetsTable(rows, [
      { what: '≥ 1.5× Java', peer: 'Kafka Java producer', factor: 1.5 },
      { what: '≥ 3× kafkajs', peer: 'kafkajs', factor: 3 },
      { what: '≥ 1.5× platformatic', peer: '@platformatic/kafka', factor: 1.5 },
    ]);
    expect(table).toContain('| ≥ 1.5× Java | 1.2× (missed by 20 %) |');
    expect(table).toContain('| ≥ 3× kafkajs | 6× (met) |');
    expect(table).toContain('| ≥ 1.5× platformatic | no peer result |');
  });

  it('prints the JSON line the issue names, with the reasons for clients without numbers', () => {
    const json = JSON.parse(throughputJson('produce-lz4', rows));
    expect(json.workload).toBe('produce-lz4');
    expect(json.clients.tidemark).toEqual({
      recordsPerSec: 600_000,
      mbPerSec: 57.22,
      cpuSecPerMillion: 1.5,
      peakRssMiB: 120,
      node: 'v20.20.2',
    });
    expect(Object.keys(json.clients)).toEqual(['tidemark', 'kafkajs', 'Kafka Java producer']);
    expect(json.unavailable).toEqual({ '@platformatic/kafka': 'FAILED: timed out' });
  });

  it('states every client’s settings above the tables and marks figures from a loaded machine', () => {
    const facts = { valueBytes: 100, partitions: 8, rounds: 3, kafkaVersion: '4.4.0', loadAtEnd: 1 };
    const md = produceMarkdown([{ workload: 'produce-lz4', title: 'acks all, idempotent, lz4', rows }], {
      ...facts,
      records: 2_000_000,
      loadAtStart: 64,
      settings: settingsLines(),
    });
    const settingsAt = md.indexOf('- **kcat**');
    expect(settingsAt).toBeGreaterThan(0);
    expect(settingsAt).toBeLessThan(md.indexOf('| client |'));
    for (const peer of [
      'tidemark',
      'kafkajs',
      '@platformatic/kafka',
      '@confluentinc/kafka-javascript',
      'Kafka Java producer',
    ])
      expect(md).toContain(`- **${peer}**`);
    expect(md).toContain('`linger.ms=10`');
    expect(md).toContain(
      'load average 64.0 at the start and 1.0 at the end — a loaded machine: these figures are not final',
    );
    const quiet = produceMarkdown([], { ...facts, records: 1, loadAtStart: 0.2, settings: [] });
    expect(quiet).not.toContain('not final');
  });

  it('stacks charts one below the other in one SVG', () => {
    const chart = (h: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${h}"><rect/></svg>`;
    const svg = stackCharts([chart(100), chart(50)]);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="900" height="170">/);
    expect(svg).toContain('<svg y="0" xmlns');
    expect(svg).toContain('<svg y="120" xmlns');
  });
});

describe('latency report', () => {
  const round = (p99Ms: number) => ({
    samples: 1000,
    p50Ms: 2,
    p99Ms,
    p999Ms: p99Ms * 2,
    maxMs: 50,
    meanMs: 3,
    achievedRate: 20_000,
    cpuSeconds: 6,
    peakRssBytes: 100 * 1024 * 1024,
    records: 1_200_000,
  });

  it('takes the medians over the rounds, the p99 spread, and checks p99 against Java’s', () => {
    const tidemark = summariseLatency('tidemark', 'node v20.20.2', [round(8), round(4), round(6)]);
    expect(tidemark).toMatchObject({ p99Ms: 6, p99MinMs: 4, p99MaxMs: 8, p999Ms: 12, cpuSecPerMillion: 5 });
    const java = summariseLatency('Kafka Java client', 'java 17', [round(5)]);
    expect(latencyTargets([tidemark, java])).toContain(
      '| p99 ≤ Java’s p99 | tidemark | 1.2× Java’s p99 (missed by 20 %) |',
    );
    const json = JSON.parse(latencyJson(20_000, 60, [tidemark, java, latencyNoteRow('kafkajs', '', 'FAILED: x')]));
    expect(json).toMatchObject({
      workload: 'latency',
      rate: 20_000,
      seconds: 60,
      unavailable: { kafkajs: 'FAILED: x' },
    });
    expect(json.clients.tidemark).toMatchObject({ p50Ms: 2, p99Ms: 6, p999Ms: 12, node: 'v20.20.2' });
  });
});
