/**
 * Memory bound of the consumer: reads 1 GiB of records with a handler slower than the fetch loop, so fetched
 * data piles up against the consumer's byte budget (maxBufferedBytes), and reports each run's peak RSS.
 * Every run must stay under the documented limit (LIMIT below); the script exits non-zero otherwise.
 *
 *   npx tsx bench/memory.ts            (embedded broker, or KAFKA_BOOTSTRAP; writes bench/results/memory.md)
 *   options: --gib N (default 1), --topic NAME (reuse a loaded topic)
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '../src/client.js';
import { Consumer } from '../src/consumer/consumer.js';
import { benchBroker } from './broker.js';
import { childCommand } from './child-build.js';
import { loadRecords } from './load.js';

const VALUE_BYTES = 1024;
const PARTITIONS = 8;
const MIB = 1024 * 1024;
/** Budgets tried: the default (32 MiB), and one smaller and one larger to show RSS follows the budget. */
const BUDGETS = [8 * MIB, 32 * MIB, 128 * MIB];
/**
 * The documented bound: 192 MiB (set when the child ran through tsx, whose loader alone took ~100 MiB; compiled,
 * Node with the client loaded is ~62 MiB, and the rest is V8's young generation, the batch in hand and allocator
 * slack) plus 1.5 × the byte budget (a response frame is freed only once every record view into it is gone, and
 * the garbage collector frees such external memory late).
 */
const LIMIT = (budget: number) => 192 * MIB + 1.5 * budget;
/** The slow handler: a pause per MiB of records handled keeps it near 50 MiB/s, below what the broker serves. */
const HANDLER_PAUSE_MS = 20;

interface RunResult {
  budget: number;
  records: number;
  bytes: number;
  seconds: number;
  peakRssBytes: number;
  peakAccountedBytes: number;
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4], Number(process.argv[5]), Number(process.argv[6]));
} else {
  await main();
}

async function main(): Promise<void> {
  const { values: opts } = parseArgs({ options: { gib: { type: 'string', default: '1' }, topic: { type: 'string' } } });
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const records = Math.round((Number(opts.gib) * 1024 * MIB) / VALUE_BYTES);
  const broker = await benchBroker(log);
  try {
    let topic = opts.topic;
    if (topic === undefined) {
      topic = `memory-${Date.now()}`;
      const client = new Client({ bootstrap: [broker.bootstrap], clientId: 'tidemark-memory-loader' });
      await client.admin.createTopics([{ name: topic, numPartitions: PARTITIONS, replicationFactor: 1 }]);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      log(`loading ${records.toLocaleString('en-US')} records of ${VALUE_BYTES} bytes into ${topic}…`);
      let shown = 0;
      await loadRecords(
        client,
        { topic, partitions: PARTITIONS, records, keyBytes: 8, valueBytes: VALUE_BYTES },
        (n) => {
          if (n - shown >= records / 10) {
            shown = n;
            log(`  ${n.toLocaleString('en-US')}`);
          }
        },
      );
      await client.close();
    }
    const results: RunResult[] = [];
    for (const budget of BUDGETS) {
      log(`reading with maxBufferedBytes ${budget / MIB} MiB…`);
      const r = await runChild(broker.bootstrap, topic, records, budget);
      log(`  peak RSS ${(r.peakRssBytes / MIB).toFixed(0)} MiB (limit ${(LIMIT(budget) / MIB).toFixed(0)} MiB)`);
      results.push(r);
    }
    await writeReport(results, broker.kafkaVersion);
    const over = results.filter((r) => r.peakRssBytes > LIMIT(r.budget));
    if (over.length > 0) {
      log(`peak RSS over the documented limit for budgets ${over.map((r) => r.budget / MIB).join(', ')} MiB`);
      process.exitCode = 1;
    }
  } finally {
    await broker.stop();
  }
}

