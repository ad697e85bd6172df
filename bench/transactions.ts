/**
 * `npm run bench -- --transactions`: transactional produce throughput, tidemark beside Kafka's own Java
 * producer (kafka-tools ProducerPerformance with `--transactional-id` / `--transaction-duration-ms`), committing
 * every 100 and every 1,000 records. Written to bench/results/transactions.md.
 *
 * tidemark commits by record count: begin, send T records (fire and forget, paced by backpressure), commit.
 * ProducerPerformance commits by time, so each Java round gets the duration at which Java's rate of its
 * previous round (tidemark's, in the first) makes T records; the table reports the records per transaction
 * Java reached (its rate × duration).
 */
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { Client } from '../src/client.js';
import { kafkaClasspath } from '../test/harness/classpath.js';
import { javaBinary } from '../test/harness/java.js';
import { median } from './report.js';

export interface TransactionsBenchOptions {
  bootstrap: string;
  kafkaVersion: string;
  /** kafka-tools version for ProducerPerformance. */
  toolsVersion: string;
  records: number;
  rounds: number;
  java: boolean;
  log: (line: string) => void;
}

const VALUE_BYTES = 100;
const PARTITIONS = 8;
const PER_TRANSACTION = [100, 1_000] as const;

const values = Array.from({ length: 4096 }, () => {
  const b = Buffer.allocUnsafe(VALUE_BYTES);
  for (let i = 0; i < VALUE_BYTES; i++) b[i] = 65 + Math.floor(Math.random() * 26);
  return b;
});

interface Round {
  recordsPerSec: number;
  /** Records per committed transaction (Java: its rate × the duration it was given). */
  perTransaction: number;
  /** tidemark: whether the epoch grew with each commit, i.e. the producer ran Transactions v2 (KIP-890). */
  transactionV2?: boolean;
}

