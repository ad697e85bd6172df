/**
 * What the latency benchmark writes: per client the median over the rounds of each round's p50 / p99 / p99.9
 * and maximum (with the spread of p99), the rate it achieved, CPU and peak RSS; bench/results/latency.md,
 * latency.svg and the `--json` line.
 */
import { HOW_NODE_CHILDREN_RUN } from './child-build.js';
import { type LatencyPercentiles, percentiles } from './latency-stats.js';
import { machineLine, type RunFacts } from './produce-report.js';
import { median } from './report.js';

/** One round of one client: its percentiles and what the child reported. */
export interface LatencyRound extends LatencyPercentiles {
  achievedRate: number;
  cpuSeconds: number;
  peakRssBytes: number;
  records: number;
}

export interface LatencySummary {
  name: string;
  runtime: string;
  rounds: number;
  p50Ms: number;
  p99Ms: number;
  p99MinMs: number;
  p99MaxMs: number;
  p999Ms: number;
  maxMs: number;
  achievedRate: number;
  cpuSecPerMillion: number;
  peakRssMiB: number;
  note?: string;
}

export function latencyRound(
  samples: Float64Array,
  r: { achievedRate: number; cpuSeconds: number; peakRssBytes: number; records: number },
): LatencyRound {
  return { ...percentiles(samples), ...r };
}

export function summariseLatency(name: string, runtime: string, rounds: readonly LatencyRound[]): LatencySummary {
  const p99s = rounds.map((r) => r.p99Ms);
  return {
    name,
    runtime,
    rounds: rounds.length,
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(p99s),
    p99MinMs: Math.min(...p99s),
    p99MaxMs: Math.max(...p99s),
    p999Ms: median(rounds.map((r) => r.p999Ms)),
    maxMs: median(rounds.map((r) => r.maxMs)),
    achievedRate: median(rounds.map((r) => r.achievedRate)),
    cpuSecPerMillion: median(rounds.map((r) => (r.cpuSeconds / r.records) * 1e6)),
    peakRssMiB: median(rounds.map((r) => r.peakRssBytes / 1024 / 1024)),
  };
}

export function latencyNoteRow(name: string, runtime: string, note: string): LatencySummary {
  const nan = Number.NaN;
  return {
    name,
    runtime,
    rounds: 0,
    p50Ms: nan,
    p99Ms: nan,
    p99MinMs: nan,
    p99MaxMs: nan,
    p999Ms: nan,
    maxMs: nan,
    achievedRate: nan,
    cpuSecPerMillion: nan,
    peakRssMiB: nan,
    note,
  };
}

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 }) : 'n/a';
const ms = (n: number) => fmt(n, n < 10 ? 2 : 1);
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function latencyTable(rows: readonly LatencySummary[]): string {
  const lines = [
    '| client | runtime | p50 ms | p99 ms | p99 spread (min–max) | p99.9 ms | max ms | records/s sent | CPU s per 1M records | peak RSS MiB |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    if (r.note !== undefined) {
      lines.push(`| ${cell(r.name)} | ${cell(r.runtime)} | ${cell(r.note)} | | | | | | | |`);
      continue;
    }
    lines.push(
      `| ${cell(r.name)} | ${cell(r.runtime)} | ${ms(r.p50Ms)} | ${ms(r.p99Ms)} | ${ms(r.p99MinMs)}–${ms(r.p99MaxMs)} | ${ms(r.p999Ms)} | ${ms(r.maxMs)} | ${fmt(r.achievedRate)} | ${fmt(r.cpuSecPerMillion, 2)} | ${fmt(r.peakRssMiB)} |`,
    );
  }
  return lines.join('\n');
}

/** The issue's latency target: each tidemark row's p99 against the Java client's, from the same run. */
export function latencyTargets(rows: readonly LatencySummary[]): string {
  const java = rows.find((r) => r.name === 'Kafka Java client' && r.note === undefined);
  const ours = rows.filter((r) => r.name.startsWith('tidemark') && r.note === undefined);
  if (ours.length === 0) return '';
  return [
    '| target | client | ratio |',
    '| --- | --- | --- |',
    ...ours.map((o) => {
      if (java === undefined) return `| p99 ≤ Java’s p99 | ${o.name} | no Java result |`;
      const ratio = o.p99Ms / java.p99Ms;
      const verdict = ratio <= 1 ? 'met' : `missed by ${fmt((ratio - 1) * 100)} %`;
      return `| p99 ≤ Java’s p99 | ${o.name} | ${fmt(ratio, 2)}× Java’s p99 (${verdict}) |`;
    }),
  ].join('\n');
}

export function latencyJson(rate: number, seconds: number, rows: readonly LatencySummary[]): string {
  const clients = Object.fromEntries(
    rows
      .filter((r) => r.note === undefined)
      .map((r) => [
        r.name,
        {
          p50Ms: Number(r.p50Ms.toFixed(3)),
          p99Ms: Number(r.p99Ms.toFixed(3)),
          p999Ms: Number(r.p999Ms.toFixed(3)),
          maxMs: Number(r.maxMs.toFixed(3)),
          achievedRate: Math.round(r.achievedRate),
          cpuSecPerMillion: Number(r.cpuSecPerMillion.toFixed(3)),
          peakRssMiB: Math.round(r.peakRssMiB),
          node: /node (v[\d.]+)/.exec(r.runtime)?.[1] ?? r.runtime,
        },
      ]),
  );
  const unavailable = Object.fromEntries(rows.filter((r) => r.note !== undefined).map((r) => [r.name, r.note]));
  return JSON.stringify({ workload: 'latency', rate, seconds, clients, unavailable });
}

