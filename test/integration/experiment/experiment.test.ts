import { beforeAll, describe, expect, it } from 'vitest';
import { runExperiment, type Totals, totals } from '../../../bench/experiment/experiment.js';
import type { RunOutcome } from '../../../bench/experiment/run-one.js';
import { prepareExperimentTopic } from '../../../bench/experiment/setup.js';
import { bootstrap } from '../../harness/context.js';

/**
 * The crash experiment (bench/experiment, `npm run experiment`) reduced: 8,000 records, one run per mode
 * and stop kind, two stops per run, against the test broker. Consumer processes are really stopped with
 * SIGTERM and SIGKILL mid-stream and restarted; the counts come from what their sinks saw.
 */
describe('crash experiment (reduced)', () => {
  let outcomes: RunOutcome[];
  let sums: Totals;
  const progress: string[] = [];

  beforeAll(async () => {
    // Past this, fail with the experiment's own progress lines (which phase stalled), not a bare hook timeout.
    let stalled: NodeJS.Timeout | undefined;
    const unfinished = new Promise<never>((_, reject) => {
      stalled = setTimeout(
        () => reject(new Error(`crash experiment unfinished after 220 s:\n${progress.join('\n')}`)),
        220_000,
      );
    });
    try {
      await Promise.race([experiment(), unfinished]);
    } finally {
      clearTimeout(stalled);
    }
  }, 240_000);

  async function experiment(): Promise<void> {
    const log = (line: string) => progress.push(line);
    const topic = await prepareExperimentTopic(bootstrap(), 8_000, log);
    outcomes = await runExperiment({
      bootstrap: bootstrap(),
      topic,
      modes: ['a', 'c', 'd', 'e'],
      runs: 1,
      baseRate: 8_000,
      minStops: 2,
      maxStops: 2,
      // Generous: the machine is shared, and a process that stalls this long has hung.
      idleMs: 60_000,
      log,
    });
    sums = totals(outcomes);
  }

  it('stopped every run mid-stream as planned, with both stop kinds', () => {
    expect(outcomes.map((r) => `${r.plan.mode}/${r.plan.kind}`)).toEqual([
      'a/graceful',
      'a/sigkill',
      'c/graceful',
      'c/sigkill',
      'd/graceful',
      'd/sigkill',
      'e/graceful',
      'e/sigkill',
    ]);
    // (a) may run out of records early (it skips what it lost); the others make every planned stop.
    for (const r of outcomes.filter((o) => o.plan.mode !== 'a')) expect(r.stops).toBe(2);
    for (const r of outcomes) expect(r.stops).toBeGreaterThan(0);
  });

  it('(a) commit at fetch loses records under both stops', () => {
    expect(sums.a.graceful.lost).toBeGreaterThan(0);
    expect(sums.a.sigkill.lost).toBeGreaterThan(0);
  });

  it('(c) FileOffsetStore: nothing lost or repeated on graceful stops; under SIGKILL nothing lost and repeats within one batch per partition', () => {
    expect(sums.c.graceful).toEqual({ lost: 0, duplicated: 0 });
    expect(sums.c.sigkill.lost).toBe(0);
    const killed = outcomes.find((r) => r.plan.mode === 'c' && r.plan.kind === 'sigkill');
    expect(killed?.withinBound).toBe(true);
    expect(killed?.rewound).toBeLessThanOrEqual(killed?.bound ?? -1);
    // Every duplicate is a record a restart went back over (a range re-read twice counts twice there).
    expect(killed?.duplicated).toBeLessThanOrEqual(killed?.rewound ?? -1);
  });

  it('(d) transactional sink: exactly once under graceful stops and SIGKILL', () => {
    expect(sums.d.graceful).toEqual({ lost: 0, duplicated: 0 });
    expect(sums.d.sigkill).toEqual({ lost: 0, duplicated: 0 });
  });

  it('(e) Kafka transactions: exactly once under graceful stops and SIGKILL, counted with read_committed', () => {
    expect(sums.e.graceful).toEqual({ lost: 0, duplicated: 0 });
    expect(sums.e.sigkill).toEqual({ lost: 0, duplicated: 0 });
  });
});
