/**
 * `tidemark conformance`: runs the protocol conformance suite (src/conformance) against a Kafka-compatible broker
 * and prints a table, JSON or JUnit XML. Exit 0 only when no check failed and the suite ran to the end.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { jsonSafe } from '../../conformance/probe.js';
import { formatJson, formatJunit, formatTable } from '../../conformance/report.js';
import { runConformance } from '../../conformance/runner.js';
import { AREAS, type Area } from '../../conformance/types.js';
import type { Command } from '../command.js';
import { ExitCode, UsageError } from '../errors.js';

export const conformanceCommand: Command = {
  name: 'conformance',
  summary: 'check a Kafka-compatible broker against Apache Kafka’s protocol behaviour',
  help: `Usage: tidemark conformance --bootstrap host:port [--only area[,area]] [--junit FILE] [--keep]

Runs the protocol conformance suite against the broker: API versions, ListOffsets, OffsetCommit/OffsetFetch,
groups, fetch, produce and error behaviour. Each check passes, fails (naming how the broker differs from
Apache Kafka) or is skipped (the broker lacks the version or feature). Scratch topics and groups are named
tidemark-conformance-<run>-… and deleted at the end.

  --only AREA    run only these areas (repeatable or comma-separated): ${AREAS.join(', ')}
  --junit FILE   also write JUnit XML (one testcase per check, evidence in system-out)
  --keep         leave the scratch topics and groups behind
  --debug        also print the evidence of every failed check on stderr
  --json         the whole report with evidence, then one summary line
                 {"broker":…,"checks":N,"passed":P,"failed":F,"skipped":S}

Exit code 0 only when no check failed.`,
  options: { only: { type: 'string', multiple: true }, junit: { type: 'string' }, keep: { type: 'boolean' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const only = ctx.strings('only').flatMap((s) =>
      s
        .split(',')
        .map((a) => a.trim())
        .filter((a) => a !== ''),
    );
    for (const area of only) {
      if (!(AREAS as readonly string[]).includes(area)) {
        throw new UsageError(`--only: unknown area ${JSON.stringify(area)} (areas: ${AREAS.join(', ')})`);
      }
    }
    const config = ctx.clientConfig();
    const report = await runConformance({
      bootstrap: Array.isArray(config.bootstrap) ? config.bootstrap.join(',') : (config.bootstrap as string),
      tls: config.tls,
      sasl: config.sasl,
      requestTimeoutMs: config.requestTimeoutMs,
      connectTimeoutMs: config.connectTimeoutMs,
      only: only.length > 0 ? (only as Area[]) : undefined,
      keep: ctx.flag('keep'),
    });
    const junit = ctx.string('junit');
    if (junit !== undefined) writeFileSync(path.resolve(ctx.io.cwd, junit), formatJunit(report));
    if (ctx.json) ctx.io.stdout.write(formatJson(report));
    // Reasons are cut to the terminal's width; piped output keeps them whole.
    else ctx.out(formatTable(report, ctx.io.stdoutIsTTY ? Math.max(100, ctx.io.columns) : Number.POSITIVE_INFINITY));
    if (ctx.flag('debug')) {
      // The evidence of what did not pass: requests sent and what came back, for a bug report.
      for (const r of report.results.filter((x) => x.result === 'fail')) {
        ctx.note(
          `${r.id}: ${r.reason}\n  Kafka: ${r.expected} (${r.spec})\n${JSON.stringify(r.evidence, jsonSafe, 2)}`,
        );
      }
    }
    if (report.aborted !== undefined) {
      ctx.note(`tidemark: ${report.aborted}`);
      return report.abortKind === 'authentication'
        ? ExitCode.AUTH
        : report.abortKind === 'unreachable'
          ? ExitCode.UNREACHABLE
          : ExitCode.ERROR;
    }
    return report.failed === 0 ? ExitCode.OK : ExitCode.ERROR;
  },
};
