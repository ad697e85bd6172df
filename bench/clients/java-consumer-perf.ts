import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { kafkaClasspath } from '../../test/harness/classpath.js';
import { javaBinary } from '../../test/harness/java.js';
import type { ClientResult } from './result.js';

/**
 * Kafka's own Java consumer, through kafka-tools' ConsumerPerformance. Its
 * `fetch.nMsg.sec` column excludes the group join, so it is the rate
 * comparable with a fetch loop. CPU and peak RSS come from GNU time and
 * cover the whole JVM, start-up and JIT included.
 */
export async function runJavaConsumerPerformance(
  bootstrap: string,
  topic: string,
  records: number,
  kafkaVersion: string,
): Promise<ClientResult> {
  const classpath = await kafkaClasspath(kafkaVersion);
  const args = [
    '-Xmx1g',
    '-cp',
    classpath,
    'org.apache.kafka.tools.ConsumerPerformance',
    '--bootstrap-server',
    bootstrap,
    '--topic',
    topic,
    '--messages',
    String(records),
    '--timeout',
    '60000',
  ];
  const timed = existsSync('/usr/bin/time');
  const cmd = timed ? '/usr/bin/time' : javaBinary();
  const argv = timed ? ['-f', 'TIME %U %S %M', javaBinary(), ...args] : args;
  const { stdout, stderr, code } = await run(cmd, argv);
  if (code !== 0) throw new Error(`ConsumerPerformance exited ${code}: ${stderr.slice(-500)}`);
  const lines = stdout.trim().split('\n');
  const header = lines.findIndex((l) => l.startsWith('start.time'));
  if (header < 0 || header + 1 >= lines.length) throw new Error(`unexpected ConsumerPerformance output: ${stdout}`);
  const names = lines[header].split(',').map((s) => s.trim());
  const values = lines[header + 1].split(',').map((s) => s.trim());
  const col = (name: string) => Number(values[names.indexOf(name)]);
  const consumed = col('data.consumed.in.nMsg');
  const fetchMs = col('fetch.time.ms');
  const time = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
  return {
    records: consumed,
    bytes: col('data.consumed.in.MB') * 1024 * 1024,
    seconds: fetchMs / 1000,
    cpuSeconds: time === null ? Number.NaN : Number(time[1]) + Number(time[2]),
    peakRssBytes: time === null ? Number.NaN : Number(time[3]) * 1024,
    runtime: 'java',
  };
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
