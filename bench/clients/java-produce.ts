/**
 * Kafka's own Java producer for the produce benchmark, through kafka-tools' ProducerPerformance with the
 * batching of bench/produce-settings.ts. Its rate is the final total line (first send to close(), which waits
 * for every acknowledgement), comparable with the Node children's window; CPU and peak RSS come from GNU time
 * over the whole JVM, start-up and JIT included.
 */
import { existsSync } from 'node:fs';
import { kafkaClasspath } from '../../test/harness/classpath.js';
import { javaBinary } from '../../test/harness/java.js';
import { KAFKA_BATCHING, type ProduceCompression } from '../produce-settings.js';
import { GNU_TIME_FORMAT, parseGnuTime, runProcess } from './process.js';
import type { ClientResult } from './result.js';

/** ProducerPerformance's last line: "N records sent, R records/sec (M MB/sec), …". */
export function parseProducerPerformance(stdout: string): { records: number; recordsPerSec: number } | undefined {
  const lines = stdout.trim().split('\n');
  const m = /^(\d+) records sent, ([\d.]+) records\/sec/.exec(lines[lines.length - 1] ?? '');
  return m === null ? undefined : { records: Number(m[1]), recordsPerSec: Number(m[2]) };
}

export async function runJavaProducerPerformance(
  bootstrap: string,
  topic: string,
  records: number,
  valueBytes: number,
  compression: ProduceCompression,
  toolsVersion: string,
): Promise<ClientResult> {
  const classpath = await kafkaClasspath(toolsVersion);
  const props = [
    `bootstrap.servers=${bootstrap}`,
    'acks=all',
    'enable.idempotence=true',
    `compression.type=${compression}`,
    `linger.ms=${KAFKA_BATCHING.lingerMs}`,
    `batch.size=${KAFKA_BATCHING.batchBytes}`,
  ];
  const args = ['-Xmx1g', '-cp', classpath, 'org.apache.kafka.tools.ProducerPerformance', '--topic', topic];
  args.push('--num-records', String(records), '--record-size', String(valueBytes), '--throughput', '-1');
  args.push('--producer-props', ...props);
  const timed = existsSync('/usr/bin/time');
  const cmd = timed ? '/usr/bin/time' : javaBinary();
  const argv = timed ? ['-f', GNU_TIME_FORMAT, javaBinary(), ...args] : args;
  const { stdout, stderr, code } = await runProcess(cmd, argv, { timeoutMs: 15 * 60_000 });
  const total = parseProducerPerformance(stdout);
  if (code !== 0 || total === undefined)
    throw new Error(`ProducerPerformance exited ${code}: ${stderr.slice(-500)}${stdout.slice(-300)}`);
  return {
    records: total.records,
    bytes: total.records * valueBytes,
    seconds: total.records / total.recordsPerSec,
    ...parseGnuTime(stderr),
    runtime: 'java',
  };
}
