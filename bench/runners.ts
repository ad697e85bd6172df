/**
 * Benchmarks beside the fetch workloads that `npm run bench` runs by a flag of their own and with `--all`
 * (produce, latency, …). A row here gets its flag parsed (bench/args.ts), runs against the bench's broker
 * after the fetch workloads, and its `--json` lines join theirs at the end of the output (bench/run.ts).
 */
import { runLatencyBench } from './latency.js';
import { runProduceBench } from './produce.js';

/** What an extra runner gets from the bench. */
export interface RunnerEnv {
  bootstrap: string;
  kafkaVersion: string;
  /** The Kafka release whose Java tools run against the broker. */
  toolsVersion: string;
  /** `--records`, when given. */
  records: number | undefined;
  rounds: number;
  /** `--clients`, when given (ids; a runner ignores the ones it does not know). */
  clients: string[] | undefined;
  /** `--no-java`. */
  noJava: boolean;
  /** Build the librdkafka binding if missing (not with `--no-build`); `--rebuild-rdkafka` forgets a failed build. */
  build: boolean;
  rebuild: boolean;
  /** `--latency`'s fixed rate (records/s) and duration (s), checked by bench/args.ts. */
  rate: number;
  seconds: number;
  log: (line: string) => void;
}

export interface RunnerOutcome {
  /**
   * One `--json` line per workload the runner measured, each
   * `{"workload":…,"clients":{name:{…figures}}}` (latency: `p50Ms`, `p99Ms` in place of the rates).
   */
  jsonLines: string[];
  /** Some client failed or read the wrong records. */
  failed: boolean;
}

export interface WorkloadRunner {
  /** Its flag without the dashes, e.g. `produce` for `--produce`. */
  flag: string;
  /** One line for the usage text. */
  description: string;
  run(env: RunnerEnv): Promise<RunnerOutcome>;
}

/** Add a row to add a benchmark to `--all`. */
export const WORKLOAD_RUNNERS: readonly WorkloadRunner[] = [
  {
    flag: 'produce',
    description: 'produce throughput, acks=all and idempotent, lz4 and uncompressed (bench/produce.ts)',
    run: (env) => printed(runProduceBench({ ...env, clients: env.clients?.join(',') })),
  },
  {
    flag: 'latency',
    description: 'produce-to-consume latency at a fixed rate, p50/p99/p99.9 (bench/latency.ts; --rate, --seconds)',
    run: (env) => printed(runLatencyBench({ ...env, clients: env.clients?.join(',') })),
  },
];

/** Prints a benchmark's tables on stdout and hands its `--json` lines to the caller. */
async function printed(outcome: Promise<{ failed: boolean; tables: string; json: string[] }>): Promise<RunnerOutcome> {
  const o = await outcome;
  process.stdout.write(`\n${o.tables}`);
  return { jsonLines: o.json, failed: o.failed };
}
