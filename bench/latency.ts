/**
 * `npm run bench -- --latency [--rate N] [--seconds N]`: produce → consume latency at a fixed rate (default
 * 20,000 records/s for 60 s) for tidemark, kafkajs, the librdkafka binding and Kafka's Java client, each
 * producing and consuming with its own client in one process (bench/clients/*-latency.ts,
 * bench/java/LatencyProbe.java), in alternating rounds, a fresh 8-partition topic per client per round. Every
 * value carries its send time (epoch µs) and a sequence number; a round counts only if every record came
 * back exactly once. Percentiles (bench/latency-stats.ts) over the records sent after the first second.
 * Writes bench/results/latency.md and latency.svg; `--json` prints one line.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '../src/client.js';
import { runJavaLatencyProbe } from './clients/java-latency.js';
import { runJsonChild } from './clients/json-child.js';
import type { BenchContext } from './clients/peers.js';
import {
  type LatencyRound,
  type LatencySummary,
  latencyChart,
  latencyJson,
  latencyMarkdown,
  latencyNoteRow,
  latencyRound,
  latencyTable,
  summariseLatency,
} from './latency-report.js';
import type { BenchOutcome } from './produce.js';
import { alternateRounds, prepareSession, selectClients } from './produce-rounds.js';
import { createFreshTopic, deleteTopicQuietly } from './produce-topics.js';

export const LATENCY_DEFAULTS = { rate: 20_000, seconds: 60, warmupSeconds: 1, valueBytes: 100, partitions: 8 };

export interface LatencyBenchOptions {
  bootstrap: string;
  kafkaVersion: string;
  toolsVersion: string;
  rate?: number;
  seconds?: number;
  rounds: number;
  clients?: string;
  build: boolean;
  rebuild: boolean;
  log: (line: string) => void;
}

/** One round's arguments, in the order every latency child takes them. */
interface LatencyJob {
  topic: string;
  rate: number;
  seconds: number;
  samplesFile: string;
}

interface LatencyClient {
  id: string;
  name: string;
  settings: string;
  run(ctx: BenchContext, args: string[], timeoutMs: number): Promise<Record<string, unknown>>;
}

const script = (name: string) => fileURLToPath(new URL(`./clients/${name}`, import.meta.url));

const LATENCY_CLIENTS: readonly LatencyClient[] = [
  {
    id: 'tidemark',
    name: 'tidemark',
    settings:
      '- **tidemark**: bench/clients/tidemark-latency.ts; producer defaults (acks all, idempotent, linger 5 ms, batch 16 KiB), one `send(record, callback)` per record, as the Java client’s probe sends; consumer with every partition assigned (no group), earliest, CRC on, its default fetch settings.',
    run: (ctx, args, timeoutMs) => runJsonChild(ctx.node, script('tidemark-latency.ts'), args, timeoutMs),
  },
  {
    id: 'kafkajs',
    name: 'kafkajs',
    settings:
      '- **kafkajs** 2.2.4: bench/clients/kafkajs-latency.ts; idempotent producer, acks -1; it has no linger and its idempotent producer runs one request per broker at a time, so one `send()` is in flight and the records due meanwhile go in the next; consumer in a fresh group, `fromBeginning`, `eachBatch`, default fetch settings; producing starts after the group join.',
    run: (ctx, args, timeoutMs) => runJsonChild(ctx.node, script('kafkajs-latency.ts'), args, timeoutMs),
  },
  {
    id: 'confluent',
    name: '@confluentinc/kafka-javascript',
    settings:
      '- **@confluentinc/kafka-javascript** (the librdkafka binding): bench/clients/confluent-latency.ts; native `Producer`, acks all, `enable.idempotence`, librdkafka’s defaults otherwise (linger.ms 5), one `produce()` per record, polled on librdkafka’s background thread; native `KafkaConsumer` in a fresh group, earliest, `consume(1000)` with the timeout on the first message only, defaults otherwise (fetch.wait.max.ms 500, fetch.min.bytes 1); producing starts at the partition assignment.',
    run: (ctx, args, timeoutMs) => runJsonChild(ctx.node, script('confluent-latency.ts'), args, timeoutMs),
  },
  {
    id: 'java',
    name: 'Kafka Java client',
    settings:
      '- **Kafka Java client** (kafka-clients of the broker’s release): bench/java/LatencyProbe.java; `KafkaProducer` with acks=all, enable.idempotence=true, defaults otherwise (linger.ms 5, batch.size 16 KiB); `KafkaConsumer` on its own thread with every partition assigned (no group), from the beginning, `poll(100 ms)`, defaults otherwise; send times from `Instant.now()`.',
    run: (ctx, args, timeoutMs) => runJavaLatencyProbe(ctx.toolsVersion, args, timeoutMs),
  },
];

