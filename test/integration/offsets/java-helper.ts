/**
 * Drives Kafka's own Java clients (OffsetsHelper.java) for the offsets tests: the producer writes test data with
 * explicit timestamps, the consumer and AdminClient are the oracle tidemark's answers are compared with.
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
const SOURCE = fileURLToPath(new URL('./java/OffsetsHelper.java', import.meta.url));
/** The Java clients used as the oracle; they speak to 3.9 and 4.x brokers alike. */
const CLIENT_KAFKA_VERSION = '4.4.0';
const JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xmx256m'];

/** Compiles the helper once per source version; later runs reuse the classes. */
async function compiled(): Promise<{ classes: string; classpath: string }> {
  const classpath = await kafkaClasspath(CLIENT_KAFKA_VERSION);
  const source = await readFile(SOURCE);
  const hash = createHash('sha256').update(source).update(classpath).digest('hex').slice(0, 12);
  const classes = path.join(tidemarkDir, 'offsets-java', hash);
  if (!existsSync(path.join(classes, 'dev', 'tidemark', 'offsets', 'OffsetsHelper.class'))) {
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

export interface JavaCommitted {
  topic: string;
  partition: number;
  offset: string;
  leaderEpoch: number;
  metadata?: string;
}

export interface JavaMember {
  memberId: string;
  generationId: number;
  /** `topic-partition` strings, sorted. */
  assignment: string[];
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

export class JavaClients {
  private readonly pending = new Map<number, Pending>();
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
      for (const p of this.pending.values()) p.reject(new Error(`Java helper exited (${code}):\n${this.stderr}`));
      this.pending.clear();
    });
  }

  static async start(): Promise<JavaClients> {
    const { classes, classpath } = await compiled();
    const child = spawn(
      'java',
      [...JVM_FLAGS, '-cp', [classes, classpath].join(path.delimiter), 'dev.tidemark.offsets.OffsetsHelper'],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const helper = new JavaClients(child);
    await helper.call('version', {});
    return helper;
  }

  call<T = unknown>(op: string, args: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.stdin.write(`${JSON.stringify({ id, op, ...args })}\n`);
    });
  }

  /** Produces records; `timestamp` is the record's create time (ms). Resolves with where each landed. */
  produce(
    bootstrap: string,
    topic: string,
    records: { partition: number; timestamp?: number; value?: string }[],
  ): Promise<{ partition: number; offset: string; timestamp: string }[]> {
    return this.call('produce', { bootstrap, topic, records });
  }

  /** The Java consumer's offsetsForTimes, one partition at a time; null where no record is at or after. */
  offsetsForTimes(
    bootstrap: string,
    topic: string,
    queries: { partition: number; timestamp: number }[],
  ): Promise<({ offset: string; timestamp: string; leaderEpoch: number } | null)[]> {
    return this.call('offsetsForTimes', { bootstrap, topic, queries });
  }

  /** Admin.listConsumerGroupOffsets. */
  listGroupOffsets(bootstrap: string, group: string): Promise<JavaCommitted[]> {
    return this.call('listGroupOffsets', { bootstrap, group });
  }

  /** A Java consumer in `group` reads `count` records of `topic`, commits (metadata "java") and leaves. */
  consumeAndCommit(
    bootstrap: string,
    group: string,
    topic: string,
    count: number,
    options: { protocol?: 'classic' | 'consumer' } = {},
  ): Promise<JavaCommitted[]> {
    return this.call('consumeAndCommit', { bootstrap, group, topic, count, ...options });
  }

  /** Starts a Java consumer that stays in `group` (polling) until `leave`; resolves once it has partitions. */
  join(
    bootstrap: string,
    group: string,
    topic: string,
    member: string,
    options: { protocol?: 'classic' | 'consumer'; clientId?: string } = {},
  ): Promise<JavaMember> {
    return this.call('join', { bootstrap, group, topic, member, ...options });
  }

  /** The member's current id, generation (classic) or member epoch (KIP-848), and assignment. */
  memberInfo(member: string): Promise<JavaMember> {
    return this.call('memberInfo', { member });
  }

  leave(member: string): Promise<void> {
    return this.call('leave', { member });
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

/** One row of `kafka-consumer-groups --describe`. */
export interface DescribeRow {
  group: string;
  topic: string;
  partition: number;
  currentOffset: string;
  logEndOffset: string;
  lag: string;
  consumerId: string;
  host: string;
  clientId: string;
}

/** Runs Kafka's ConsumerGroupCommand (kafka-consumer-groups.sh) and returns its output. */
export async function consumerGroupCommand(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const classpath = await kafkaClasspath(CLIENT_KAFKA_VERSION);
  try {
    return await run(
      'java',
      [...JVM_FLAGS, '-cp', classpath, 'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand', ...args],
      { maxBuffer: 1 << 24, timeout: 120_000 },
    );
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? String(err) };
  }
}

/** `kafka-consumer-groups --describe --group g`, parsed into rows. */
export async function describeWithKafkaTool(bootstrap: string, group: string): Promise<DescribeRow[]> {
  const { stdout } = await consumerGroupCommand(['--bootstrap-server', bootstrap, '--describe', '--group', group]);
  const rows: DescribeRow[] = [];
  for (const line of stdout.split('\n')) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 9 || cols[0] !== group) continue;
    const [g, topic, partition, currentOffset, logEndOffset, lag, consumerId, host, ...clientId] = cols;
    rows.push({
      group: g,
      topic,
      partition: Number(partition),
      currentOffset,
      logEndOffset,
      lag,
      consumerId,
      host,
      clientId: clientId.join(' '),
    });
  }
  return rows;
}
