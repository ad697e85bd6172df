import { readTransactionalOutput } from './kafka-transactions.js';
import type { ChildConfig } from './modes.js';
import type { ExperimentTopic } from './setup.js';
import { readBatches, readRecords, sinkSize } from './sink.js';
import { TransactionalJournal } from './transactional-sink.js';

export interface DeliveryCount {
  /** Records of the topic the sink never saw. */
  lost: number;
  /** Deliveries beyond the first. */
  duplicated: number;
}

/** Modes whose results are not in the append sinks (so the re-read bound is not checked for them). */
const NO_SINK: ReadonlySet<string> = new Set(['d', 'e']);

/**
 * Counts what the run's sink saw against every record of the topic: the append sink for modes (a)–(c),
 * the journal's committed results for (d), the output topic read with read_committed for (e).
 */
export async function countDeliveries(config: ChildConfig, topic: ExperimentTopic): Promise<DeliveryCount> {
  const seen = topic.endOffsets.map((end) => new Uint16Array(end));
  const add = (partition: number, offset: number) => {
    const counts = seen[partition];
    if (counts === undefined || offset >= counts.length)
      throw new Error(`sink holds ${partition}/${offset}, not in the topic`);
    counts[offset]++;
  };
  if (config.mode === 'd') {
    for (const r of TransactionalJournal.readResults(config.journal)) add(r.partition, Number(r.offset));
  } else if (config.mode === 'e') await readTransactionalOutput(config, topic, add);
  else for (const r of readRecords(config.recordSink)) add(r.partition, r.offset);
  let lost = 0;
  let duplicated = 0;
  for (const counts of seen) {
    for (const c of counts) {
      if (c === 0) lost++;
      else duplicated += c - 1;
    }
  }
  return { lost, duplicated };
}

/**
 * The SIGKILL bound of the file store, checked at each restart: the next process may start a partition no
 * earlier than the first record of the last batch handed out on it (the batch in hand at the stop), so it
 * re-reads at most that batch. `rewound` is what the restarts actually re-read; `bound` what the batches in
 * hand allowed. Needs the append sinks (modes (a)–(c)).
 */
export class RewindCheck {
  rewound = 0;
  bound = 0;
  readonly violations: string[] = [];
  private recordsRead = 0;
  private batchesRead = 0;
  private readonly maxProcessed: number[];
  private readonly lastBatch: ({ first: number; count: number } | undefined)[];
  private stoppedYet = false;

  constructor(
    private readonly config: ChildConfig,
    partitions: number,
  ) {
    this.maxProcessed = Array.from({ length: partitions }, () => -1);
    this.lastBatch = Array.from({ length: partitions }, () => undefined);
  }

  /** A process was stopped: take in what it processed and the batches it was handed. */
  stopped(): void {
    if (NO_SINK.has(this.config.mode)) return;
    const recordsEnd = sinkSize(this.config.recordSink);
    for (const r of readRecords(this.config.recordSink, this.recordsRead, recordsEnd)) {
      this.maxProcessed[r.partition] = Math.max(this.maxProcessed[r.partition], r.offset);
    }
    this.recordsRead = recordsEnd;
    const batchesEnd = sinkSize(this.config.batchSink);
    for (const b of readBatches(this.config.batchSink, this.batchesRead, batchesEnd)) this.lastBatch[b.partition] = b;
    this.batchesRead = batchesEnd;
    this.stoppedYet = true;
  }

  /** The next process starts at `start`: compare with what was processed before. */
  started(start: readonly number[]): void {
    if (NO_SINK.has(this.config.mode) || !this.stoppedYet) return;
    for (let p = 0; p < this.maxProcessed.length; p++) {
      const rewound = Math.max(0, this.maxProcessed[p] + 1 - start[p]);
      const batch = this.lastBatch[p];
      const bound = batch === undefined ? 0 : Math.max(0, this.maxProcessed[p] + 1 - batch.first);
      this.rewound += rewound;
      this.bound += bound;
      if (rewound > bound) {
        this.violations.push(
          `partition ${p}: restart at ${start[p]} re-reads ${rewound} records; the last batch handed out began at ${batch?.first ?? 'none'}`,
        );
      }
    }
  }
}
