import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildChild } from './child-build.js';
import { type Mode, STOP_KINDS, type StopKind } from './modes.js';
import { type PlanOptions, planRun } from './plan.js';
import { type RunOutcome, runOne } from './run-one.js';
import type { ExperimentTopic } from './setup.js';

export interface ExperimentOptions extends Omit<PlanOptions, 'records'> {
  bootstrap: string;
  topic: ExperimentTopic;
  modes: readonly Mode[];
  runs: number;
  /** Longest a consumer process may go without progress before the run fails. Default 60 s. */
  idleMs?: number;
  log: (line: string) => void;
}

export type Totals = Record<string, Record<StopKind, { lost: number; duplicated: number }>>;

/** Every run of every mode, both stop kinds; the work directories are removed afterwards. */
export async function runExperiment(o: ExperimentOptions): Promise<RunOutcome[]> {
  const root = await mkdtemp(join(tmpdir(), 'tidemark-experiment-'));
  const child = await buildChild();
  o.log(`consumer processes: ${child.how}`);
  const outcomes: RunOutcome[] = [];
  try {
    for (const mode of o.modes) {
      for (const kind of STOP_KINDS) {
        for (let run = 1; run <= o.runs; run++) {
          const plan = planRun(mode, kind, run, { ...o, records: o.topic.records });
          o.log(
            `mode ${mode}, ${kind}, run ${run}/${o.runs}: batches of ≤ ${plan.maxRecords} records, ${plan.maxPartitionFetchBytes / 1024} KiB per partition fetch, ${plan.recordsPerSecond} records/s, ${plan.stopAfter.length} stops planned`,
          );
          const outcome = await runOne(plan, {
            bootstrap: o.bootstrap,
            child,
            topic: o.topic,
            dir: join(root, `${mode}-${kind}-${run}`),
            idleMs: o.idleMs ?? 60_000,
            log: o.log,
          });
          o.log(
            `  lost ${outcome.lost}, duplicated ${outcome.duplicated} (restarts re-read ${outcome.rewound}, bound ${outcome.bound}) in ${outcome.seconds.toFixed(1)} s`,
          );
          outcomes.push(outcome);
        }
      }
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  return outcomes;
}

/** Lost and duplicated records summed over the runs, per mode and stop kind. */
export function totals(outcomes: readonly RunOutcome[]): Totals {
  const out: Totals = {};
  for (const r of outcomes) {
    out[r.plan.mode] ??= { graceful: { lost: 0, duplicated: 0 }, sigkill: { lost: 0, duplicated: 0 } };
    const t = out[r.plan.mode][r.plan.kind];
    t.lost += r.lost;
    t.duplicated += r.duplicated;
  }
  return out;
}
