/**
 * The commit benchmark (`npm run bench -- --commit`): how many commits per
 * second, and how long each takes (p50/p99), when a consumer commits through
 * the local file store (FileOffsetStore: gtoffset written to a temp file,
 * fsynced, renamed, directory fsynced, on every commit) against the broker
 * (BrokerOffsetStore: OffsetCommit to the group coordinator, answered once
 * the commit is appended to __consumer_offsets). One commit names 1 or 8
 * partitions of one topic; commits are sequential and each is awaited (a
 * consumer that commits after every batch), with offsets that move forward
 * every time. Each case runs for a fixed count or a time budget, whichever
 * ends first, after a few warm-up commits (file open and lock, coordinator
 * lookup); rounds alternate the stores and the reported figures are medians
 * over the rounds. Results: bench/results/commit.md.
 */
import { mkdtemp, rm, statfs } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../src/client.js';
import { BrokerOffsetStore } from '../src/consumer/broker-offset-store.js';
import { FileOffsetStore } from '../src/offsets/file/file-offset-store.js';
import type { OffsetCommit, OffsetStore } from '../src/offsets/offset-store.js';

export interface CommitBenchOptions {
  bootstrap: string;
  kafkaVersion: string;
  rounds: number;
  /** Measured commits per case and round (after the warm-up). */
  commits: number;
  /** Time budget per case and round; a case stops at whichever of count and budget comes first. */
  budgetMs: number;
  /** Where the file store writes (default: the OS temp directory); its filesystem is reported. */
  dir?: string;
  /** Unmeasured commits before each case (default 20): file open and lock, coordinator lookup. */
  warmup?: number;
  log: (line: string) => void;
}

/** One store and partition count: medians over the rounds. */
export interface CommitCaseSummary {
  store: string;
  partitions: number;
  commitsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Commits measured per round (the count, or fewer where the time budget ended the case). */
  commits: number;
}

/** One measured case in one round. */
interface CaseRun {
  commits: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
}

interface StoreKind {
  name: string;
  /** Why its figures mean what they mean: what "done" waits for. */
  durability: string;
  open(ctx: StoreContext): OffsetStore;
}

interface StoreContext {
  client: Client;
  dir: string;
}

const STORES: readonly StoreKind[] = [
  {
    name: 'FileOffsetStore (fsync)',
    durability:
      'lock file read back (still ours?), temp file written and fsynced, previous gtoffset hard-linked as the backup, temp renamed over gtoffset, directory fsynced: about ten file-system calls and two fsyncs',
    open: ({ dir }) => new FileOffsetStore({ dir }),
  },
  {
    name: 'FileOffsetStore (fsync: false)',
    durability:
      'the same steps without the two fsyncs (the page cache only: a power loss may lose the commit); what is left is the cost of the calls themselves',
    open: ({ dir }) => new FileOffsetStore({ dir, fsync: false }),
  },
  {
    name: 'BrokerOffsetStore (OffsetCommit)',
    durability:
      'appended to __consumer_offsets (replication factor 1 here; Kafka does not fsync its log per write by default)',
    open: ({ client }) =>
      new BrokerOffsetStore({ cluster: client.cluster, coordinators: client.coordinators, requestTimeoutMs: 30_000 }),
  },
];

const PARTITION_COUNTS = [1, 8] as const;
const TOPIC_PARTITIONS = 8;
const DEFAULT_WARMUP = 20;

/** Runs every store × partition count for `rounds` alternating rounds: the medians, and the results markdown. */
export async function runCommitBench(o: CommitBenchOptions): Promise<{ cases: CommitCaseSummary[]; markdown: string }> {
  const loadAtStart = loadavg()[0];
  const topic = `tidemark-bench-commit-${TOPIC_PARTITIONS}p`;
  const client = new Client({ bootstrap: [o.bootstrap], clientId: 'tidemark-bench-commit' });
  const root = await mkdtemp(join(o.dir ?? tmpdir(), 'tidemark-commit-bench-'));
  const runs = new Map<string, CaseRun[]>();
  try {
    // The broker checks that the topic exists (the commit names it); the file store does not care.
    const existing = await client.admin.listTopics();
    if (!existing.includes(topic))
      await client.admin.createTopics([{ name: topic, numPartitions: TOPIC_PARTITIONS, replicationFactor: 1 }]);
    for (let round = 1; round <= o.rounds; round++) {
      // Rotate which store goes first, so none always runs first on a quiet (or busy) moment.
      const order = STORES.map((_, i) => STORES[(i + round - 1) % STORES.length]);
      for (const kind of order) {
        for (const partitions of PARTITION_COUNTS) {
          const key = caseKey(kind.name, partitions);
          const group = commitBenchGroup(round, partitions, kind.name);
          const store = kind.open({ client, dir: root });
          try {
            const run = await measure(store, group, topic, partitions, o);
            o.log(
              `round ${round}/${o.rounds}: ${kind.name}, ${partitions} partition${partitions === 1 ? '' : 's'}: ${Math.round(run.commits / run.seconds).toLocaleString('en-US')} commits/s, p50 ${run.p50Ms.toFixed(2)} ms, p99 ${run.p99Ms.toFixed(2)} ms (${run.commits} commits)`,
            );
            runs.set(key, [...(runs.get(key) ?? []), run]);
          } finally {
            await store.close();
          }
        }
      }
    }
    const fsType = await filesystemOf(root);
    const cases = STORES.flatMap((kind) =>
      PARTITION_COUNTS.map((partitions): CommitCaseSummary => {
        const r = runs.get(caseKey(kind.name, partitions)) ?? [];
        return {
          store: kind.name,
          partitions,
          commitsPerSec: median(r.map((x) => x.commits / x.seconds)),
          p50Ms: median(r.map((x) => x.p50Ms)),
          p99Ms: median(r.map((x) => x.p99Ms)),
          commits: median(r.map((x) => x.commits)),
        };
      }),
    );
    return { cases, markdown: resultsMarkdown(o, runs, root, fsType, loadAtStart) };
  } finally {
    await client.close();
    await rm(root, { recursive: true, force: true });
  }
}

