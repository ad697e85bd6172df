/**
 * `npx tsx bench/produce.ts`: produce throughput against a real broker (KAFKA_BOOTSTRAP, or the embedded one).
 * For each configuration (acks 1 and all, each compression codec this Node can write) every round produces the
 * same records, 100-byte values without keys, into a fresh topic: tidemark's producer, then Kafka's own Java
 * producer through kafka-tools' ProducerPerformance with the same settings. Reports medians and writes
 * bench/results/produce.md. Options: --records N, --rounds N, --partitions N, --no-java.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { zstdCompressionAvailable } from '../codecs/compression/index.js';
import { Client } from '../src/client.js';
import type { Acks } from '../src/producer/options.js';
import { kafkaClasspath } from '../test/harness/classpath.js';
import { javaBinary } from '../test/harness/java.js';
import { benchBroker } from './broker.js';
import { median } from './report.js';

const { values: opts } = parseArgs({
  options: {
    records: { type: 'string', default: '300000' },
    rounds: { type: 'string', default: '3' },
    partitions: { type: 'string', default: '8' },
    'no-java': { type: 'boolean', default: false },
  },
});
const log = (line: string) => process.stderr.write(`${line}\n`);
const records = Number(opts.records);
const rounds = Number(opts.rounds);
const partitions = Number(opts.partitions);
const VALUE_BYTES = 100;
/** Records sent before timing starts, by both clients: connections, metadata, producer id and the JIT settle. */
const warmup = Math.floor(records / 10);
const measured = records - warmup;

type Codec = 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';
const codecs: Codec[] = ['none', 'gzip', 'snappy', 'lz4', ...(zstdCompressionAvailable ? (['zstd'] as const) : [])];
const configs: { acks: Acks; compression: Codec }[] = [];
for (const acks of [1, 'all'] as const) for (const compression of codecs) configs.push({ acks, compression });

/** Like ProducerPerformance's payload: random upper-case letters, so compression has real work to do. */
const values = Array.from({ length: 4096 }, () => {
  const b = Buffer.allocUnsafe(VALUE_BYTES);
  for (let i = 0; i < VALUE_BYTES; i++) b[i] = 65 + Math.floor(Math.random() * 26);
  return b;
});

interface Round {
  seconds: number;
  cpuSeconds: number;
}

async function runTidemark(client: Client, topic: string, acks: Acks, compression: Codec): Promise<Round> {
  const producer = client.producer({ acks, compression });
  await Promise.all(Array.from({ length: warmup }, (_, i) => producer.send({ topic, value: values[i & 4095] })));
  let failed: unknown;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < measured; i++) {
    // Fire and forget, as a throughput client does; the buffer's backpressure paces the loop.
    if (producer.backpressure) await producer.waitForCapacity();
    producer.send({ topic, value: values[i & 4095] }).catch((err: unknown) => {
      failed ??= err;
    });
  }
  await producer.flush();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  await producer.close();
  if (failed !== undefined) throw failed;
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

async function runJava(
  bootstrap: string,
  topic: string,
  acks: Acks,
  compression: Codec,
  version: string,
): Promise<Round> {
  const classpath = await kafkaClasspath(version);
  const props = [`bootstrap.servers=${bootstrap}`, `acks=${acks}`, `compression.type=${compression}`, 'linger.ms=5'];
  const args = ['-Xmx1g', '-cp', classpath, 'org.apache.kafka.tools.ProducerPerformance', '--topic', topic];
  args.push('--num-records', String(records), '--warmup-records', String(warmup));
  args.push('--record-size', String(VALUE_BYTES), '--throughput', '-1');
  args.push('--producer-props', ...props);
  const { stdout, code, stderr } = await run(javaBinary(), args);
  // The steady-state summary (after the warm-up): "N steady state records sent, R records/sec (M MB/sec), ..."
  const m = /(\d+) steady state records sent, ([\d.]+) records\/sec/.exec(stdout);
  if (code !== 0 || m === null)
    throw new Error(`ProducerPerformance failed (${code}): ${stderr.slice(-500)}${stdout.slice(-500)}`);
  return { seconds: Number(m[1]) / Number(m[2]), cpuSeconds: Number.NaN };
}

