/**
 * Drives Kafka's own Java clients (OffsetsHelper.java) for the offsets tests: the producer writes test data with
 * explicit timestamps, the consumer and AdminClient are the oracle tidemark's answers are compared with.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kafkaClasspath } from '../../harness/classpath.js';
import { javaBinary } from '../../harness/java.js';
import {
  type JsonLinesProcess,
  LIGHT_JVM_FLAGS,
  runCommand,
  startJsonLinesHelper,
} from '../../harness/java-program.js';
import { tidemarkDir } from '../../harness/paths.js';

const SOURCE = fileURLToPath(new URL('./java/OffsetsHelper.java', import.meta.url));
/** The Java clients used as the oracle; they speak to 3.9 and 4.x brokers alike. */
const CLIENT_KAFKA_VERSION = '4.4.0';
const JVM_FLAGS = [...LIGHT_JVM_FLAGS, '-Xmx256m'];

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

export class JavaClients {
  private constructor(private readonly helper: JsonLinesProcess) {}

  static async start(): Promise<JavaClients> {
    const helper = await startJsonLinesHelper({
      source: SOURCE,
      mainClass: 'dev.tidemark.offsets.OffsetsHelper',
      classpath: await kafkaClasspath(CLIENT_KAFKA_VERSION),
      cacheDir: path.join(tidemarkDir, 'offsets-java'),
      jvmFlags: JVM_FLAGS,
      name: 'Java helper',
    });
    return new JavaClients(helper);
  }

  call<T = unknown>(op: string, args: Record<string, unknown>): Promise<T> {
    return this.helper.result<T>(op, args);
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

  close(): Promise<void> {
    return this.helper.close();
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
  const { stdout, stderr } = await runCommand(
    javaBinary(),
    [...JVM_FLAGS, '-cp', classpath, 'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand', ...args],
    { timeoutMs: 120_000 },
  );
  return { stdout, stderr };
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
