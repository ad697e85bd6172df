import { cpus, loadavg, release } from 'node:os';
import type { Totals } from './experiment.js';
import { MODE_DESCRIPTIONS, MODE_NAMES, type Mode } from './modes.js';
import type { RunOutcome } from './run-one.js';

/** What the experiment expects of each mode, checked against the totals (and, for (c), the re-read bound). */
export function verdicts(outcomes: readonly RunOutcome[], totals: Totals): Map<Mode, { ok: boolean; why: string }> {
  const out = new Map<Mode, { ok: boolean; why: string }>();
  for (const [mode, t] of Object.entries(totals) as [Mode, Totals[string]][]) {
    const runs = outcomes.filter((r) => r.plan.mode === mode);
    switch (mode) {
      case 'a':
        out.set(mode, {
          ok: t.graceful.lost + t.sigkill.lost > 0,
          why: 'expected: records lost (offsets committed before processing)',
        });
        break;
      case 'b':
        out.set(mode, { ok: t.graceful.lost + t.sigkill.lost === 0, why: 'expected: no loss; duplicates on restarts' });
        break;
      case 'c': {
        const outside = runs.filter((r) => r.plan.kind === 'sigkill' && !r.withinBound).length;
        out.set(mode, {
          ok: t.graceful.lost + t.graceful.duplicated + t.sigkill.lost === 0 && outside === 0,
          why: `expected: 0/0 graceful; under SIGKILL 0 lost and each restart re-reads at most the batch in hand per partition${outside > 0 ? ` (${outside} runs outside the bound)` : ''}`,
        });
        break;
      }
      case 'd':
      case 'e':
        out.set(mode, {
          ok: t.graceful.lost + t.graceful.duplicated + t.sigkill.lost + t.sigkill.duplicated === 0,
          why: 'expected: 0/0 under both stops (results and offsets in one transaction)',
        });
        break;
    }
  }
  return out;
}

const n = (x: number) => x.toLocaleString('en-US');

/** Re-reads at restarts against the one-batch bound: a claim of (c) only; (b) shows how far past it async commits lag. */
function rereadCell(r: RunOutcome): string {
  switch (r.plan.mode) {
    case 'a':
      return n(r.rewound);
    case 'b':
      return `${n(r.rewound)} / ${n(r.bound)}${r.rewound > r.bound ? ' (above)' : ''}`;
    case 'c':
      return `${n(r.rewound)} / ${n(r.bound)}${r.withinBound ? ' ok' : ' EXCEEDED'}`;
    case 'd':
    case 'e':
      return 'n/a';
  }
}

export function runsTable(outcomes: readonly RunOutcome[]): string {
  const rows = [
    '| mode | stop kind | run | max records / fetch bytes per partition | rate (records/s) | stops | lost | duplicated | re-read at restarts / one-batch bound | seconds |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of outcomes) {
    const p = r.plan;
    rows.push(
      `| (${p.mode}) ${MODE_NAMES[p.mode]} | ${p.kind} | ${p.run} | ${n(p.maxRecords)} / ${p.maxPartitionFetchBytes / 1024} KiB | ${n(p.recordsPerSecond)} | ${r.stops} | ${n(r.lost)} | ${n(r.duplicated)} | ${rereadCell(r)} | ${r.seconds.toFixed(1)} |`,
    );
  }
  return rows.join('\n');
}

/** The SIGKILL bound of (c), as one line: re-read records against what the batches in hand allowed. */
export function boundLine(outcomes: readonly RunOutcome[]): string | undefined {
  const killed = outcomes.filter((r) => r.plan.mode === 'c' && r.plan.kind === 'sigkill');
  if (killed.length === 0) return undefined;
  const rewound = killed.reduce((sum, r) => sum + r.rewound, 0);
  const bound = killed.reduce((sum, r) => sum + r.bound, 0);
  const outside = killed.filter((r) => !r.withinBound).length;
  return `(c) under SIGKILL: restarts re-read ${n(rewound)} records, bound ${n(bound)} (one batch in hand per partition per kill): ${outside === 0 ? `within the bound in every run and partition` : `EXCEEDED in ${outside} of ${killed.length} runs`}`;
}

