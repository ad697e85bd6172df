/**
 * `npm run bench -- --produce`: produce throughput, tidemark side by side with its peers (kafkajs,
 * @platformatic/kafka, the librdkafka binding, kcat -P and Kafka's Java ProducerPerformance), each in its own
 * process, in alternating rounds: 2,000,000 × 100-byte values (`--records` to change), acks all,
 * idempotent, lz4 and uncompressed, into a fresh 8-partition topic per client per round. Each round is
 * verified by the topic's end offsets (exactly the records sent) and by the client's own acknowledgement
 * count. Writes bench/results/produce.md and produce.svg; `--json` prints one line per case.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { Client } from '../src/client.js';
import { writeRecordsFile } from './clients/kcat-produce.js';
import type { Availability } from './clients/peers.js';
import type { ClientResult } from './clients/result.js';
import { PRODUCE_CLIENTS, type ProduceClient, type ProduceJob } from './produce-clients.js';
import { type ProduceCaseResult, produceChart, produceMarkdown, throughputJson } from './produce-report.js';
import { alternateRounds, prepareSession, selectClients } from './produce-rounds.js';
import { PRODUCE_CASES, PRODUCE_WORKLOAD, type ProduceCompression, settingsLines } from './produce-settings.js';
import { createFreshTopic, deleteTopicQuietly, endOffsetSum } from './produce-topics.js';
import { type ClientSummary, markdownTable, noteRow, summarise } from './report.js';

export interface ProduceBenchOptions {
  bootstrap: string;
  kafkaVersion: string;
  toolsVersion: string;
  /** Records per round; default 2,000,000. */
  records?: number;
  rounds: number;
  /** `--clients`, comma-separated ids; all by default. */
  clients?: string;
  /** Build the librdkafka binding if missing (not with --no-build); forget an earlier failed build. */
  build: boolean;
  rebuild: boolean;
  log: (line: string) => void;
}

export interface BenchOutcome {
  /** Whether some client failed or wrote the wrong number of records. */
  failed: boolean;
  /** The printed tables. */
  tables: string;
  /** One `--json` line per case. */
  json: string[];
}

const TITLES: Record<ProduceCompression, string> = {
  lz4: 'acks all, idempotent, lz4',
  none: 'acks all, idempotent, uncompressed',
};

export async function runProduceBench(o: ProduceBenchOptions): Promise<BenchOutcome> {
  const loadAtStart = loadavg()[0];
  const records = o.records ?? PRODUCE_WORKLOAD.records;
  const { valueBytes, partitions } = PRODUCE_WORKLOAD;
  const selected = selectClients(PRODUCE_CLIENTS, o.clients);
  const { ctx, availability } = await prepareSession(o, selected);
  const kcatFile = availability.get('kcat')?.available ? await writeRecordsFile(records, valueBytes) : undefined;
  const admin = new Client({ bootstrap: [o.bootstrap], clientId: 'tidemark-bench-produce-admin' });
  const cases: ProduceCaseResult[] = [];
  let failed = false;
  try {
    for (const compression of PRODUCE_CASES) {
      o.log(`\n== produce-${compression}: ${records.toLocaleString('en-US')} records, ${TITLES[compression]} ==`);
      const runnable = selected.filter((c) => availability.get(c.id)?.available && !c.unsupported?.(compression));
      const outcome = await alternateRounds(
        runnable,
        o.rounds,
        async (c, round) => {
          const job: ProduceJob = {
            topic: `tidemark-bench-produce-${compression}-${c.id}-${round}-${Date.now()}`,
            records,
            valueBytes,
            compression,
            recordsFile: kcatFile?.path ?? '',
          };
          await createFreshTopic(admin, job.topic, partitions);
          try {
            const r = await c.run(ctx, job);
            await checkRound(admin, job, r);
            o.log(
              `  ${Math.round(r.records / r.seconds).toLocaleString('en-US')} records/s, ${((r.cpuSeconds / r.records) * 1e6).toFixed(2)} CPU s per 1M records`,
            );
            return r;
          } finally {
            await deleteTopicQuietly(admin, job.topic);
          }
        },
        o.log,
      );
      failed ||= outcome.failures.size > 0;
      const rows = selected.map((c) => rowOf(c, availability.get(c.id), compression, outcome));
      cases.push({ workload: `produce-${compression}`, title: TITLES[compression], rows });
    }
  } finally {
    await admin.close();
    await kcatFile?.remove();
  }
  const md = produceMarkdown(cases, {
    records,
    valueBytes,
    partitions,
    rounds: o.rounds,
    kafkaVersion: o.kafkaVersion,
    loadAtStart,
    loadAtEnd: loadavg()[0],
    settings: settingsLines(),
  });
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/produce.md', import.meta.url), md);
  await writeFile(new URL('./results/produce.svg', import.meta.url), produceChart(cases));
  o.log('wrote bench/results/produce.md and produce.svg');
  return {
    failed,
    tables: cases.map((c) => `${c.workload}: ${c.title}\n${markdownTable(c.rows)}\n`).join('\n'),
    json: cases.map((c) => throughputJson(c.workload, c.rows)),
  };
}

/** A round counts only if the client says it wrote every record and the topic holds exactly that many. */
async function checkRound(admin: Client, job: ProduceJob, r: ClientResult): Promise<void> {
  if (r.records !== job.records) throw new Error(`acknowledged ${r.records} records, not ${job.records}`);
  const written = await endOffsetSum(admin, job.topic);
  if (written !== job.records)
    throw new Error(`the topic's end offsets add up to ${written}, not the ${job.records} records sent`);
  if (!(r.seconds > 0)) throw new Error(`no time measured (${r.seconds} s)`);
}

function rowOf(
  c: ProduceClient,
  a: Availability | undefined,
  compression: ProduceCompression,
  outcome: { results: Map<string, ClientResult[]>; failures: Map<string, string> },
): ClientSummary {
  if (a === undefined || !a.available) return noteRow(c.name, '', `not available: ${a?.reason ?? 'not probed'}`);
  const why = c.unsupported?.(compression);
  if (why !== undefined) return noteRow(c.name, a.runtime, `not supported: ${why}`);
  const failure = outcome.failures.get(c.id);
  if (failure !== undefined) return noteRow(c.name, a.runtime, `FAILED: ${failure}`);
  return summarise(c.name, outcome.results.get(c.id) ?? [], a.runtime);
}
