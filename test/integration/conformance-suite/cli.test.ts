/**
 * `tidemark conformance` end to end, in-process: the table and exit code against a real broker, the JSON summary
 * line and the JUnit file, SASL through the CLI's connection flags, and one-line errors (no stack) with a
 * partial report for an unreachable broker and refused credentials.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '../../../src/client.js';
import { ALL_CHECKS } from '../../../src/conformance/index.js';
import { bootstrap, legacyBootstrap, SASL_PASSWORD, SASL_USERNAME, saslBootstrap } from '../../harness/context.js';
import { closedPort, runCli } from '../cli/setup.js';

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at /);

describe('tidemark conformance', () => {
  it('prints a table and exits 0 against Kafka 4.4; --json ends with the summary line; --junit writes XML', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tidemark-conformance-'));
    const table = await runCli(['conformance', '-b', bootstrap(), '--only', 'list-offsets,errors']);
    // The table and stderr name the check that failed (seen once in a CI dry run, not reproduced in 25 runs).
    expect(table.code, `${table.stdout}\n${table.stderr}`).toBe(0);
    expect(table.stdout).toMatch(/^area\s+check\s+result\s+reason$/m);
    expect(table.stdout).toMatch(/^list-offsets\s+max-timestamp\s+pass\s+offset 3, timestamp \d+$/m);
    const n = ALL_CHECKS.filter((c) => c.area === 'list-offsets' || c.area === 'errors').length;
    expect(table.stdout).toContain(`nearest Apache Kafka release 4.4): ${n} checks, ${n} passed, 0 failed, 0 skipped`);

    const json = await runCli(['conformance', '-b', bootstrap(), '--only', 'produce', '--json', '--junit', 'out.xml'], {
      cwd: dir,
    });
    // On a failure, the failed checks' ids and reasons (seen once in a CI dry run, not reproduced since).
    const failed = json.stdout.match(/"id": "[^"]+",[^}]*?"result": "fail",\s*"reason": "[^"]*"/g) ?? [];
    expect(json.code, `${failed.join('\n')}\n${json.stderr}`).toBe(0);
    const lines = json.stdout.trim().split('\n');
    const produce = ALL_CHECKS.filter((c) => c.area === 'produce').length;
    expect(JSON.parse(lines[lines.length - 1])).toEqual({
      broker: bootstrap(),
      checks: produce,
      passed: produce,
      failed: 0,
      skipped: 0,
    });
    const full = JSON.parse(lines.slice(0, -1).join('\n'));
    expect(full.results[0].evidence.length).toBeGreaterThan(0);
    const xml = await readFile(path.join(dir, 'out.xml'), 'utf8');
    expect(xml).toMatch(/<testsuites name="tidemark conformance [^"]+" tests="\d+" failures="0" skipped="0"/);
    expect(xml.match(/<testcase /g)?.length).toBe(produce);
  });

  it.skipIf(legacyBootstrap() === null)(
    'reports the 3.9 preview consumer protocol as skipped with its reason',
    async () => {
      const result = await runCli(['conformance', '-b', legacyBootstrap()!, '--only', 'groups']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^groups\s+consumer-heartbeat\s+skip\s+.*consumer protocol is not enabled$/m);
    },
  );

  it.skipIf(saslBootstrap() === null)(
    'authenticates with the CLI’s SASL flags; wrong credentials: one line, exit 6',
    async () => {
      const sasl = ['-b', saslBootstrap()!, '--sasl-mechanism', 'PLAIN', '--sasl-username', SASL_USERNAME];
      const ok = await runCli(['conformance', ...sasl, '--sasl-password', SASL_PASSWORD, '--only', 'errors']);
      const errors = ALL_CHECKS.filter((c) => c.area === 'errors').length;
      expect(ok.stdout).toContain(`${errors} checks, ${errors} passed, 0 failed`);
      expect(ok.code).toBe(0);
      const refused = await runCli(['conformance', ...sasl, '--sasl-password', 'wrong', '--only', 'errors']);
      expect(refused.code).toBe(6);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused.stderr).toMatch(/^tidemark: cannot start: SASL PLAIN authentication failed/);
      expect(refused.stdout).toMatch(/0 checks, 0 passed, 0 failed, 0 skipped/);
      noStack(refused.stderr);
    },
  );

  it('--keep leaves the scratch topics, and says which; --debug prints the evidence of failures only', async () => {
    const kept = await runCli(['conformance', '-b', bootstrap(), '--only', 'produce', '--keep', '--debug']);
    expect(kept.code).toBe(0);
    expect(kept.stderr).toBe('');
    const left = /^left behind: (.+)$/m.exec(kept.stdout)?.[1].split(', ') ?? [];
    expect(left.length).toBeGreaterThan(0);
    const client = new Client({ bootstrap: bootstrap() });
    try {
      const topics = await client.admin.listTopics();
      for (const name of left) expect(topics).toContain(name);
      await client.admin.deleteTopics(left);
    } finally {
      await client.close();
    }
  });

  it('an unreachable broker: one line on stderr, a partial report, exit 4, no stack', async () => {
    const port = await closedPort();
    const started = Date.now();
    const result = await runCli([
      'conformance',
      '-b',
      `127.0.0.1:${port}`,
      '--connect-timeout',
      '1000',
      '--timeout',
      '3000',
    ]);
    expect(result.code).toBe(4);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^tidemark: cannot start: .*ECONNREFUSED/);
    expect(result.stdout).toMatch(/stopped early: cannot start/);
    noStack(result.stderr + result.stdout);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
