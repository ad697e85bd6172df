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
  /** Group workloads: records read again after a rebalance, each round's (bench/clients/group.ts). */
  reReads?: number[];
  /** Group workloads: the group as described in the first round (protocol, assignor, partitions per member). */
  group?: string;
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
    ...groupFigures(rounds),
  };
}

/** What a group workload's rounds add: each round's re-reads (where known) and how the group looked. */
function groupFigures(rounds: ClientResult[]): Pick<ClientSummary, 'reReads' | 'group'> {
  const reReads = rounds.map((r) => r.reReads).filter((n) => n !== undefined);
  const group = rounds.find((r) => r.group !== undefined)?.group;
  return {
    ...(reReads.length > 0 ? { reReads } : {}),
    ...(group !== undefined ? { group } : {}),
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

export const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits }) : 'n/a';

export const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

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

/** Geometry of one chart panel, exported so a test can check that labels clear the bars and whiskers. */
export interface PanelBar {
  name: string;
  /** Bar end, whisker start and end, label start: x in pixels. */
  barEnd: number;
  whiskerMin: number;
  whiskerMax: number;
  labelX: number;
  label: string;
}

const CHART_WIDTH = 900;
const CHART_LEFT = 230;
/** Room right of the longest bar or whisker for its label ("1.28 M/s (1.25×)"). */
const LABEL_ROOM = 130;
const BAR_H = 24;
const BAR_GAP = 10;

/** The fastest measured client that is not tidemark: every bar states its ratio to it. */
function fastestPeer(rows: ClientSummary[]): ClientSummary | undefined {
  const peers = rows.filter((r) => r.note === undefined && !r.name.startsWith('tidemark'));
  return peers.reduce<ClientSummary | undefined>(
    (a, r) => (a && a.recordsPerSec >= r.recordsPerSec ? a : r),
    undefined,
  );
}

/**
 * Bars of records/s with the spread as a whisker; each value label starts right of both the bar and the
 * whisker's far end, so no label is struck through, and names the ratio to the fastest peer.
 */
export function throughputBars(rows: ClientSummary[]): PanelBar[] {
  const measured = rows.filter((r) => r.note === undefined);
  const max = Math.max(...measured.map((r) => Math.max(r.recordsPerSecMax, r.recordsPerSec)), 1);
  const scale = (v: number) => CHART_LEFT + ((CHART_WIDTH - CHART_LEFT - LABEL_ROOM) * v) / max;
  const peer = fastestPeer(rows);
  return measured.map((r) => {
    const barEnd = scale(r.recordsPerSec);
    const whiskerMax = scale(r.recordsPerSecMax);
    const ratio = peer ? ` (${(r.recordsPerSec / peer.recordsPerSec).toFixed(2)}×)` : '';
    return {
      name: r.name,
      barEnd,
      whiskerMin: scale(r.recordsPerSecMin),
      whiskerMax,
      labelX: Math.max(barEnd, whiskerMax) + 6,
      label: `${fmt(r.recordsPerSec / 1e6, 2)} M/s${ratio}`,
    };
  });
}

/** Bars of CPU seconds per million records (lower is better); no whisker, the label right of the bar. */
export function cpuBars(rows: ClientSummary[]): PanelBar[] {
  const measured = rows.filter((r) => r.note === undefined);
  const max = Math.max(...measured.map((r) => r.cpuSecPerMillion), 0.01);
  const scale = (v: number) => CHART_LEFT + ((CHART_WIDTH - CHART_LEFT - LABEL_ROOM) * v) / max;
  return measured.map((r) => {
    const barEnd = scale(r.cpuSecPerMillion);
    return {
      name: r.name,
      barEnd,
      whiskerMin: barEnd,
      whiskerMax: barEnd,
      labelX: barEnd + 6,
      label: `${fmt(r.cpuSecPerMillion, 2)} CPU s`,
    };
  });
}

