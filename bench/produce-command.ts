/**
 * The `--rate` and `--seconds` options of `npm run bench -- --latency`, checked (bench/args.ts parses them;
 * bench/runners.ts hands them to the latency benchmark, bench/latency.ts).
 */
import { LATENCY_DEFAULTS } from './latency.js';

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
