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
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function summarise(name: string, rounds: ClientResult[]): ClientSummary {
  const rates = rounds.map((r) => r.records / r.seconds);
  return {
    name,
    runtime: rounds[0]?.runtime ?? '',
    rounds: rounds.length,
    recordsPerSec: median(rates),
    recordsPerSecMin: Math.min(...rates),
    recordsPerSecMax: Math.max(...rates),
    mbPerSec: median(rounds.map((r) => r.bytes / 1024 / 1024 / r.seconds)),
    cpuSecPerMillion: median(rounds.map((r) => (r.cpuSeconds / r.records) * 1e6)),
    peakRssMiB: median(rounds.map((r) => r.peakRssBytes / 1024 / 1024)),
  };
}

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits }) : 'n/a';

export function markdownTable(rows: ClientSummary[]): string {
  const lines = [
    '| client | runtime | records/s (median) | spread (min–max) | MB/s | CPU s per 1M records | peak RSS MiB |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${r.runtime} | ${fmt(r.recordsPerSec)} | ${fmt(r.recordsPerSecMin)}–${fmt(r.recordsPerSecMax)} | ${fmt(r.mbPerSec, 1)} | ${fmt(r.cpuSecPerMillion, 2)} | ${fmt(r.peakRssMiB)} |`,
    );
  }
  return lines.join('\n');
}

/** A horizontal bar chart of median records/s, with the spread as a whisker. */
export function svgChart(title: string, rows: ClientSummary[]): string {
  const width = 720;
  const barH = 28;
  const left = 170;
  const top = 40;
  const max = Math.max(...rows.map((r) => r.recordsPerSecMax), 1);
  const scale = (v: number) => ((width - left - 90) * v) / max;
  const bars = rows.map((r, i) => {
    const y = top + i * (barH + 12);
    const w = scale(r.recordsPerSec);
    return [
      `<text x="${left - 8}" y="${y + barH / 2 + 5}" text-anchor="end">${escapeXml(r.name)}</text>`,
      `<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barH}" fill="${i === 0 ? '#1f6feb' : '#8b949e'}"/>`,
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
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}
