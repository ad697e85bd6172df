/**
 * The `--produce` and `--latency` flags of `npm run bench` (bench/run.ts hands them over here): checks
 * `--rate` / `--seconds`, runs the produce benchmark (bench/produce.ts) and the latency benchmark
 * (bench/latency.ts) against the bench's broker, prints their tables and, with `--json`, their JSON lines
 * last (one per produce case, then the latency line).
 */
import type { BenchBroker } from './broker.js';
import { LATENCY_DEFAULTS, runLatencyBench } from './latency.js';
import { runProduceBench } from './produce.js';

export interface ProduceCommandOptions {
  produce: boolean;
  latency: boolean;
  rate: number;
  seconds: number;
  records: number | undefined;
  rounds: number;
  clients?: string;
  json: boolean;
  build: boolean;
  rebuild: boolean;
}

/** `--rate` and `--seconds` as numbers (their defaults when absent), or what is wrong with them. */
export function latencyArgs(
  rate: string | undefined,
  seconds: string | undefined,
): { rate: number; seconds: number } | string {
  const r = rate === undefined ? LATENCY_DEFAULTS.rate : Number(rate);
  const s = seconds === undefined ? LATENCY_DEFAULTS.seconds : Number(seconds);
  if (!Number.isInteger(r) || r < 1) return `--rate must be a positive integer (records/s), not ${rate}`;
  if (!Number.isFinite(s) || s <= LATENCY_DEFAULTS.warmupSeconds)
    return `--seconds must be more than the ${LATENCY_DEFAULTS.warmupSeconds} s warm-up, not ${seconds}`;
  return { rate: r, seconds: s };
}

/** Runs what was asked for; resolves true when some client failed or wrote or read the wrong records. */
export async function runProduceCommands(
  o: ProduceCommandOptions,
  broker: BenchBroker,
  log: (line: string) => void,
): Promise<boolean> {
  const common = { ...broker, rounds: o.rounds, clients: o.clients, build: o.build, rebuild: o.rebuild, log };
  const outcomes = [];
  if (o.produce) {
    log('\n== produce benchmark (bench/produce.ts) ==');
    outcomes.push(await runProduceBench({ ...common, records: o.records }));
  }
  if (o.latency) {
    log('\n== latency benchmark (bench/latency.ts) ==');
    outcomes.push(await runLatencyBench({ ...common, rate: o.rate, seconds: o.seconds }));
  }
  for (const out of outcomes) process.stdout.write(`\n${out.tables}`);
  if (o.json) for (const out of outcomes) for (const line of out.json) process.stdout.write(`${line}\n`);
  return outcomes.some((out) => out.failed);
}
