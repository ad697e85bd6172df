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
 *                    [--no-build] [--rebuild-rdkafka] [--baseline REF] [--decode]
 *                    [--commit [--commits N] [--commit-dir DIR]] [--transactions]
 *                    [--produce] [--latency [--rate N] [--seconds N]]
 *
 * Workloads (bench/workloads.ts): headline (default), values-1k, snappy,
 * lz4, zstd, partitions-1, partitions-1000, group-4 (a group of 4 consumer
 * processes per client, bench/clients/group.ts). `--all` runs every one of
 * them, and every extra benchmark of bench/runners.ts (WORKLOAD_RUNNERS:
 * produce, latency, … each also by its own flag). Clients (bench/clients/peers.ts): tidemark,
 * tidemark-reuse (reuseFetchBuffers on), tidemark-node24, kafkajs, platformatic, confluent (the librdkafka
 * binding's native consume(n) path), confluent-kafkajs (its KafkaJS API),
 * kcat, java; all by default, and each one that cannot run here gets a row
 * saying why. Every Node child (each client's program, the group members,
 * the decode micro-benchmark) runs compiled, bundled once per run by
 * bench/child-build.ts, not through tsx.
 * Results: bench/results/fetch.md + fetch.svg for the headline,
 * fetch-<workload>.md + .svg for the others.
 *
 * `--json`: one JSON line per workload measured, `{"workload":…,
 * "description":…,"clients":{"<name>":{recordsPerSec,mbPerSec,
 * cpuSecPerMillion,peakRssMiB,node}},"unavailable":{"<name>":why}}`
 * (bench/summary-json.ts), all printed together at the very end of stdout
 * (JSON Lines, in the order run, the extra runners' after the fetch
 * workloads'): with one workload the last line is its line.
 *
 * `--baseline <git ref>`: builds that ref in a scratch worktree
 * (bench/baseline.ts) and runs its tidemark as the client `tidemark@<sha>`
 * beside this build in every fetch workload, and with `--decode` its
 * decode benchmark just before this one's (bench/results/decode-baseline.md
 * beside decode.md); the worktree is removed afterwards.
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
 *
 * Every committed result in bench/results comes from one run on a quiet
 * machine (load average well under the core count; the results header
 * states it), with "today's main" of the targets as the baseline
 * (`main` from a branch; on main itself, the commit before the work measured):
 *
 *   npm run bench -- --all --decode --commit --transactions --baseline main --json
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type BenchArgs, BenchUsageError, parseBenchArgs, USAGE } from './args.js';
import { type Baseline, prepareBaseline } from './baseline.js';
import { benchBroker } from './broker.js';
import { childCommand } from './child-build.js';
import { type Availability, type BenchClient, type BenchContext, CLIENTS } from './clients/peers.js';
import { currentNode, node24, runProcess } from './clients/process.js';
import type { ClientResult } from './clients/result.js';
import { runCommitBench } from './commit.js';
import type { Workload } from './load.js';
import { PRODUCE_CLIENTS } from './produce-clients.js';
import { type ClientSummary, markdownTable, noteRow, summarise, svgChart } from './report.js';
import { resultsMarkdown } from './results-markdown.js';
import { WORKLOAD_RUNNERS } from './runners.js';
import { workloadJsonLine } from './summary-json.js';
import { prepareTopic } from './topic.js';
import { runTransactionsBench } from './transactions.js';
import { describeWorkload, resultStem, WORKLOADS } from './workloads.js';

const loadAtStart = loadavg()[0];
const log = (line: string) => process.stderr.write(`${line}\n`);

let args: BenchArgs;
try {
  // --produce has clients of its own (tidemark-batch: sendBatch()).
  args = parseBenchArgs(process.argv.slice(2), [
    ...CLIENTS.map((c) => c.id),
    ...PRODUCE_CLIENTS.map((c) => c.id).filter((id) => !CLIENTS.some((c) => c.id === id)),
  ]);
} catch (e) {
  if (!(e instanceof BenchUsageError)) throw e;
  log(e.message);
  log(USAGE);
  for (const r of WORKLOAD_RUNNERS) log(`  --${r.flag}: ${r.description}`);
  log(`  workloads: ${WORKLOADS.map((w) => w.name).join(', ')}`);
  log(`  clients:   ${CLIENTS.map((c) => c.id).join(', ')}`);
  process.exit(2);
}
const { rounds, workloads } = args;

let selected: BenchClient[] =
  args.clients === undefined
    ? CLIENTS.filter((c) => !(args.noJava && c.id === 'java'))
    : args.clients.map((id) => CLIENTS.find((c) => c.id === id) as BenchClient);

// --baseline: the earlier build, prepared once, runs as one more client right after this build's tidemark.
let baseline: Baseline | undefined;
if (args.baseline !== undefined) {
  baseline = await prepareBaseline(args.baseline, log);
  // Interrupted: the scratch worktree goes too (it is registered in this repository).
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void baseline?.remove().finally(() => process.exit(130)));
  const at = Math.max(0, selected.findIndex((c) => c.id === 'tidemark') + 1);
  selected = [...selected.slice(0, at), baseline.client, ...selected.slice(at)];
}

const runDecode = async (script: string, label: string) => {
  // The decode micro-benchmark (bench/decode.ts, the records issue's), run
  // first; its stdout goes to stderr so `--json` stays the last stdout lines.
  log(`decode micro-benchmark (${label})…`);
  const child = await childCommand(process.execPath, script, []);
  const r = await runProcess(child.cmd, child.args, {
    timeoutMs: 30 * 60_000,
    onStdout: (d) => process.stderr.write(d),
    onStderr: (d) => process.stderr.write(d),
  });
  if (r.code !== 0) log(`decode micro-benchmark failed (exit ${r.code})`);
};
if (args.decode) {
  if (baseline !== undefined) {
    await runDecode(baseline.decodeScript, `${baseline.client.name}, bench/decode.ts`);
    const md = await baseline.decodeResults();
    if (md !== undefined) await writeResult('decode-baseline.md', md);
  }
  await runDecode(fileURLToPath(new URL('./decode.ts', import.meta.url)), 'bench/decode.ts');
}

