import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChildCommand } from './child-build.js';
import { ConsumerProcess } from './consumer-process.js';
import { countDeliveries, type DeliveryCount, RewindCheck } from './count.js';
import { createOutputTopic } from './kafka-transactions.js';
import type { ChildConfig } from './modes.js';
import type { RunPlan } from './plan.js';
import type { ExperimentTopic } from './setup.js';

export interface RunOutcome extends DeliveryCount {
  plan: RunPlan;
  /** Mid-stream stops made (fewer than planned when the stream ran out first). */
  stops: number;
  /** Records the stops rewound (read again) and their bound: one batch in hand per partition per stop. */
  rewound: number;
  bound: number;
  withinBound: boolean;
  seconds: number;
}

export interface RunSettings {
  bootstrap: string;
  child: ChildCommand;
  topic: ExperimentTopic;
  /** A fresh directory for this run (offsets, sinks, journal). */
  dir: string;
  /** Longest a consumer process may go without progress before the run fails. */
  idleMs: number;
  log: (line: string) => void;
}

/**
 * One run: a fresh group and offset directory; consumer processes started one after the other, each
 * stopped (SIGTERM or SIGKILL, as the plan's kind says) after its share of records, until one has
 * processed everything; then what the sinks saw is counted.
 */
export async function runOne(plan: RunPlan, s: RunSettings): Promise<RunOutcome> {
  const started = performance.now();
  await mkdir(s.dir, { recursive: true });
  const groupId = `experiment-${plan.mode}-${plan.kind}-${plan.run}-${Date.now().toString(36)}`;
  const config: ChildConfig = {
    mode: plan.mode,
    bootstrap: s.bootstrap,
    topic: s.topic.topic,
    endOffsets: s.topic.endOffsets,
    perPartition: s.topic.perPartition,
    groupId,
    offsetDir: join(s.dir, 'offsets'),
    recordSink: join(s.dir, 'processed.bin'),
    batchSink: join(s.dir, 'batches.bin'),
    journal: join(s.dir, 'results.journal'),
    outputTopic: `${groupId}-out`,
    transactionalId: `${groupId}-txn`,
    maxPartitionFetchBytes: plan.maxPartitionFetchBytes,
    fetchMaxBytes: plan.fetchMaxBytes,
    maxRecords: plan.maxRecords,
    recordsPerSecond: plan.recordsPerSecond,
    commitIntervalMs: 100,
  };
  if (plan.mode === 'e') await createOutputTopic(s.bootstrap, config.outputTopic, s.topic.partitions);
  const rewinds = new RewindCheck(config, s.topic.partitions);
  let stops = 0;
  for (let segment = 0; ; segment++) {
    const child = new ConsumerProcess(s.child, config);
    const t0 = performance.now();
    try {
      await child.until('ready', () => child.start !== undefined, s.idleMs);
      const ready = performance.now();
      if (segment > 0) rewinds.started(child.start ?? []);
      const stopAfter = plan.stopAfter[segment];
      if (stopAfter !== undefined) {
        await child.until(`${stopAfter} records`, () => child.processed >= stopAfter || child.caughtUp, s.idleMs);
      } else await child.until('the end of the stream', () => child.caughtUp, s.idleMs);
      if (child.caughtUp) {
        await child.stop('SIGTERM', 60_000);
        break;
      }
      const stopping = performance.now();
      await child.stop(plan.kind === 'sigkill' ? 'SIGKILL' : 'SIGTERM', 60_000);
      stops++;
      rewinds.stopped();
      const secs = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
      s.log(
        `    stop ${stops} (${plan.kind}) after ${child.processed} records (ready in ${secs(t0, ready)} s, ran ${secs(ready, stopping)} s, stopped in ${secs(stopping, performance.now())} s)`,
      );
    } catch (err) {
      await child.stop('SIGKILL', 5_000).catch(() => {});
      throw err;
    }
  }
  const counted = await countDeliveries(config, s.topic);
  return {
    plan,
    stops,
    ...counted,
    rewound: rewinds.rewound,
    bound: rewinds.bound,
    withinBound: rewinds.violations.length === 0,
    seconds: (performance.now() - started) / 1000,
  };
}
