/**
 * The report's three forms: a terminal table (area, check, result, one-line reason), JSON (the whole report,
 * then one summary line), and JUnit XML for CI systems (one testcase per check, evidence in system-out).
 */
import { jsonSafe } from './probe.js';
import type { ConformanceReport } from './types.js';

const MARK = { pass: 'pass', fail: 'FAIL', skip: 'skip' } as const;

/** The table, one check per row, with a closing line of totals. */
export function formatTable(report: ConformanceReport, width = 160): string {
  const rows = report.results.map((r) => [r.area, r.id.slice(r.area.length + 1), MARK[r.result], r.reason]);
  const header = ['area', 'check', 'result', 'reason'];
  const widths = [0, 1, 2].map((i) => Math.max(header[i].length, ...rows.map((row) => row[i].length)));
  const fixed = widths.reduce((a, b) => a + b + 2, 0);
  const line = (row: string[]) => {
    const reason = row[3].length > width - fixed ? `${row[3].slice(0, Math.max(20, width - fixed - 1))}…` : row[3];
    return [...row.slice(0, 3).map((c, i) => c.padEnd(widths[i])), reason].join('  ');
  };
  const lines = [line(header), ...rows.map(line)];
  lines.push('', summaryLine(report));
  if (report.aborted !== undefined) lines.push(`stopped early: ${report.aborted}`);
  if (report.leftBehind.length > 0) lines.push(`left behind: ${report.leftBehind.join(', ')}`);
  return lines.join('\n');
}

export function summaryLine(report: ConformanceReport): string {
  return (
    `${report.broker} (nearest Apache Kafka release ${report.nearestRelease}): ${report.checks} checks, ` +
    `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped in ${(report.durationMs / 1000).toFixed(1)} s`
  );
}

/** The whole report as JSON, then the one-line summary `{"broker":…,"checks":N,"passed":P,"failed":F,"skipped":S}`. */
export function formatJson(report: ConformanceReport): string {
  const summary = {
    broker: report.broker,
    checks: report.checks,
    passed: report.passed,
    failed: report.failed,
    skipped: report.skipped,
  };
  return `${JSON.stringify(report, jsonSafe, 2)}\n${JSON.stringify(summary)}\n`;
}

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** JUnit XML: one testsuite per area. */
export function formatJunit(report: ConformanceReport): string {
  const areas = [...new Set(report.results.map((r) => r.area))];
  const suites = areas.map((area) => {
    const results = report.results.filter((r) => r.area === area);
    const cases = results.map((r) => {
      const evidence = escapeXml(
        `expected (Apache Kafka): ${r.expected}\nspecified in: ${r.spec}\n${JSON.stringify(r.evidence, jsonSafe, 2)}`,
      );
      const verdict =
        r.result === 'fail'
          ? `<failure message="${escapeXml(r.reason)}"/>`
          : r.result === 'skip'
            ? `<skipped message="${escapeXml(r.reason)}"/>`
            : '';
      return (
        `    <testcase classname="conformance.${area}" name="${escapeXml(r.id)}" time="${(r.durationMs / 1000).toFixed(3)}">` +
        `${verdict}<system-out>${evidence}</system-out></testcase>`
      );
    });
    const failures = results.filter((r) => r.result === 'fail').length;
    const skipped = results.filter((r) => r.result === 'skip').length;
    return (
      `  <testsuite name="conformance.${area}" tests="${results.length}" failures="${failures}" skipped="${skipped}">\n` +
      `${cases.join('\n')}\n  </testsuite>`
    );
  });
  const aborted = report.aborted === undefined ? '' : `  <!-- stopped early: ${escapeXml(report.aborted)} -->\n`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="tidemark conformance ${escapeXml(report.broker)}" tests="${report.checks}" ` +
    `failures="${report.failed}" skipped="${report.skipped}" time="${(report.durationMs / 1000).toFixed(3)}">\n` +
    `${aborted}${suites.join('\n')}\n</testsuites>\n`
  );
}