async function runTidemark(client: Client, topic: string, records: number, perTransaction: number): Promise<Round> {
  const producer = client.producer({ transactionalId: `${topic}-tidemark`, lingerMs: 5 });
  try {
    await producer.initTransactions();
    const firstEpoch = producer.producerIdAndEpoch?.epoch;
    let failed: unknown;
    const t0 = process.hrtime.bigint();
    for (let sent = 0; sent < records; ) {
      producer.beginTransaction();
      const end = Math.min(records, sent + perTransaction);
      for (; sent < end; sent++) {
        if (producer.backpressure) await producer.waitForCapacity();
        producer.send({ topic, value: values[sent & 4095] }).catch((err: unknown) => {
          failed ??= err;
        });
      }
      await producer.commitTransaction();
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (failed !== undefined) throw failed;
    const transactionV2 = producer.producerIdAndEpoch?.epoch !== firstEpoch;
    return { recordsPerSec: records / seconds, perTransaction, transactionV2 };
  } finally {
    await producer.close();
  }
}

async function runJava(o: TransactionsBenchOptions, topic: string, durationMs: number): Promise<Round> {
  const classpath = await kafkaClasspath(o.toolsVersion);
  const props = [`bootstrap.servers=${o.bootstrap}`, 'acks=all', 'linger.ms=5'];
  const args = ['-Xmx1g', '-cp', classpath, 'org.apache.kafka.tools.ProducerPerformance', '--topic', topic];
  args.push('--num-records', String(o.records), '--record-size', String(VALUE_BYTES), '--throughput', '-1');
  args.push('--transactional-id', `${topic}-java`, '--transaction-duration-ms', String(durationMs));
  args.push('--producer-props', ...props);
  const { stdout, stderr, code } = await run(javaBinary(), args);
  // The final summary: "N records sent, R records/sec (M MB/sec), ..."
  const lines = stdout.trim().split('\n');
  const m = /(\d+) records sent, ([\d.]+) records\/sec/.exec(lines[lines.length - 1] ?? '');
  if (code !== 0 || m === null)
    throw new Error(`ProducerPerformance failed (${code}): ${stderr.slice(-500)}${stdout.slice(-500)}`);
  const rate = Number(m[2]);
  return { recordsPerSec: rate, perTransaction: (rate * durationMs) / 1000 };
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

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

/** One client's medians at one transaction size. */
interface SizePoint {
  perTransaction: number;
  recordsPerSec: number;
}

/**
 * Java commits by time, so its transactions are not exactly the target size, and a rate at 174 records per
 * transaction cannot be set beside one at 100. Each client's time per transaction is fitted as a fixed cost
 * plus a cost per record through its two sizes, t(n) = overhead + n × perRecord; the rates at exactly 100 and
 * 1,000 records per transaction follow from that.
 */
function fitRow(name: string, points: readonly SizePoint[]): string {
  const [small, large] = [...points].sort((a, b) => a.perTransaction - b.perTransaction);
  if (small === undefined || large === undefined || large.perTransaction === small.perTransaction) return '';
  const t = (p: SizePoint) => p.perTransaction / p.recordsPerSec;
  const perRecord = (t(large) - t(small)) / (large.perTransaction - small.perTransaction);
  const overhead = t(small) - small.perTransaction * perRecord;
  if (overhead <= 0 || perRecord <= 0) return `| ${name} | not separable in this run (noise) | | | |`;
  const rateAt = (n: number) => n / (overhead + n * perRecord);
  return `| ${name} | ${fmt(overhead * 1000, 1)} | ${fmt(perRecord * 1e6, 1)} | ${fmt(rateAt(100))} | ${fmt(rateAt(1000))} |`;
}

/** Runs every case for `rounds` rounds; returns the markdown for bench/results/transactions.md. */
export async function runTransactionsBench(o: TransactionsBenchOptions): Promise<string> {
  const loadBefore = loadavg()[0];
  const client = new Client({ bootstrap: [o.bootstrap], clientId: 'tidemark-bench-transactions' });
  const rows: string[] = [];
  const points: Record<'tidemark' | 'java', SizePoint[]> = { tidemark: [], java: [] };
  let transactionV2: boolean | undefined;
  try {
    for (const perTransaction of PER_TRANSACTION) {
      const results: Record<'tidemark' | 'java', Round[]> = { tidemark: [], java: [] };
      /** Java's rate in its last round, to aim its next duration at the target count (tidemark's at first). */
      let javaRate: number | undefined;
      for (let round = 1; round <= o.rounds; round++) {
        const topic = `bench-txn-${Date.now()}-${perTransaction}`;
        await client.admin.createTopics([{ name: topic, numPartitions: PARTITIONS, replicationFactor: 1 }]);
        const t = await runTidemark(client, topic, o.records, perTransaction);
        results.tidemark.push(t);
        o.log(`${perTransaction} per transaction, round ${round} tidemark: ${fmt(t.recordsPerSec)} records/s`);
        if (o.java) {
          const durationMs = Math.max(1, Math.round((perTransaction * 1000) / (javaRate ?? t.recordsPerSec)));
          const j = await runJava(o, topic, durationMs);
          javaRate = j.recordsPerSec;
          results.java.push(j);
          o.log(
            `${perTransaction} per transaction, round ${round} java (${durationMs} ms): ${fmt(j.recordsPerSec)} records/s, ~${fmt(j.perTransaction)} per transaction`,
          );
        }
        await client.admin.deleteTopics([topic]).catch(() => {});
      }
      transactionV2 ??= results.tidemark[0]?.transactionV2;
      for (const [who, rs] of Object.entries(results) as ['tidemark' | 'java', Round[]][]) {
        if (rs.length === 0) continue;
        const rates = rs.map((r) => r.recordsPerSec);
        points[who].push({ perTransaction: median(rs.map((r) => r.perTransaction)), recordsPerSec: median(rates) });
        const name = who === 'tidemark' ? 'tidemark' : 'Kafka Java producer (ProducerPerformance)';
        rows.push(
          `| ${fmt(perTransaction)} | ${name} | ${fmt(median(rs.map((r) => r.perTransaction)))} | ${fmt(median(rates))} | ${fmt(Math.min(...rates))}–${fmt(Math.max(...rates))} |`,
        );
      }
    }
  } finally {
    await client.close();
  }
  return [
    '# Transactional produce throughput',
    '',
    `Workload: ${fmt(o.records)} records per round, ${VALUE_BYTES}-byte values of random letters, no keys, ${PARTITIONS} partitions, replication factor 1; Kafka ${o.kafkaVersion} on loopback; ${o.rounds} rounds, medians. acks all, idempotent, linger 5 ms, batch size 16 KiB on both sides. Machine: ${process.arch}, ${cpus().length} cores shared with the broker, load average ${loadBefore.toFixed(1)} at the start and ${loadavg()[0].toFixed(1)} at the end; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`,
    '',
    `Transaction protocol: ${transactionV2 === undefined ? 'unknown' : transactionV2 ? 'Transactions v2 (KIP-890; the epoch grew with every commit)' : 'classic (KIP-98)'}.`,
    '',
    '| target records per transaction | client | records per transaction (median) | records/s (median) | spread (min–max) |',
    '| ---: | --- | ---: | ---: | ---: |',
    ...rows,
    '',
    'Per-transaction cost, fitted through each client’s two sizes (t = overhead + records × per record), and the rates that follow at exactly 100 and 1,000 records per transaction:',
    '',
    '| client | overhead per transaction (ms) | per record (µs) | records/s at 100 per transaction | records/s at 1,000 per transaction |',
    '| --- | ---: | ---: | ---: | ---: |',
    fitRow('tidemark', points.tidemark),
    ...(points.java.length > 0 ? [fitRow('Kafka Java producer (ProducerPerformance)', points.java)] : []),
    '',
    'tidemark: one Node process; each transaction is beginTransaction(), its records sent fire-and-forget (paced by `backpressure`), commitTransaction() (which waits for every record, then EndTxn); timed from initTransactions() done to the last commit. Java: ProducerPerformance, a fresh JVM per round, commits by time (`--transaction-duration-ms`), given the duration at which its previous round’s rate (the first time: tidemark’s) makes the target count; its records/s is the whole run (transactions are too short for a steady-state split). The broker shares the two cores with both clients: the numbers are relative, not absolute.',
    '',
  ].join('\n');
}
