/**
 * The report's forms, from a hand-made report (no broker): the JSON ends with the one-line summary, the JUnit XML
 * escapes what it quotes and marks failures and skips, and the table cuts long reasons only when asked to.
 */
import { expect, it } from 'vitest';
import { formatJson, formatJunit, formatTable } from '../../../src/conformance/report.js';
import type { CheckResult, ConformanceReport } from '../../../src/conformance/types.js';

const result = (id: string, outcome: CheckResult['result'], reason: string): CheckResult => ({
  id,
  area: id.split('.')[0] as CheckResult['area'],
  result: outcome,
  reason,
  expected: 'what Kafka does',
  spec: 'KIP-0',
  durationMs: 12,
  evidence: [{ api: 'ListOffsets', version: 9, request: { timestamp: -1n }, response: { offset: 7n } }],
});

const report: ConformanceReport = {
  broker: 'b:9092',
  nearestRelease: '4.4',
  results: [
    result('list-offsets.latest', 'fail', 'latest offset: Kafka gives "6", the broker gave "7" <&>'),
    result('groups.consumer-heartbeat', 'skip', 'not enabled'),
    result('errors.negative-size', 'pass', 'closed'),
  ],
  checks: 3,
  passed: 1,
  failed: 1,
  skipped: 1,
  durationMs: 1234,
  leftBehind: [],
};

it('JSON: the report with bigints as strings, then the one-line summary', () => {
  const lines = formatJson(report).trim().split('\n');
  expect(JSON.parse(lines[lines.length - 1])).toEqual({
    broker: 'b:9092',
    checks: 3,
    passed: 1,
    failed: 1,
    skipped: 1,
  });
  const full = JSON.parse(lines.slice(0, -1).join('\n'));
  expect(full.results[0].evidence[0].response.offset).toBe('7');
});

it('JUnit: one testcase per check, failures and skips marked, quotes escaped', () => {
  const xml = formatJunit(report);
  expect(xml).toContain(
    '<testsuites name="tidemark conformance b:9092" tests="3" failures="1" skipped="1" time="1.234">',
  );
  expect(xml).toContain(
    '<failure message="latest offset: Kafka gives &quot;6&quot;, the broker gave &quot;7&quot; &lt;&amp;&gt;"/>',
  );
  expect(xml).toContain('<skipped message="not enabled"/>');
  expect(xml.match(/<testcase /g)).toHaveLength(3);
  expect(xml).not.toMatch(/[^\n]<(?!\/?(testsuites|testsuite|testcase|failure|skipped|system-out|\?xml))/);
});

it('table: one row per check and the totals; reasons cut to the width given', () => {
  const table = formatTable(report, 80).split('\n');
  expect(table[0]).toMatch(/^area\s+check\s+result\s+reason$/);
  expect(table[1]).toMatch(/^list-offsets\s+latest\s+FAIL\s+latest offset: .*…$/);
  expect(table[1].length).toBeLessThanOrEqual(80);
  expect(formatTable(report, Number.POSITIVE_INFINITY)).toContain('the broker gave "7" <&>');
  expect(table).toContain(
    'b:9092 (nearest Apache Kafka release 4.4): 3 checks, 1 passed, 1 failed, 1 skipped in 1.2 s',
  );
});
