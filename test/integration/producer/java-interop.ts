/**
 * Runs ProducerInterop.java (Kafka's own Java producer and consumer) against a broker: compiled once with javac
 * against the harness's Kafka classpath and cached under .tidemark/producer-interop/, keyed by the source and
 * the classpath.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kafkaClasspath } from '../../harness/classpath.js';
import { javaBinary } from '../../harness/java.js';
import { tidemarkDir } from '../../harness/paths.js';
import { DEFAULT_KAFKA_VERSION } from '../../harness/versions.js';

const source = fileURLToPath(new URL('./java/ProducerInterop.java', import.meta.url));

function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

let prepared: Promise<{ classpath: string }> | undefined;

/** Compiles the program (once per source and classpath) and returns the classpath to run it with. */
function prepare(): Promise<{ classpath: string }> {
  prepared ??= (async () => {
    // The client jars of the newest Kafka speak to both brokers; the test records need nothing newer.
    const kafka = await kafkaClasspath(DEFAULT_KAFKA_VERSION);
    const hash = createHash('sha256')
      .update(await readFile(source))
      .update(kafka)
      .digest('hex')
      .slice(0, 16);
    const dir = path.join(tidemarkDir, 'producer-interop', hash);
    if (!existsSync(path.join(dir, 'ProducerInterop.class'))) {
      const tmp = `${dir}.${process.pid}.tmp`;
      await rm(tmp, { recursive: true, force: true });
      await mkdir(tmp, { recursive: true });
      const javac = await run('javac', ['-nowarn', '-cp', kafka, '-d', tmp, source]);
      if (javac.code !== 0) throw new Error(`javac ProducerInterop.java failed:\n${javac.stderr}`);
      await mkdir(path.dirname(dir), { recursive: true });
      await rename(tmp, dir).catch(async () => rm(tmp, { recursive: true, force: true }));
    }
    return { classpath: `${dir}${path.delimiter}${kafka}` };
  })();
  return prepared;
}

/** Runs one mode of ProducerInterop and returns its JSON lines, parsed. */
export async function javaInterop<T = Record<string, unknown>>(args: string[]): Promise<T[]> {
  const { classpath } = await prepare();
  const { code, stdout, stderr } = await run(javaBinary(), [
    '-Xmx256m',
    '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
    '-cp',
    classpath,
    'ProducerInterop',
    ...args,
  ]);
  if (code !== 0) throw new Error(`ProducerInterop ${args[0]} exited ${code}:\n${stderr.slice(-3000)}`);
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as T);
}
