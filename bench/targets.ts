/**
 * The issues' targets for the fetch workloads, checked against one run: for each tidemark row (Node 20 and
 * Node 24) met or missed and by how much, each a ratio to a peer measured in the same run. Issue 18's
 * "today's main" is the `--baseline` row (`tidemark@<sha>`); the earlier issues' headline targets stay.
 */
import { type ClientSummary, cell, fmt } from './report.js';

type Target =
  /** tidemark's records/s ≥ factor × the best of `peers`. */
  | { what: string; kind: 'rate'; peers: readonly string[]; factor: number }
  /** tidemark's CPU per record ≤ factor × the peer's. */
  | { what: string; kind: 'cpu'; peers: readonly string[]; factor: number }
  /** tidemark's CPU per record ≤ factor × the `--baseline` build's. */
  | { what: string; kind: 'baseline-cpu'; factor: number }
  /** tidemark's peak RSS ≤ maxMiB. */
  | { what: string; kind: 'rss'; maxMiB: number };

const JAVA = 'Kafka Java consumer';
const LIBRDKAFKA = ['kcat', 'kcat (check.crcs=true)', '@confluentinc/kafka-javascript'];
const twiceJava: Target = { what: '≥ 2× the Java consumer records/s', kind: 'rate', peers: [JAVA], factor: 2 };
const halfMainCpu: Target = { what: 'CPU per record ≤ 0.5× today’s main', kind: 'baseline-cpu', factor: 0.5 };

/** By workload name. */
export const WORKLOAD_TARGETS: Readonly<Record<string, readonly Target[]>> = {
  headline: [
    twiceJava,
    halfMainCpu,
    { what: 'peak RSS ≤ 150 MiB (default options)', kind: 'rss', maxMiB: 150 },
    { what: '≥ 3× kafkajs records/s', kind: 'rate', peers: ['kafkajs'], factor: 3 },
    { what: '≥ 1.5× @platformatic/kafka records/s', kind: 'rate', peers: ['@platformatic/kafka'], factor: 1.5 },
    { what: '≥ the librdkafka binding records/s', kind: 'rate', peers: ['@confluentinc/kafka-javascript'], factor: 1 },
    { what: 'CPU per 1M records ≤ @platformatic/kafka', kind: 'cpu', peers: ['@platformatic/kafka'], factor: 1 },
  ],
  'values-1k': [
    {
      what: '≥ the best librdkafka client (kcat with or without its CRC check, or the binding) records/s',
      kind: 'rate',
      peers: LIBRDKAFKA,
      factor: 1,
    },
    twiceJava,
    halfMainCpu,
  ],
  snappy: [twiceJava],
  lz4: [twiceJava],
  zstd: [twiceJava],
  'partitions-1000': [{ what: '≥ 1.5× the Java consumer records/s', kind: 'rate', peers: [JAVA], factor: 1.5 }],
};

/** The core's rows (Node 20 and 24); the tidemark/kafkajs rows have targets of their own, the baseline none. */
const isCoreRow = (name: string) =>
  name.startsWith('tidemark') && !name.startsWith('tidemark/kafkajs') && !name.startsWith('tidemark@');

const measured = (rows: ClientSummary[], name: string) => rows.find((r) => r.name === name && r.note === undefined);

function verdictCell(o: ClientSummary, t: Target, rows: ClientSummary[]): string {
  if (t.kind === 'rss') {
    const met = o.peakRssMiB <= t.maxMiB;
    return `${fmt(o.peakRssMiB)} MiB (${met ? 'met' : `missed by ${fmt((o.peakRssMiB / t.maxMiB - 1) * 100)} %`})`;
  }
  const candidates =
    t.kind === 'baseline-cpu'
      ? rows.filter((r) => r.name.startsWith('tidemark@') && r.note === undefined)
      : t.peers.map((n) => measured(rows, n)).filter((r) => r !== undefined);
  if (candidates.length === 0) return t.kind === 'baseline-cpu' ? 'no baseline (--baseline <ref>)' : 'no peer result';
  if (t.kind === 'rate') {
    const peer = candidates.reduce((a, r) => (r.recordsPerSec > a.recordsPerSec ? r : a));
    const ratio = o.recordsPerSec / peer.recordsPerSec;
    const verdict = ratio >= t.factor ? 'met' : `missed by ${fmt((1 - ratio / t.factor) * 100)} %`;
    return `${fmt(ratio, 2)}×${t.peers.length > 1 ? ` ${cell(peer.name)}` : ''} (${verdict})`;
  }
  const peer = candidates[0];
  const ratio = o.cpuSecPerMillion / peer.cpuSecPerMillion;
  const verdict = ratio <= t.factor ? 'met' : `missed by ${fmt((ratio / t.factor - 1) * 100)} %`;
  return `${fmt(ratio, 2)}× its CPU (${verdict})`;
}

/** The workload's targets as a Markdown table ('' when it has none and no tidemark/kafkajs rows). */
export function targetsTable(workload: string, rows: ClientSummary[]): string {
  const targets = WORKLOAD_TARGETS[workload] ?? [];
  const ours = rows.filter((r) => isCoreRow(r.name) && r.note === undefined);
  const facade = workload === 'headline' ? facadeTargetsTable(rows) : '';
  if (ours.length === 0 || targets.length === 0) return facade;
  const lines = [
    `| target | ${ours.map((o) => cell(o.name)).join(' | ')} |`,
    `| --- | ${ours.map(() => '---').join(' | ')} |`,
    ...targets.map((t) => `| ${t.what} | ${ours.map((o) => verdictCell(o, t, rows)).join(' | ')} |`),
  ];
  return facade === '' ? lines.join('\n') : `${lines.join('\n')}\n\n${facade}`;
}

/** Issue 15's targets for tidemark/kafkajs: each row against its peer, measured in the same run. */
const FACADE_TARGETS = [
  { row: 'tidemark/kafkajs eachBatch', what: '≥ 0.8× the core consumer records/s', peer: 'tidemark', factor: 0.8 },
  {
    row: 'tidemark/kafkajs eachMessage',
    what: '≥ 3× kafkajs eachMessage records/s',
    peer: 'kafkajs eachMessage',
    factor: 3,
  },
] as const;

export function facadeTargetsTable(rows: ClientSummary[]): string {
  const lines = ['| tidemark/kafkajs target | ratio |', '| --- | --- |'];
  for (const t of FACADE_TARGETS) {
    const row = measured(rows, t.row);
    if (row === undefined) continue;
    const peer = measured(rows, t.peer);
    if (peer === undefined) {
      lines.push(`| ${t.row} ${t.what} | no peer result |`);
      continue;
    }
    const ratio = row.recordsPerSec / peer.recordsPerSec;
    const verdict = ratio >= t.factor ? 'met' : `missed by ${fmt((1 - ratio / t.factor) * 100)} %`;
    lines.push(`| ${t.row} ${t.what} | ${fmt(ratio, 2)}× (${verdict}) |`);
  }
  return lines.length === 2 ? '' : lines.join('\n');
}