const WIDTH = 900;
const LEFT = 230;
const LABEL_ROOM = 110;
const BAR_H = 20;
const GAP = 8;

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * One panel per percentile (p50, p99 with its spread over the rounds as a whisker, p99.9), each on its own
 * scale; the label starts right of the bar and of the whisker. Clients without numbers say why.
 */
export function latencyChart(title: string, rows: readonly LatencySummary[]): string {
  const panels: { title: string; value: (r: LatencySummary) => number; whisker?: (r: LatencySummary) => number[] }[] = [
    { title: 'p50 ms (lower is better)', value: (r) => r.p50Ms },
    {
      title: 'p99 ms (whisker: min–max over the rounds)',
      value: (r) => r.p99Ms,
      whisker: (r) => [r.p99MinMs, r.p99MaxMs],
    },
    { title: 'p99.9 ms', value: (r) => r.p999Ms },
  ];
  const panelHeight = rows.length * (BAR_H + GAP);
  const out: string[] = [];
  let top = 60;
  for (const p of panels) {
    const measured = rows.filter((r) => r.note === undefined);
    const max = Math.max(...measured.map((r) => Math.max(p.value(r), ...(p.whisker?.(r) ?? []))), 0.001);
    const x = (v: number) => LEFT + ((WIDTH - LEFT - LABEL_ROOM) * v) / max;
    out.push(`<text x="${LEFT}" y="${top - 10}" font-weight="bold">${escapeXml(p.title)}</text>`);
    rows.forEach((r, i) => {
      const y = top + i * (BAR_H + GAP);
      const mid = y + BAR_H / 2;
      out.push(`<text x="${LEFT - 8}" y="${mid + 5}" text-anchor="end">${escapeXml(r.name)}</text>`);
      if (r.note !== undefined) {
        const note = r.note.length > 70 ? `${r.note.slice(0, 69)}…` : r.note;
        out.push(`<text x="${LEFT}" y="${mid + 5}" fill="#b62324" font-style="italic">${escapeXml(note)}</text>`);
        return;
      }
      const end = x(p.value(r));
      const fill = r.name.startsWith('tidemark') ? '#1f6feb' : '#8b949e';
      out.push(`<rect x="${LEFT}" y="${y}" width="${(end - LEFT).toFixed(1)}" height="${BAR_H}" fill="${fill}"/>`);
      let labelX = end + 6;
      const w = p.whisker?.(r);
      if (w !== undefined) {
        out.push(
          `<line x1="${x(w[0]).toFixed(1)}" x2="${x(w[1]).toFixed(1)}" y1="${mid}" y2="${mid}" stroke="#000" stroke-width="1.5"/>`,
        );
        labelX = Math.max(labelX, x(w[1]) + 6);
      }
      out.push(`<text x="${labelX.toFixed(1)}" y="${mid + 5}">${escapeXml(`${ms(p.value(r))} ms`)}</text>`);
    });
    top += panelHeight + 40;
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${top - 30}" font-family="sans-serif" font-size="13">`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-weight="bold">${escapeXml(title)}</text>`,
    ...out,
    '</svg>',
  ].join('\n');
}

export interface LatencyRunFacts extends RunFacts {
  rate: number;
  seconds: number;
  warmupSeconds: number;
}

export function latencyMarkdown(rows: readonly LatencySummary[], f: LatencyRunFacts): string {
  const targets = latencyTargets(rows);
  return [
    '# Produce → consume latency',
    '',
    `Workload: ${fmt(f.rate)} records/s for ${fmt(f.seconds)} s, ${f.valueBytes}-byte values, acks all, idempotent, into a fresh topic of ${f.partitions} partitions (replication factor 1) per client per round; each client produces and consumes with its own client in one process. Latency = the time the consumer hands a record to the application − the time the application called send for it, both read from the epoch clock with microsecond precision and the send time carried in the value; percentiles by nearest rank over every record sent after the first ${fmt(f.warmupSeconds)} s (warm-up). Kafka ${f.kafkaVersion} on loopback; ${f.rounds} alternating round${f.rounds === 1 ? '' : 's'}, each client in its own process, the order rotating; the medians over the rounds of each round’s percentiles. Verified: every record sent came back exactly once (a sequence number in the value). ${machineLine(f)}`,
    '',
    'How each client is run:',
    '',
    ...f.settings,
    '',
    latencyTable(rows),
    '',
    ...(targets === '' ? [] : ['Target of the issue (this run):', '', targets, '']),
    'CPU s per 1M records is user + system time of the client’s process (producing and consuming) over the records sent; the Node clients from the first send, Java over the whole JVM (start-up and JIT included). Where a client cannot run, its row says why instead of being dropped.',
    '',
    HOW_NODE_CHILDREN_RUN,
    '',
    '![chart](latency.svg)',
    '',
  ].join('\n');
}
