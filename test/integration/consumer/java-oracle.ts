/**
 * Drives Kafka's own Java clients (ConsumerOracle.java) for the consumer tests: the Java consumer runs the same
 * scripted scenarios as tidemark's, and the transactional producer writes committed and aborted transactions.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { kafkaClasspath } from '../../harness/classpath.js';
import { writeClasspathArgFile } from '../../harness/java.js';
import { tidemarkDir } from '../../harness/paths.js';

const run = promisify(execFile);
const SOURCE = fileURLToPath(new URL('./java/ConsumerOracle.java', import.meta.url));
/** The Java clients used as the oracle; they speak to 3.9 and 4.x brokers alike. */
const CLIENT_KAFKA_VERSION = '4.4.0';
const JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xmx256m'];

async function compiled(): Promise<{ classes: string; classpath: string }> {
  const classpath = await kafkaClasspath(CLIENT_KAFKA_VERSION);
  const source = await readFile(SOURCE);
  const hash = createHash('sha256').update(source).update(classpath).digest('hex').slice(0, 12);
  const classes = path.join(tidemarkDir, 'consumer-java', hash);
  if (!existsSync(path.join(classes, 'dev', 'tidemark', 'consumer', 'ConsumerOracle.class'))) {
    const tmp = `${classes}.${process.pid}.tmp`;
    await rm(tmp, { recursive: true, force: true });
    await mkdir(tmp, { recursive: true });
    const cpArg = await writeClasspathArgFile(`${tmp}.classpath`, classpath);
    try {
      await run('javac', ['-nowarn', cpArg, '-d', tmp, SOURCE], { maxBuffer: 1 << 24 });
    } catch (err) {
      throw new Error(`javac failed for ${SOURCE}:\n${(err as { stderr?: string }).stderr ?? err}`);
    } finally {
      await rm(`${tmp}.classpath`, { force: true });
    }
    await rm(classes, { recursive: true, force: true });
    await rename(tmp, classes);
  }
  return { classes, classpath };
}

/** One step of a scenario, as both clients run it. */
export type Step =
  | { op: 'assign' | 'seekToBeginning' | 'seekToEnd' | 'pause' | 'resume' | 'committed'; partitions: number[] }
  | { op: 'seek'; partition: number; offset: number }
  | { op: 'position'; partition: number }
  | { op: 'read'; count: number }
  | { op: 'paused' | 'commit' }
  | { op: 'commitOffsets'; offsets: { partition: number; offset: number }[] };

/** What a step saw: null for steps that only act. */
export interface Observation {
  op: string;
  result: unknown;
}

export class JavaOracle {
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private nextId = 1;
  private stderr = '';

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stderr.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-8000);
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('@@ ')) return;
      const answer = JSON.parse(line.slice(3)) as { id: number; result?: unknown; error?: string };
      const p = this.pending.get(answer.id);
      if (p === undefined) return;
      this.pending.delete(answer.id);
      if (answer.error !== undefined) p.reject(new Error(`Java: ${answer.error}`));
      else p.resolve(answer.result);
    });
    child.on('exit', (code) => {
      for (const p of this.pending.values()) p.reject(new Error(`Java oracle exited (${code}):\n${this.stderr}`));
      this.pending.clear();
    });
  }

  static async start(): Promise<JavaOracle> {
    const { classes, classpath } = await compiled();
    const child = spawn(
      'java',
      [...JVM_FLAGS, '-cp', [classes, classpath].join(path.delimiter), 'dev.tidemark.consumer.ConsumerOracle'],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const oracle = new JavaOracle(child);
    await oracle.call('version', {});
    return oracle;
  }

  call<T = unknown>(op: string, args: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.stdin.write(`${JSON.stringify({ id, op, ...args })}\n`);
    });
  }

  /** Runs `steps` on a Java KafkaConsumer in `group` (manual assignment, max.poll.records 1). */
  scenario(bootstrap: string, topic: string, group: string, steps: Step[]): Promise<Observation[]> {
    return this.call('scenario', { bootstrap, topic, group, steps });
  }

  /** Writes each transaction with Kafka's transactional producer, committing or aborting it. */
  produceTransactions(
    bootstrap: string,
    topic: string,
    transactionalId: string,
    transactions: { values: string[]; abort?: boolean }[],
  ): Promise<void> {
    return this.call('produceTransactions', { bootstrap, topic, transactionalId, transactions });
  }

  /** The values a Java consumer with `isolation` reads from partition 0, start to end. */
  consumeValues(bootstrap: string, topic: string, isolation: 'read_committed' | 'read_uncommitted'): Promise<string[]> {
    return this.call('consumeValues', { bootstrap, topic, isolation });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
}
