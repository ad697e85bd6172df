import type { ClientResult } from './clients/result.js';

export interface ClientSummary {
  name: string;
  runtime: string;
  rounds: number;
  recordsPerSec: number;
  recordsPerSecMin: number;
  recordsPerSecMax: number;
  mbPerSec: number;
  cpuSecPerMillion: number;
  peakRssMiB: number;
  /** Set when the client has no numbers: "not available: …", "not supported: …" or "FAILED: …". */
  note?: string;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function summarise(name: string, rounds: ClientResult[], runtime?: string): ClientSummary {
  const rates = rounds.map((r) => r.records / r.seconds);
  return {
    name,
    runtime: runtime ?? rounds[0]?.runtime ?? '',
    rounds: rounds.length,
    recordsPerSec: median(rates),
    recordsPerSecMin: Math.min(...rates),
    recordsPerSecMax: Math.max(...rates),
    mbPerSec: median(rounds.map((r) => r.bytes / 1024 / 1024 / r.seconds)),
    cpuSecPerMillion: median(rounds.map((r) => (r.cpuSeconds / r.records) * 1e6)),
    peakRssMiB: median(rounds.map((r) => r.peakRssBytes / 1024 / 1024)),
  };
}

/** A row for a client that produced no numbers, with the reason shown in the table and chart. */
export function noteRow(name: string, runtime: string, note: string): ClientSummary {
  return {
    name,
    runtime,
    rounds: 0,
    recordsPerSec: Number.NaN,
    recordsPerSecMin: Number.NaN,
    recordsPerSecMax: Number.NaN,
    mbPerSec: Number.NaN,
    cpuSecPerMillion: Number.NaN,
    peakRssMiB: Number.NaN,
    note,
  };
}

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits }) : 'n/a';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function markdownTable(rows: ClientSummary[]): string {
  const lines = [
    '| client | runtime | records/s (median) | spread (min–max) | MB/s | CPU s per 1M records | peak RSS MiB |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    if (r.note !== undefined) {
      lines.push(`| ${cell(r.name)} | ${cell(r.runtime)} | ${cell(r.note)} | | | | |`);
      continue;
    }
    lines.push(
      `| ${cell(r.name)} | ${cell(r.runtime)} | ${fmt(r.recordsPerSec)} | ${fmt(r.recordsPerSecMin)}–${fmt(r.recordsPerSecMax)} | ${fmt(r.mbPerSec, 1)} | ${fmt(r.cpuSecPerMillion, 2)} | ${fmt(r.peakRssMiB)} |`,
    );
  }
  return lines.join('\n');
}

interface Target {
  what: string;
  peer: string;
  /** records/s: tidemark ≥ factor × peer; cpu: tidemark's CPU per record ≤ factor × peer's. */
  kind: 'rate' | 'cpu';
  factor: number;
}

/** The targets for the headline workload. */
const TARGETS: readonly Target[] = [
  { what: '≥ 3× kafkajs records/s', peer: 'kafkajs', kind: 'rate', factor: 3 },
  { what: '≥ 1.5× @platformatic/kafka records/s', peer: '@platformatic/kafka', kind: 'rate', factor: 1.5 },
  { what: '≥ the librdkafka binding records/s', peer: '@confluentinc/kafka-javascript', kind: 'rate', factor: 1 },
  { what: '≥ 0.8× the Java consumer records/s', peer: 'Kafka Java consumer', kind: 'rate', factor: 0.8 },
  { what: 'CPU per 1M records ≤ @platformatic/kafka', peer: '@platformatic/kafka', kind: 'cpu', factor: 1 },
];

/**
 * The targets checked against one run, for each tidemark row (Node
 * 20 and Node 24): met or missed, and by how much.
 */
export function targetsTable(rows: ClientSummary[]): string {
  const ours = rows.filter((r) => r.name.startsWith('tidemark') && r.note === undefined);
  if (ours.length === 0) return '';
  const lines = [
    `| target | ${ours.map((o) => cell(o.name)).join(' | ')} |`,
    `| --- | ${ours.map(() => '---').join(' | ')} |`,
  ];
  for (const t of TARGETS) {
    const peer = rows.find((r) => r.name === t.peer);
    const cells = ours.map((o) => {
      if (peer === undefined || peer.note !== undefined) return 'no peer result';
      if (t.kind === 'rate') {
        const ratio = o.recordsPerSec / peer.recordsPerSec;
        const verdict = ratio >= t.factor ? 'met' : `missed by ${fmt((1 - ratio / t.factor) * 100)} %`;
        return `${fmt(ratio, 2)}× (${verdict})`;
      }
      const ratio = o.cpuSecPerMillion / peer.cpuSecPerMillion;
      const verdict = ratio <= t.factor ? 'met' : `missed by ${fmt((ratio / t.factor - 1) * 100)} %`;
      return `${fmt(ratio, 2)}× its CPU (${verdict})`;
    });
    lines.push(`| ${t.what} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** A horizontal bar chart of median records/s, with the spread as a whisker; clients without numbers say why. */
export function svgChart(title: string, rows: ClientSummary[]): string {
  const width = 760;
  const barH = 28;
  const left = 230;
  const top = 40;
  const measured = rows.filter((r) => r.note === undefined);
  const max = Math.max(...measured.map((r) => r.recordsPerSecMax), 1);
  const scale = (v: number) => ((width - left - 90) * v) / max;
  const bars = rows.map((r, i) => {
    const y = top + i * (barH + 12);
    const label = `<text x="${left - 8}" y="${y + barH / 2 + 5}" text-anchor="end">${escapeXml(r.name)}</text>`;
    if (r.note !== undefined) {
      const note = r.note.length > 70 ? `${r.note.slice(0, 69)}…` : r.note;
      return `${label}<text x="${left}" y="${y + barH / 2 + 5}" fill="#b62324" font-style="italic">${escapeXml(note)}</text>`;
    }
    const w = scale(r.recordsPerSec);
    return [
      label,
      `<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barH}" fill="${r.name.startsWith('tidemark') ? '#1f6feb' : '#8b949e'}"/>`,
      `<line x1="${(left + scale(r.recordsPerSecMin)).toFixed(1)}" x2="${(left + scale(r.recordsPerSecMax)).toFixed(1)}" y1="${y + barH / 2}" y2="${y + barH / 2}" stroke="#000" stroke-width="1.5"/>`,
      `<text x="${(left + w + 6).toFixed(1)}" y="${y + barH / 2 + 5}">${fmt(r.recordsPerSec / 1e6, 2)} M/s</text>`,
    ].join('');
  });
  const height = top + rows.length * (barH + 12) + 20;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="13">`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-weight="bold">${escapeXml(title)}</text>`,
    ...bars,
    '</svg>',
  ].join('\n');
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