/** Warm-up, then sequential awaited commits until the count or the budget is reached. */
async function measure(
  store: OffsetStore,
  group: string,
  topic: string,
  partitions: number,
  o: CommitBenchOptions,
): Promise<CaseRun> {
  let next = 1n;
  const commitOnce = () => {
    const offsets: OffsetCommit[] = [];
    for (let p = 0; p < partitions; p++) offsets.push({ topic, partition: p, offset: next });
    next += 100n; // a batch of 100 records processed per commit
    return store.commit(group, offsets);
  };
  for (let i = 0; i < (o.warmup ?? DEFAULT_WARMUP); i++) await commitOnce();
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(o.budgetMs) * 1_000_000n;
  let now = started;
  while (latencies.length < o.commits && now < deadline) {
    const t = process.hrtime.bigint();
    await commitOnce();
    now = process.hrtime.bigint();
    latencies.push(Number(now - t) / 1e6);
  }
  const seconds = Number(now - started) / 1e9;
  latencies.sort((a, b) => a - b);
  return { commits: latencies.length, seconds, p50Ms: quantile(latencies, 0.5), p99Ms: quantile(latencies, 0.99) };
}

/** Nearest-rank quantile of sorted values. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const caseKey = (store: string, partitions: number) => `${store}|${partitions}`;

/** The group a case commits under: its own per round, so every case starts with nothing stored. */
export function commitBenchGroup(round: number, partitions: number, store: string): string {
  return `bench-commit-${process.pid}-${round}-${partitions}p-${store.replace(/[^A-Za-z0-9]+/g, '-')}`;
}

/** The offset the last commit of a case stores: every commit moves all its partitions 100 records on from 1. */
export function lastCommittedOffset(commitsInCase: number): bigint {
  return 1n + 100n * BigInt(commitsInCase - 1);
}

/** The filesystem the file store wrote to: tmpfs would make fsync free and the figures meaningless. */
async function filesystemOf(dir: string): Promise<string> {
  const magic: Record<number, string> = {
    61267: 'ext2/3/4',
    1481003842: 'xfs',
    2435016766: 'btrfs',
    16914836: 'tmpfs (fsync costs nothing here)',
    2035054128: 'overlayfs',
  };
  const { type } = await statfs(dir);
  return magic[type] ?? `filesystem type 0x${type.toString(16)}`;
}

function resultsMarkdown(
  o: CommitBenchOptions,
  runs: Map<string, CaseRun[]>,
  dir: string,
  fsType: string,
  loadAtStart: number,
): string {
  const rows = STORES.flatMap((kind) =>
    PARTITION_COUNTS.map((partitions) => {
      const r = runs.get(caseKey(kind.name, partitions)) ?? [];
      const rates = r.map((x) => x.commits / x.seconds);
      const spread = r.length === 0 ? '' : `${fmt(Math.min(...rates), 0)}–${fmt(Math.max(...rates), 0)}`;
      return `| ${kind.name} | ${partitions} | ${fmt(median(rates), 0)} | ${spread} | ${fmt(median(r.map((x) => x.p50Ms)), 2)} | ${fmt(median(r.map((x) => x.p99Ms)), 2)} | ${fmt(median(r.map((x) => x.commits)), 0)} |`;
    }),
  );
  const cores = cpus();
  const loaded =
    loadAtStart > cores.length ? ' — a loaded machine (shared by other jobs): these figures are not final' : '';
  return [
    '# Commit throughput and latency: local file store against the broker',
    '',
    `Sequential, awaited commits (each resolves once durable in its store, as the commit engine waits for it), one group and one topic, every commit naming 1 or 8 partitions with offsets that move forward. Per case and round: ${o.warmup ?? DEFAULT_WARMUP} warm-up commits (file lock and open, coordinator lookup), then up to ${o.commits.toLocaleString('en-US')} commits or ${o.budgetMs / 1000} s, whichever ends first. ${o.rounds} round${o.rounds === 1 ? '' : 's'} alternating the stores; medians over the rounds, with the spread of commits/s. ${o.kafkaVersion === 'external' ? 'the KAFKA_BOOTSTRAP broker' : `Kafka ${o.kafkaVersion}`} on loopback; file store on ${fsType} (\`${dir}\`, removed afterwards). Machine: ${process.arch}, ${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}, load average ${loadAtStart.toFixed(1)} at the start${loaded}; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`,
    '',
    '| store | partitions per commit | commits/s (median) | spread (min–max) | p50 ms | p99 ms | commits per round |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    'What a commit waits for:',
    '',
    ...STORES.map((s) => `- **${s.name}**: ${s.durability}.`),
    '',
    'The two are not the same promise: the file store’s fsync puts the offsets on this machine’s disk; the broker’s answer means the coordinator appended them to its log (in the page cache, replicated where the topic has replicas), on another machine in production, where a network round trip is added to these loopback figures.',
    '',
  ].join('\n');
}

function fmt(n: number, digits: number): string {
  return Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '–';
}
