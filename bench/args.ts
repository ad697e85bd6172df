/**
 * The command line of `npm run bench` (bench/run.ts), parsed and checked without side effects, so the
 * argument handling is unit-tested (test/unit/bench/args.test.ts). A bad argument is a `BenchUsageError`
 * naming the argument; run.ts prints it with the usage line and exits 2.
 */
import { parseArgs } from 'node:util';
import { latencyArgs } from './produce-command.js';
import { WORKLOAD_RUNNERS } from './runners.js';
import { WORKLOADS, type WorkloadSpec } from './workloads.js';

export class BenchUsageError extends Error {
  override name = 'BenchUsageError';
}

export interface BenchArgs {
  /** The fetch workloads to run, in order (records already overridden by `--records`). */
  workloads: WorkloadSpec[];
  /** Client ids from `--clients`, or undefined for all of them. */
  clients: string[] | undefined;
  /** `--records`, when given: overrides every workload's record count (and the extra runners'). */
  records: number | undefined;
  rounds: number;
  /** `--all`: every fetch workload, and every extra runner (WORKLOAD_RUNNERS) too. */
  all: boolean;
  json: boolean;
  fresh: boolean;
  build: boolean;
  rebuildRdkafka: boolean;
  noJava: boolean;
  decode: boolean;
  commit: boolean;
  commits: number;
  commitDir: string | undefined;
  transactions: boolean;
  /** `--baseline <git ref>`: that ref, built in a scratch worktree, runs as one more tidemark client. */
  baseline: string | undefined;
  /** The extra runners' flags (`--produce`, `--latency`, …) that were given, or all of them with `--all`. */
  runners: string[];
  /** `--rate` and `--seconds` for `--latency` (their defaults when absent). */
  rate: number;
  seconds: number;
}

export const USAGE =
  'usage: npm run bench -- [--workload NAME[,NAME…] | --all] [--clients ID[,ID…]] [--records N] [--rounds N] [--json] [--fresh] [--no-build] [--rebuild-rdkafka] [--baseline REF] [--decode] [--commit [--commits N] [--commit-dir DIR]] [--transactions] [--produce] [--latency [--rate N] [--seconds N]]';

function positiveInteger(name: string, text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new BenchUsageError(`--${name} must be a positive integer, not ${text}`);
  return n;
}

/** Parses the bench's argv (without node and the script); `clientIds` are the ids `--clients` accepts. */
export function parseBenchArgs(argv: readonly string[], clientIds: readonly string[]): BenchArgs {
  const runnerFlags = Object.fromEntries(
    WORKLOAD_RUNNERS.map((r) => [r.flag, { type: 'boolean' as const, default: false }]),
  );
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        records: { type: 'string' },
        rounds: { type: 'string', default: '3' },
        workload: { type: 'string' },
        all: { type: 'boolean', default: false },
        clients: { type: 'string' },
        json: { type: 'boolean', default: false },
        fresh: { type: 'boolean', default: false },
        'no-build': { type: 'boolean', default: false },
        'rebuild-rdkafka': { type: 'boolean', default: false },
        'no-java': { type: 'boolean', default: false },
        decode: { type: 'boolean', default: false },
        commit: { type: 'boolean', default: false },
        commits: { type: 'string', default: '1000' },
        'commit-dir': { type: 'string' },
        transactions: { type: 'boolean', default: false },
        baseline: { type: 'string' },
        rate: { type: 'string' },
        seconds: { type: 'string' },
        ...runnerFlags,
      },
    }));
  } catch (e) {
    throw new BenchUsageError((e as Error).message);
  }
  const str = (k: string) => values[k] as string | undefined;
  const flag = (k: string) => values[k] === true;

  const rounds = positiveInteger('rounds', str('rounds') ?? '3');
  const records = str('records') === undefined ? undefined : positiveInteger('records', str('records') as string);
  const commits = positiveInteger('commits', str('commits') ?? '1000');
  const all = flag('all');
  if (all && str('workload') !== undefined) throw new BenchUsageError('--all and --workload exclude each other');
  const runners = WORKLOAD_RUNNERS.filter((r) => all || flag(r.flag)).map((r) => r.flag);

  // `--commit`, `--transactions` or an extra runner alone run only that; fetch workloads when asked for.
  const onlyOthers = flag('commit') || flag('transactions') || runners.length > 0;
  const fetchWorkloads = !onlyOthers || all || str('workload') !== undefined;
  const workloads = (
    !fetchWorkloads
      ? []
      : all
        ? [...WORKLOADS]
        : (str('workload') ?? 'headline').split(',').map((name) => {
            const w = WORKLOADS.find((x) => x.name === name.trim());
            if (w === undefined)
              throw new BenchUsageError(
                `unknown workload ${name.trim()} (workloads: ${WORKLOADS.map((x) => x.name).join(', ')})`,
              );
            return w;
          })
  ).map((w) => (records === undefined ? w : { ...w, records }));

  const clientsText = str('clients');
  const clients =
    clientsText === undefined
      ? undefined
      : clientsText.split(',').map((id) => {
          const trimmed = id.trim();
          if (!clientIds.includes(trimmed))
            throw new BenchUsageError(`unknown client ${trimmed} (clients: ${clientIds.join(', ')})`);
          return trimmed;
        });

  const baseline = str('baseline');
  if (baseline !== undefined && (baseline.trim() === '' || baseline.startsWith('-')))
    throw new BenchUsageError(`--baseline takes a git ref (a commit, branch or tag), not "${baseline}"`);

  const latency = latencyArgs(str('rate'), str('seconds'));
  if (typeof latency === 'string') throw new BenchUsageError(latency);

  return {
    workloads,
    clients,
    records,
    rounds,
    all,
    json: flag('json'),
    fresh: flag('fresh'),
    build: !flag('no-build'),
    rebuildRdkafka: flag('rebuild-rdkafka'),
    noJava: flag('no-java'),
    decode: flag('decode'),
    commit: flag('commit'),
    commits,
    commitDir: str('commit-dir'),
    transactions: flag('transactions'),
    baseline,
    runners,
    rate: latency.rate,
    seconds: latency.seconds,
  };
}