export async function runLatencyBench(o: LatencyBenchOptions): Promise<BenchOutcome> {
  const loadAtStart = loadavg()[0];
  const rate = o.rate ?? LATENCY_DEFAULTS.rate;
  const seconds = o.seconds ?? LATENCY_DEFAULTS.seconds;
  const { warmupSeconds, valueBytes, partitions } = LATENCY_DEFAULTS;
  const total = Math.round(rate * seconds);
  const selected = selectClients(LATENCY_CLIENTS, o.clients);
  const { ctx, availability } = await prepareSession(o, selected);
  o.log(`\n== latency: ${rate.toLocaleString('en-US')} records/s for ${seconds} s ==`);
  const admin = new Client({ bootstrap: [o.bootstrap], clientId: 'tidemark-bench-latency-admin' });
  const runnable = selected.filter((c) => availability.get(c.id)?.available);
  let outcome: Awaited<ReturnType<typeof alternateRounds<LatencyClient, LatencyRound>>>;
  try {
    outcome = await alternateRounds(
      runnable,
      o.rounds,
      async (c, round) => {
        const job: LatencyJob = {
          topic: `tidemark-bench-latency-${c.id}-${round}-${Date.now()}`,
          rate,
          seconds,
          samplesFile: join(tmpdir(), `tidemark-bench-latency-${process.pid}-${c.id}-${round}.f64`),
        };
        await createFreshTopic(admin, job.topic, partitions);
        try {
          const args = [o.bootstrap, job.topic, String(rate), String(seconds), String(warmupSeconds)];
          args.push(String(valueBytes), job.samplesFile);
          const m = await c.run(ctx, args, (seconds + 180) * 1000);
          const r = latencyRound(await readSamples(job.samplesFile), {
            achievedRate: Number(m.achievedRate),
            cpuSeconds: Number(m.cpuSeconds),
            peakRssBytes: Number(m.peakRssBytes),
            records: Number(m.sent),
          });
          checkRound(m, total, r);
          o.log(
            `  p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, p99.9 ${r.p999Ms.toFixed(2)} ms, ${Math.round(r.achievedRate).toLocaleString('en-US')} records/s sent`,
          );
          return r;
        } finally {
          await rm(job.samplesFile, { force: true });
          await deleteTopicQuietly(admin, job.topic);
        }
      },
      o.log,
    );
  } finally {
    await admin.close();
  }
  const rows: LatencySummary[] = selected.map((c) => {
    const a = availability.get(c.id);
    if (a === undefined || !a.available) return latencyNoteRow(c.name, '', `not available: ${a?.reason}`);
    const failure = outcome.failures.get(c.id);
    if (failure !== undefined) return latencyNoteRow(c.name, a.runtime, `FAILED: ${failure}`);
    return summariseLatency(c.name, a.runtime, outcome.results.get(c.id) ?? []);
  });
  const title = `Produce → consume latency at ${rate.toLocaleString('en-US')} records/s`;
  const md = latencyMarkdown(rows, {
    rate,
    seconds,
    warmupSeconds,
    valueBytes,
    partitions,
    rounds: o.rounds,
    kafkaVersion: o.kafkaVersion,
    loadAtStart,
    loadAtEnd: loadavg()[0],
    settings: selected.map((c) => c.settings),
  });
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/latency.md', import.meta.url), md);
  await writeFile(new URL('./results/latency.svg', import.meta.url), latencyChart(title, rows));
  o.log('wrote bench/results/latency.md and latency.svg');
  return {
    failed: outcome.failures.size > 0,
    tables: `latency: ${rate.toLocaleString('en-US')} records/s for ${seconds} s\n${latencyTable(rows)}\n`,
    json: [latencyJson(rate, seconds, rows)],
  };
}

async function readSamples(file: string): Promise<Float64Array> {
  const bytes = await readFile(file);
  const out = new Float64Array(bytes.length / 8);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readDoubleLE(i * 8);
  return out;
}

/** A round counts only if every record was sent, came back exactly once, and some were sampled. */
function checkRound(m: Record<string, unknown>, total: number, r: LatencyRound): void {
  const problems: string[] = [];
  if (Number(m.sent) !== total) problems.push(`sent ${m.sent} of ${total} records`);
  if (Number(m.missing) !== 0) problems.push(`${m.missing} records never consumed`);
  if (Number(m.duplicates) !== 0) problems.push(`${m.duplicates} records consumed twice`);
  if (Number(m.strangers) !== 0) problems.push(`${m.strangers} records not of this run`);
  if (r.samples === 0 || r.samples !== Number(m.sampled)) problems.push(`${r.samples} samples (child: ${m.sampled})`);
  if (problems.length > 0) throw new Error(problems.join('; '));
}