function panel(title: string, rows: ClientSummary[], bars: PanelBar[], top: number, whiskers: boolean): string[] {
  // From the left edge, not the bars' start: a long peer name in the title must not run off the chart.
  const out = [`<text x="10" y="${top - 10}" font-weight="bold">${escapeXml(title)}</text>`];
  rows.forEach((r, i) => {
    const y = top + i * (BAR_H + BAR_GAP);
    const mid = y + BAR_H / 2;
    out.push(`<text x="${CHART_LEFT - 8}" y="${mid + 5}" text-anchor="end">${escapeXml(r.name)}</text>`);
    const bar = bars.find((b) => b.name === r.name);
    if (r.note !== undefined || bar === undefined) {
      const note = (r.note ?? '').length > 70 ? `${(r.note ?? '').slice(0, 69)}…` : (r.note ?? '');
      out.push(`<text x="${CHART_LEFT}" y="${mid + 5}" fill="#b62324" font-style="italic">${escapeXml(note)}</text>`);
      return;
    }
    const fill = r.name.startsWith('tidemark') ? '#1f6feb' : '#8b949e';
    out.push(
      `<rect x="${CHART_LEFT}" y="${y}" width="${(bar.barEnd - CHART_LEFT).toFixed(1)}" height="${BAR_H}" fill="${fill}"/>`,
    );
    if (whiskers) {
      out.push(
        `<line x1="${bar.whiskerMin.toFixed(1)}" x2="${bar.whiskerMax.toFixed(1)}" y1="${mid}" y2="${mid}" stroke="#000" stroke-width="1.5"/>`,
      );
    }
    out.push(`<text x="${bar.labelX.toFixed(1)}" y="${mid + 5}">${escapeXml(bar.label)}</text>`);
  });
  return out;
}

function peerName(rows: ClientSummary[]): string {
  const peer = fastestPeer(rows);
  return peer ? `, ${peer.name}` : '';
}

/**
 * Two panels: median records/s with the spread over the rounds as a whisker and the ratio to the fastest
 * peer on each bar; below it, CPU seconds per million records. Clients without numbers say why.
 */
export function svgChart(title: string, rows: ClientSummary[]): string {
  const panelHeight = rows.length * (BAR_H + BAR_GAP);
  const top1 = 60;
  const top2 = top1 + panelHeight + 40;
  const height = top2 + panelHeight + 10;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${height}" font-family="sans-serif" font-size="13">`,
    `<text x="${CHART_WIDTH / 2}" y="22" text-anchor="middle" font-weight="bold">${escapeXml(title)}</text>`,
    ...panel(
      `records/s (median; whisker: min–max over the rounds; ×: ratio to the fastest peer${peerName(rows)})`,
      rows,
      throughputBars(rows),
      top1,
      true,
    ),
    ...panel('CPU seconds per million records (lower is better)', rows, cpuBars(rows), top2, false),
    '</svg>',
  ].join('\n');
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const num = (s: string) => Number(s.replace(/,/g, ''));

/**
 * The rows of a results table written by `markdownTable`, back as summaries: committed results can have
 * their charts drawn again (bench/render-charts.ts) without re-running a benchmark.
 */
export function parseResultsTable(markdown: string): ClientSummary[] {
  const lines = markdown.split('\n');
  const head = lines.findIndex((l) => l.startsWith('| client | runtime | records/s (median) |'));
  if (head < 0) return [];
  const rows: ClientSummary[] = [];
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
    const [name, runtime, rate, spread, mb, cpu, rss] = cells;
    if (!Number.isFinite(num(rate))) {
      rows.push(noteRow(name, runtime, rate));
      continue;
    }
    const [lo, hi] = spread.split('–').map(num);
    rows.push({
      name,
      runtime,
      rounds: 0,
      recordsPerSec: num(rate),
      recordsPerSecMin: lo,
      recordsPerSecMax: hi,
      mbPerSec: num(mb),
      cpuSecPerMillion: num(cpu),
      peakRssMiB: num(rss),
    });
  }
  return rows;
}
