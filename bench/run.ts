/**
 * `npm run bench`: fetch throughput against a real broker. Starts the
 * embedded broker (or uses KAFKA_BOOTSTRAP), loads the workload once, then
 * runs each client over the same records from offset 0 in alternating
 * rounds and reports medians. Options: --records N, --rounds N, --json.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Client } from '../src/client.js';
import { benchBroker } from './broker.js';
import { runJavaConsumerPerformance } from './clients/java-consumer-perf.js';
import type { ClientResult } from './clients/result.js';
import { runTidemark } from './clients/tidemark.js';
import { loadRecords, type Workload } from './load.js';
import { markdownTable, summarise, svgChart } from './report.js';

const { values: opts } = parseArgs({
  options: {
    records: { type: 'string', default: '2000000' },
    rounds: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
    'no-java': { type: 'boolean', default: false },
  },
});
const log = (line: string) => process.stderr.write(`${line}\n`);

const workload: Workload = {
  topic: `bench-${Date.now()}`,
  partitions: 8,
  records: Number(opts.records),
  keyBytes: 8,
  valueBytes: 100,
};
const rounds = Number(opts.rounds);
if (!Number.isInteger(workload.records) || workload.records < 1 || !Number.isInteger(rounds) || rounds < 1) {
  log('usage: npm run bench -- [--records N] [--rounds N] [--json] [--no-java]');
  process.exit(2);
}

const broker = await benchBroker(log);
try {
  const client = new Client({ bootstrap: [broker.bootstrap], clientId: 'tidemark-bench-loader' });
  await client.admin.createTopics([{ name: workload.topic, numPartitions: workload.partitions, replicationFactor: 1 }]);
  const started = Date.now();
  let shown = 0;
  await loadRecords(client, workload, (done) => {
    if (done - shown >= workload.records / 10 || done === workload.records) {
      shown = done;
      log(`  loaded ${done.toLocaleString('en-US')} / ${workload.records.toLocaleString('en-US')} records`);
    }
  });
  log(`loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await client.close();

  const expectedChecksum = checksumOf(workload.records);
  const results = new Map<string, ClientResult[]>([['tidemark', []]]);
  if (!opts['no-java']) results.set('Kafka Java consumer', []);
  for (let round = 1; round <= rounds; round++) {
    for (const name of results.keys()) {
      log(`round ${round}/${rounds}: ${name}…`);
      const r =
        name === 'tidemark'
          ? await runTidemark(broker.bootstrap, workload.topic, workload.records)
          : await runJavaConsumerPerformance(broker.bootstrap, workload.topic, workload.records, broker.toolsVersion);
      if (r.records !== workload.records) throw new Error(`${name} read ${r.records} records, not ${workload.records}`);
      if (r.checksum !== undefined && r.checksum !== expectedChecksum)
        throw new Error(`${name}: value checksum mismatch`);
      log(`  ${Math.round(r.records / r.seconds).toLocaleString('en-US')} records/s`);
      results.get(name)?.push(r);
    }
  }

  const rows = [...results].map(([name, rs]) => summarise(name, rs));
  const title = `${workload.records.toLocaleString('en-US')} records, ${workload.valueBytes}-byte values, ${workload.keyBytes}-byte keys, ${workload.partitions} partitions`;
  const md = [
    '# Fetch throughput',
    '',
    `Workload: ${title}; Kafka ${broker.kafkaVersion} on loopback; ${rounds} alternating rounds, medians. tidemark checks CRC-32C of every batch and verifies a checksum over all values. Machine: ${process.arch}, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`,
    '',
    markdownTable(rows),
    '',
    'tidemark: Fetch requests driven directly (the consumer with pipelined fetch sessions is the fetch-loop issue), one request in flight, CPU measured from the first fetch. Java: kafka-tools ConsumerPerformance, `fetch.nMsg.sec` basis; its CPU and RSS cover the whole JVM including start-up.',
    '',
    '![chart](fetch.svg)',
    '',
  ].join('\n');
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/fetch.md', import.meta.url), md);
  await writeFile(new URL('./results/fetch.svg', import.meta.url), svgChart(`Fetch throughput: ${title}`, rows));
  process.stdout.write(`${markdownTable(rows)}\n`);
  if (opts.json) {
    const clients = Object.fromEntries(
      rows.map((r) => [
        r.name,
        {
          recordsPerSec: Math.round(r.recordsPerSec),
          mbPerSec: Number(r.mbPerSec.toFixed(2)),
          cpuSecPerMillion: Number(r.cpuSecPerMillion.toFixed(3)),
          node: r.runtime,
        },
      ]),
    );
    process.stdout.write(`${JSON.stringify({ workload: title, clients })}\n`);
  }
} finally {
  await broker.stop();
}

function checksumOf(n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum = (sum + i) >>> 0;
  return sum;
}