/** One measured run in a fresh Node process, so RSS is the consumer's own. */
async function runChild(bootstrap: string, topic: string, records: number, budget: number): Promise<RunResult> {
  const script = fileURLToPath(import.meta.url);
  const { cmd, args } = await childCommand(process.execPath, script, [
    '--child',
    bootstrap,
    topic,
    String(records),
    String(budget),
  ]);
  return new Promise((resolve, reject) => {
    const c = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d) => {
      out += d;
    });
    c.on('error', reject);
    c.on('close', (code) => {
      if (code !== 0) reject(new Error(`memory child exited ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}') as RunResult);
    });
  });
}

async function child(bootstrap: string, topic: string, expected: number, budget: number): Promise<void> {
  const client = new Client({ bootstrap: [bootstrap], clientId: 'tidemark-memory' });
  const md = await client.metadata({ topics: [topic] });
  const consumer = new Consumer(client, { autoOffsetReset: 'earliest', maxBufferedBytes: budget });
  consumer.assign(md.topics.get(topic)!.partitions.map((p) => ({ topic, partition: p.partition })));
  let peakAccounted = 0;
  const sampler = setInterval(() => {
    peakAccounted = Math.max(peakAccounted, consumer.metrics().bufferedBytes);
  }, 10);
  const started = process.hrtime.bigint();
  let records = 0;
  let bytes = 0;
  let sincePause = 0;
  for await (const batch of consumer) {
    for (const r of batch.records) sincePause += r.value?.length ?? 0;
    records += batch.records.length;
    if (sincePause >= MIB) {
      bytes += sincePause;
      sincePause = 0;
      await new Promise((resolve) => setTimeout(resolve, HANDLER_PAUSE_MS));
    }
    if (records >= expected) {
      batch.ack();
      break;
    }
  }
  bytes += sincePause;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(sampler);
  await consumer.close();
  await client.close();
  const result: RunResult = {
    budget,
    records,
    bytes,
    seconds,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    peakAccountedBytes: peakAccounted,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

async function writeReport(results: RunResult[], kafkaVersion: string): Promise<void> {
  const mib = (n: number) => (n / MIB).toFixed(0);
  const rows = results.map(
    (r) =>
      `| ${mib(r.budget)} MiB | ${mib(r.bytes)} MiB | ${r.records.toLocaleString('en-US')} | ${(r.bytes / MIB / r.seconds).toFixed(1)} | ${mib(r.peakAccountedBytes)} MiB | **${mib(r.peakRssBytes)} MiB** | ${mib(LIMIT(r.budget))} MiB |`,
  );
  const md = [
    '# Consumer memory bound',
    '',
    `\`npx tsx bench/memory.ts\`: ${PARTITIONS} partitions of ${VALUE_BYTES}-byte records, read from offset 0 by one consumer whose handler pauses ${HANDLER_PAUSE_MS} ms per MiB of records, so the fetch loop could run far ahead of it. Kafka ${kafkaVersion} on loopback; Node ${process.version}, ${process.arch}; ${new Date().toISOString().slice(0, 10)}.`,
    '',
    '| maxBufferedBytes | read | records | MiB/s | peak accounted (buffered + in flight + in hand) | peak RSS | documented limit |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    '**The limit.** Peak RSS stays under 192 MiB + 1.5 × maxBufferedBytes, whatever the size of the topic or the speed of the handler: with the default budget (32 MiB), 240 MiB. The consumer runs compiled (bench/child-build.ts): Node with the client loaded takes about 62 MiB; the rest is V8’s young generation, the batch in hand and allocator slack, and up to half the budget again because a response frame is freed only once every record view into it is gone and the garbage collector frees such external memory late.',
    '',
    "The budget bounds what the fetch loop holds: a fetch reserves its maximum response size before it is sent, and fetched bytes are released only when the application has finished the batch (asked for the next one), or when they are dropped (seek, pause, revoke). A broker may return one batch past a request's limit (KIP-74), so the accounted peak can exceed the budget by at most a record batch per fetch.",
    '',
  ].join('\n');
  const file = new URL('./results/memory.md', import.meta.url);
  // Sections headed `## ` are notes written by hand (measurements from other runs): a new run keeps them.
  const earlier = await readFile(file, 'utf8').catch(() => '');
  const notes = earlier.indexOf('\n## ');
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(file, notes < 0 ? md : `${md}${earlier.slice(notes + 1)}`);
  process.stdout.write(md);
}
