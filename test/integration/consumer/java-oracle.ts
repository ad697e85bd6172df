/**
 * Drives Kafka's own Java clients (ConsumerOracle.java) for the consumer tests: the Java consumer runs the same
 * scripted scenarios as tidemark's, and the transactional producer writes committed and aborted transactions.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kafkaClasspath } from '../../harness/classpath.js';
import { type JsonLinesProcess, LIGHT_JVM_FLAGS, startJsonLinesHelper } from '../../harness/java-program.js';
import { tidemarkDir } from '../../harness/paths.js';

const SOURCE = fileURLToPath(new URL('./java/ConsumerOracle.java', import.meta.url));
/** The Java clients used as the oracle; they speak to 3.9 and 4.x brokers alike. */
const CLIENT_KAFKA_VERSION = '4.4.0';

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
  private constructor(private readonly helper: JsonLinesProcess) {}

  static async start(): Promise<JavaOracle> {
    const helper = await startJsonLinesHelper({
      source: SOURCE,
      mainClass: 'dev.tidemark.consumer.ConsumerOracle',
      classpath: await kafkaClasspath(CLIENT_KAFKA_VERSION),
      cacheDir: path.join(tidemarkDir, 'consumer-java'),
      jvmFlags: [...LIGHT_JVM_FLAGS, '-Xmx256m'],
      name: 'Java oracle',
    });
    return new JavaOracle(helper);
  }

  call<T = unknown>(op: string, args: Record<string, unknown>): Promise<T> {
    return this.helper.result<T>(op, args);
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

  close(): Promise<void> {
    return this.helper.close();
  }
}
