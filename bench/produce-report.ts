/**
 * What the produce benchmark writes: bench/results/produce.md (the settings of every client, one table per
 * case, the issue's targets checked in the same run), produce.svg (both cases' charts, one above the other)
 * and the `--json` line of each case.
 */
import { cpus } from 'node:os';
import { HOW_NODE_CHILDREN_RUN } from './child-build.js';
import { type ClientSummary, markdownTable, svgChart } from './report.js';

export interface ProduceCaseResult {
  /** `produce-lz4` or `produce-none`. */
  workload: string;
  title: string;
  rows: ClientSummary[];
}

export interface RatioTarget {
  what: string;
  peer: string;
  factor: number;
}

/** The issue's produce targets: tidemark's records/s against each peer's, measured in the same run. */
export const PRODUCE_TARGETS: readonly RatioTarget[] = [
  { what: '≥ 1.5× Java ProducerPerformance', peer: 'Kafka Java producer', factor: 1.5 },
  { what: '≥ 3× kafkajs', peer: 'kafkajs', factor: 3 },
  { what: '≥ 1.5× @platformatic/kafka', peer: '@platformatic/kafka', factor: 1.5 },
];

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits }) : 'n/a';

/** Each tidemark row's ratio to each target's peer: met, or missed by how much; "no peer result" otherwise. */
export function ratioTargetsTable(rows: readonly ClientSummary[], targets: readonly RatioTarget[]): string {
  const ours = rows.filter((r) => r.name.startsWith('tidemark') && r.note === undefined);
  if (ours.length === 0) return '';
  const lines = [
    `| target | ${ours.map((o) => o.name).join(' | ')} |`,
    `| --- | ${ours.map(() => '---').join(' | ')} |`,
  ];
  for (const t of targets) {
    const peer = rows.find((r) => r.name === t.peer);
    const cells = ours.map((o) => {
      if (peer === undefined || peer.note !== undefined) return 'no peer result';
      const ratio = o.recordsPerSec / peer.recordsPerSec;
      return `${fmt(ratio, 2)}× (${ratio >= t.factor ? 'met' : `missed by ${fmt((1 - ratio / t.factor) * 100)} %`})`;
    });
    lines.push(`| ${t.what} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** `{"workload":…,"clients":{name:{recordsPerSec,mbPerSec,cpuSecPerMillion,peakRssMiB,node}},"unavailable":{…}}`. */
export function throughputJson(workload: string, rows: readonly ClientSummary[]): string {
  const measured = rows.filter((r) => r.note === undefined);
  const clients = Object.fromEntries(
    measured.map((r) => [
      r.name,
      {
        recordsPerSec: Math.round(r.recordsPerSec),
        mbPerSec: Number(r.mbPerSec.toFixed(2)),
        cpuSecPerMillion: Number(r.cpuSecPerMillion.toFixed(3)),
        peakRssMiB: Math.round(r.peakRssMiB),
        node: /node (v[\d.]+)/.exec(r.runtime)?.[1] ?? r.runtime,
      },
    ]),
  );
  const unavailable = Object.fromEntries(rows.filter((r) => r.note !== undefined).map((r) => [r.name, r.note]));
  return JSON.stringify({ workload, clients, unavailable });
}

/** Several charts of bench/report.ts's svgChart in one SVG, one above the other. */
export function stackCharts(charts: readonly string[]): string {
  let y = 0;
  const parts: string[] = [];
  let width = 0;
  for (const chart of charts) {
    const open = /<svg [^>]*>/.exec(chart)?.[0] ?? '';
    const height = Number(/height="(\d+)"/.exec(open)?.[1] ?? 0);
    width = Math.max(width, Number(/width="(\d+)"/.exec(open)?.[1] ?? 0));
    parts.push(chart.replace('<svg ', `<svg y="${y}" `));
    y += height + 20;
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${Math.max(0, y - 20)}">`,
    ...parts,
    '</svg>',
  ].join('\n');
}

export function produceChart(cases: readonly ProduceCaseResult[]): string {
  return stackCharts(cases.map((c) => svgChart(`Produce throughput: ${c.title}`, c.rows)));
}

/** What the produce and latency results say about their run besides the numbers. */
export interface RunFacts {
  valueBytes: number;
  partitions: number;
  rounds: number;
  kafkaVersion: string;
  loadAtStart: number;
  loadAtEnd: number;
  /** One markdown line per client: how it is run and timed. */
  settings: string[];
}

export interface ProduceRunFacts extends RunFacts {
  records: number;
}

/** The machine, its load (figures from a loaded machine are marked as not final), Node and the date. */
export function machineLine(f: RunFacts): string {
  const cores = cpus();
  const busy = f.loadAtStart > cores.length ? ' — a loaded machine: these figures are not final' : '';
  return `Machine: ${process.arch}, ${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'} shared with the broker, load average ${f.loadAtStart.toFixed(1)} at the start and ${f.loadAtEnd.toFixed(1)} at the end${busy}; the bench on Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`;
}

export function produceMarkdown(cases: readonly ProduceCaseResult[], f: ProduceRunFacts): string {
  const out = [
    '# Produce throughput',
    '',
    `Workload: ${fmt(f.records)} records per round, ${f.valueBytes}-byte values of random upper-case letters, no keys, acks all, idempotent, into a fresh topic of ${f.partitions} partitions (replication factor 1) per client per round; Kafka ${f.kafkaVersion} on loopback; ${f.rounds} alternating round${f.rounds === 1 ? '' : 's'}, each client in its own process, the order rotating; medians, with the spread of records/s over the rounds. Verified: after every round the topic’s end offsets add up to exactly the records sent, and each Node client counted that many acknowledgements. ${machineLine(f)}`,
    '',
    'How each client is run and timed:',
    '',
    ...f.settings,
    '',
  ];
  for (const c of cases) {
    out.push(`## ${c.workload}: ${c.title}`, '', markdownTable(c.rows), '');
    const targets = ratioTargetsTable(c.rows, PRODUCE_TARGETS);
    if (targets !== '') out.push('Targets of the issue (this run):', '', targets, '');
  }
  out.push(
    'MB/s counts value bytes. CPU s per 1M records is user + system time of the client’s process (the Node clients over the timed window; kcat and Java over the whole process). Where a client cannot run a case, its row says why instead of being dropped.',
    '',
    HOW_NODE_CHILDREN_RUN,
    '',
    '![chart](produce.svg)',
    '',
  );
  return out.join('\n');
}
