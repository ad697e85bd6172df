/**
 * Draws every committed fetch chart again from its results table (bench/results/fetch*.md → .svg), so a
 * change to the chart's drawing reaches the committed charts without re-running the benchmark:
 * `tsx bench/render-charts.ts`. The numbers come only from the committed tables.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { parseResultsTable, svgChart } from './report.js';

const dir = new URL('./results/', import.meta.url);
for (const file of (await readdir(dir)).filter((f) => f.startsWith('fetch') && f.endsWith('.md'))) {
  const markdown = await readFile(new URL(file, dir), 'utf8');
  const rows = parseResultsTable(markdown);
  if (rows.length === 0) continue;
  const title = /^# (.+)$/m.exec(markdown)?.[1] ?? file;
  await writeFile(new URL(file.replace(/\.md$/, '.svg'), dir), `${svgChart(title, rows)}\n`);
  process.stdout.write(`${file.replace(/\.md$/, '.svg')}: ${rows.length} clients\n`);
}
