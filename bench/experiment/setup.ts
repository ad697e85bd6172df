import { Client } from '../../src/client.js';
import { type BenchBroker, benchBroker } from '../broker.js';
import { prepareTopic } from '../topic.js';
import type { WorkloadSpec } from '../workloads.js';

/** The topic every run of the experiment reads (bench/load.ts writes it: record i holds i in its value). */
export interface ExperimentTopic {
  topic: string;
  partitions: number;
  records: number;
  /** Log end offset of each partition. */
  endOffsets: number[];
  /** Partition p holds records p × perPartition … in offset order (bench/load.ts's spread). */
  perPartition: number;
}

export const PARTITIONS = 4;

/** The broker the experiment runs against: KAFKA_BOOTSTRAP's, or the embedded one bench/run.ts uses. */
export function experimentBroker(log: (line: string) => void): Promise<BenchBroker> {
  return benchBroker(log);
}

/**
 * One topic of 4 partitions holding `records` records, loaded by the benchmark's loader (reused when it
 * already holds exactly them). Values start with the record's sequence number, so the consumer can check
 * partition and order: record (p, o) has sequence p × perPartition + o.
 */
export async function prepareExperimentTopic(
  bootstrap: string,
  records: number,
  log: (line: string) => void,
): Promise<ExperimentTopic> {
  const spec: WorkloadSpec = {
    name: 'experiment',
    records,
    partitions: PARTITIONS,
    keyBytes: 8,
    valueBytes: 16,
    compression: 'none',
  };
  const workload = await prepareTopic(bootstrap, spec, log, { fresh: false, node24: undefined });
  const client = new Client({ bootstrap: [bootstrap], clientId: 'tidemark-experiment-setup' });
  try {
    const latest = await client.offsets.list(
      Array.from({ length: PARTITIONS }, (_, partition) => ({
        topic: workload.topic,
        partition,
        spec: 'latest' as const,
      })),
    );
    const endOffsets = Array.from({ length: PARTITIONS }, (_, p) =>
      Number(latest.find((o) => o.partition === p)?.offset ?? 0n),
    );
    return {
      topic: workload.topic,
      partitions: PARTITIONS,
      records,
      endOffsets,
      perPartition: Math.ceil(records / PARTITIONS),
    };
  } finally {
    await client.close();
  }
}