const broker = await benchBroker(log);
let failed = false;
const jsonLines: string[] = [];
try {
  if (args.commit) {
    log('\n== commit benchmark (bench/commit.ts) ==');
    const { markdown: md } = await runCommitBench({
      bootstrap: broker.bootstrap,
      kafkaVersion: broker.kafkaVersion,
      rounds,
      commits: args.commits,
      budgetMs: 10_000,
      dir: args.commitDir,
      log,
    });
    await writeResult('commit.md', md);
    printTables(md);
  }
  if (args.transactions) {
    log('\n== transactional produce benchmark (bench/transactions.ts) ==');
    const md = await runTransactionsBench({
      bootstrap: broker.bootstrap,
      kafkaVersion: broker.kafkaVersion,
      toolsVersion: broker.toolsVersion,
      records: args.records ?? 100_000,
      rounds,
      java: !args.noJava,
      log,
    });
    await writeResult('transactions.md', md);
    printTables(md);
  }
  const n24 = node24();
  const ctx: BenchContext = {
    bootstrap: broker.bootstrap,
    toolsVersion: broker.toolsVersion,
    node: currentNode(),
    node24: n24,
    log,
    build: args.build,
    rebuild: args.rebuildRdkafka,
  };

  // Probe (and where needed build) each client once, before any workload (none for the commit benchmark alone).
  const availability = new Map<string, Availability>();
  for (const c of workloads.length === 0 ? [] : selected) {
    const a = await c.prepare(ctx).catch((e: Error): Availability => ({ available: false, reason: e.message }));
    availability.set(c.id, a);
    log(a.available ? `client ${c.name}: ${a.runtime}` : `client ${c.name}: not available: ${a.reason}`);
  }

  let headline: ClientSummary[] | undefined;
  for (const spec of workloads) {
    log(`\n== workload ${spec.name}: ${describeWorkload(spec)} ==`);
    const workload = await prepareTopic(broker.bootstrap, spec, log, {
      fresh: args.fresh,
      node24: 'unavailable' in n24 ? undefined : n24,
    });
    const { rows, anyFailed } = await runWorkload(ctx, workload, selected, availability, rounds);
    failed ||= anyFailed;
    if (spec.name === 'headline') headline = rows;

    const title = describeWorkload(spec);
    const md = resultsMarkdown(spec, title, rows, {
      kafkaVersion: broker.kafkaVersion,
      rounds,
      loadAtStart,
      headline,
    });
    const stem = resultStem(spec);
    await writeResult(`${stem}.md`, md);
    await writeResult(`${stem}.svg`, svgChart(`Fetch throughput: ${title}`, rows));
    process.stdout.write(`\n${spec.name}: ${title}\n${markdownTable(rows)}\n`);
    jsonLines.push(workloadJsonLine(spec.name, title, rows));
  }

  // The extra benchmarks (bench/runners.ts), by their flags or --all.
  for (const runner of WORKLOAD_RUNNERS.filter((r) => args.runners.includes(r.flag))) {
    log(`\n== --${runner.flag}: ${runner.description} ==`);
    const outcome = await runner.run({
      bootstrap: broker.bootstrap,
      kafkaVersion: broker.kafkaVersion,
      toolsVersion: broker.toolsVersion,
      records: args.records,
      rounds,
      clients: args.clients,
      noJava: args.noJava,
      build: args.build,
      rebuild: args.rebuildRdkafka,
      rate: args.rate,
      seconds: args.seconds,
      log,
    });
    failed ||= outcome.failed;
    jsonLines.push(...outcome.jsonLines);
  }
  if (args.json && jsonLines.length > 0) process.stdout.write(`${jsonLines.join('\n')}\n`);
} finally {
  await broker.stop();
  await baseline?.remove();
}
if (failed) {
  log('some clients failed or read the wrong records: see the FAILED rows');
  process.exitCode = 1;
}

async function writeResult(file: string, content: string): Promise<void> {
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL(`./results/${file}`, import.meta.url), content);
  log(`wrote bench/results/${file}`);
}

function printTables(md: string): void {
  process.stdout.write(
    `\n${md
      .split('\n')
      .filter((l) => l.startsWith('|'))
      .join('\n')}\n`,
  );
}

/** Why a client cannot read this workload, if it cannot: its own reason, or no group member program. */
function unsupportedBy(c: BenchClient, w: Workload): string | undefined {
  if (w.groupMembers !== undefined && c.runGroup === undefined) return 'no consumer-group member program for it';
  return c.unsupported?.(w);
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
    return a?.available === true && unsupportedBy(c, w) === undefined;
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
        const r = w.groupMembers === undefined ? await c.run(ctx, w) : await c.runGroup!(ctx, w, w.groupMembers);
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
    const why = unsupportedBy(c, w);
    if (why !== undefined) return noteRow(c.name, a.runtime, `not supported: ${why}`);
    const failure = failures.get(c.id);
    if (failure !== undefined) return noteRow(c.name, a.runtime, `FAILED: ${failure}`);
    return summarise(c.name, results.get(c.id) ?? [], a.runtime);
  });
  return { rows, anyFailed: failures.size > 0 };
}

function checksumOf(n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum = (sum + i) >>> 0;
  return sum;
}