function run(cmd: string, args: string[]): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
  });
}

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits }) : 'n/a';

if (![records, rounds, partitions].every((n) => Number.isInteger(n) && n > 0)) {
  log('usage: npx tsx bench/produce.ts [--records N] [--rounds N] [--partitions N] [--no-java]');
  process.exit(2);
}
const broker = await benchBroker(log);
const rows: string[] = [];
const loadBefore = loadavg()[0];
try {
  const client = new Client({ bootstrap: [broker.bootstrap], clientId: 'tidemark-bench-producer' });
  for (const { acks, compression } of configs) {
    const results: Record<string, Round[]> = { tidemark: [], java: [] };
    for (let round = 1; round <= rounds; round++) {
      for (const who of opts['no-java'] ? ['tidemark'] : ['tidemark', 'java']) {
        const topic = `bench-produce-${Date.now()}-${who}`;
        await client.admin.createTopics([{ name: topic, numPartitions: partitions, replicationFactor: 1 }]);
        const r =
          who === 'tidemark'
            ? await runTidemark(client, topic, acks, compression)
            : await runJava(broker.bootstrap, topic, acks, compression, broker.toolsVersion);
        log(`acks=${acks} ${compression} round ${round} ${who}: ${fmt(measured / r.seconds)} records/s`);
        results[who].push(r);
        await client.admin.deleteTopics([topic]).catch(() => {});
      }
    }
    for (const [who, rs] of Object.entries(results)) {
      if (rs.length === 0) continue;
      const rates = rs.map((r) => measured / r.seconds);
      const rate = median(rates);
      const mb = (rate * VALUE_BYTES) / 1024 / 1024;
      const cpu = median(rs.map((r) => (r.cpuSeconds / measured) * 1e6));
      const name = who === 'tidemark' ? 'tidemark' : 'Kafka Java producer';
      rows.push(
        `| ${acks} | ${compression} | ${name} | ${fmt(rate)} | ${fmt(Math.min(...rates))}–${fmt(Math.max(...rates))} | ${fmt(mb, 1)} | ${fmt(cpu, 2)} |`,
      );
    }
  }
  await client.close();
} finally {
  await broker.stop();
}

const table = [
  '| acks | compression | client | records/s (median) | spread (min–max) | MB/s (values) | CPU s per 1M records |',
  '| --- | --- | --- | ---: | ---: | ---: | ---: |',
  ...rows,
].join('\n');
const md = [
  '# Produce throughput',
  '',
  `Workload: ${records.toLocaleString('en-US')} records per round (the first ${warmup.toLocaleString('en-US')} a warm-up, not timed), ${VALUE_BYTES}-byte values of random letters, no keys (sticky partitioning), ${partitions} partitions, replication factor 1; Kafka ${broker.kafkaVersion} on loopback; ${rounds} rounds, medians. Both producers use their defaults otherwise: idempotence on for acks all, off for acks 1 (as Java does), linger 5 ms, batch size 16 KiB, 5 requests in flight. Machine: ${process.arch}, ${cpus().length} cores shared with the broker, load average ${loadBefore.toFixed(1)} at the start and ${loadavg()[0].toFixed(1)} at the end; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`,
  '',
  table,
  '',
  'tidemark: one Node process for all rounds; fire-and-forget `send()` paced by `backpressure` / `waitForCapacity()`, timed from the first measured send to `flush()` resolving; CPU is the Node process over that time. Java: kafka-tools ProducerPerformance (`--throughput -1 --warmup-records`), a fresh JVM per round, its steady-state records/sec; its CPU is not measured. The broker runs on the same two cores as both clients, so the numbers are relative, not absolute.',
  '',
  zstdCompressionAvailable
    ? ''
    : `zstd is absent: this Node (${process.version}) has no zstd compressor in node:zlib.\n`,
].join('\n');
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
await writeFile(new URL('./results/produce.md', import.meta.url), md);
process.stdout.write(`${table}\n`);
