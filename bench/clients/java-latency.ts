/**
 * Runs the latency benchmark's Java client (bench/java/LatencyProbe.java, Kafka's own producer and consumer
 * in one JVM, compiled once against the broker release's kafka-clients) and returns its result line; CPU and
 * peak RSS from GNU time over the whole JVM.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kafkaClasspath } from '../../test/harness/classpath.js';
import { javaBinary } from '../../test/harness/java.js';
import { compileJava } from '../../test/harness/java-program.js';
import { tidemarkDir } from '../../test/harness/paths.js';
import { GNU_TIME_FORMAT, parseGnuTime, runProcess } from './process.js';

const SOURCE = fileURLToPath(new URL('../java/LatencyProbe.java', import.meta.url));

export async function runJavaLatencyProbe(
  toolsVersion: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const program = await compileJava({
    cacheDir: path.join(tidemarkDir, 'bench-java'),
    sources: [SOURCE],
    classpath: await kafkaClasspath(toolsVersion),
    what: 'the latency probe (bench/java/LatencyProbe.java)',
  });
  const javaArgs = ['-Xmx1g', '-cp', program.runClasspath, 'LatencyProbe', ...args];
  const timed = existsSync('/usr/bin/time');
  const cmd = timed ? '/usr/bin/time' : javaBinary();
  const argv = timed ? ['-f', GNU_TIME_FORMAT, javaBinary(), ...javaArgs] : javaArgs;
  const { stdout, stderr, code } = await runProcess(cmd, argv, { timeoutMs });
  const last = stdout.trim().split('\n').pop() ?? '';
  if (code !== 0 || !last.startsWith('{'))
    throw new Error(`LatencyProbe exited ${code}: ${stderr.slice(-800)}${stdout.slice(-300)}`);
  const { cpuSeconds, peakRssBytes } = parseGnuTime(stderr);
  return { ...(JSON.parse(last) as Record<string, unknown>), cpuSeconds, peakRssBytes };
}