export function totalsTable(totals: Totals, checks: Map<Mode, { ok: boolean; why: string }>): string {
  const rows = [
    '| mode | graceful lost | graceful duplicated | SIGKILL lost | SIGKILL duplicated | as expected? |',
    '|---|---:|---:|---:|---:|---|',
  ];
  for (const [mode, t] of Object.entries(totals) as [Mode, Totals[string]][]) {
    const c = checks.get(mode);
    rows.push(
      `| (${mode}) ${MODE_NAMES[mode]} | ${n(t.graceful.lost)} | ${n(t.graceful.duplicated)} | ${n(t.sigkill.lost)} | ${n(t.sigkill.duplicated)} | ${c?.ok ? 'yes' : 'NO'}: ${c?.why ?? ''} |`,
    );
  }
  return rows.join('\n');
}

/** `{"modes":{"<mode>":{"graceful":{"lost":L,"duplicated":D},"sigkill":{…}}}}`: the last line of `--json`. */
export function jsonLine(totals: Totals): string {
  const modes: Totals = {};
  for (const [mode, t] of Object.entries(totals)) {
    modes[mode] = {
      graceful: { lost: t.graceful.lost, duplicated: t.graceful.duplicated },
      sigkill: { lost: t.sigkill.lost, duplicated: t.sigkill.duplicated },
    };
  }
  return JSON.stringify({ modes });
}

export interface ReportContext {
  command: string;
  kafkaVersion: string;
  records: number;
  runs: number;
  baseRate: number;
  stops: string;
  wallSeconds: number;
  loadAtStart: number;
}

export function resultsMarkdown(
  outcomes: readonly RunOutcome[],
  totals: Totals,
  checks: Map<Mode, { ok: boolean; why: string }>,
  c: ReportContext,
): string {
  const modes = Object.keys(totals) as Mode[];
  const cpu = cpus();
  return `# The crash experiment: lost and duplicated records per commit scheme

Generated by \`${c.command}\` on ${new Date().toISOString().slice(0, 10)}; do not edit by hand.

One topic of 4 partitions holding ${n(c.records)} records (each value carries its sequence number, so the
consumer checks partition and order). Each mode is run ${c.runs} times with a graceful stop (SIGTERM) and
${c.runs} times with SIGKILL: every run uses a fresh group and offset directory, and its consumer process is
stopped ${c.stops} times mid-stream (after a seeded number of records) and restarted, until one process has
processed the whole topic. Runs differ, deterministically, in batch size (the most records processed and
committed as one batch, as Java's max.poll.records, and bytes per partition per fetch) and in the
handler's rate limit (around ${n(c.baseRate)} records/s; chosen so the whole experiment takes about 10
minutes on this project's shared 2-core machine, where a consumer process reaches 10,000–20,000 records/s,
so the slower runs are limited by the handler and the faster ones by the machine). The consumer
processes use tidemark's \`Consumer\` with a manual assignment of all 4 partitions (a fresh process owns
them at once, with no rebalance to wait for). Every processed record is written to an append-only sink
(one \`write(2)\` on an O_APPEND file before the handler returns), so the count sees everything a process
processed, even when it is killed; for (d) the count reads the journal's committed results instead.

- **lost**: records of the topic the sink never saw. **duplicated**: deliveries beyond the first.
- **re-read at restarts / one-batch bound**: records before a restart's start position that an earlier
  process had processed, against what the batches in hand at the stops allowed (for each partition, the part
  of the last batch handed to the handler that had been processed). (c) must stay within it under SIGKILL.

## Totals

${totalsTable(totals, checks)}
${boundLine(outcomes) === undefined ? '' : `\n${boundLine(outcomes)}.\n`}
## Reading the results

- (a) loses records on every kind of stop: what was fetched but not yet processed when the fetched offsets
  were committed is skipped by the next process. Under SIGKILL it also repeats records: the 100 ms commit
  timer can lag behind the processor.
- (b) never loses a record but repeats on every restart, often more than the batch in hand: commits sent
  asynchronously are still queued or in flight when the process exits.
- (c) neither loses nor repeats on a graceful stop; a SIGKILL repeats at most the part of the batch in hand
  that was processed, per partition.
- (d) neither loses nor repeats, even under SIGKILL: a result exists exactly when its offset does.

## The modes

${modes.map((m) => `- **(${m}) ${MODE_NAMES[m]}.** ${MODE_DESCRIPTIONS[m]}`).join('\n')}

## Every run

${runsTable(outcomes)}

## Where

- Kafka ${c.kafkaVersion}, one broker (KRaft), loopback; Node ${process.version}, ${process.platform} ${release()}
- ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}; load average ${c.loadAtStart.toFixed(1)} at the start
  (the machine is shared), ${loadavg()[0].toFixed(1)} at the end
- wall time ${(c.wallSeconds / 60).toFixed(1)} min
`;
}
