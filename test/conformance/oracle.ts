import * as path from 'node:path';
import type { Field } from '../../protocol/schema.js';
import { JsonLinesProcess, LIGHT_JVM_FLAGS, startJava } from '../harness/java-program.js';
import { toKafkaJson } from './json.js';
import { type KafkaDist, prepareKafka } from './kafka.js';
import { renameForRelease } from './renamed-fields.js';

/**
 * Kafka's own serializers, in one long-lived JVM per Kafka version (a JVM
 * start per message would cost more than the whole check). Requests are
 * pipelined over stdin as JSON lines and answered in order by id.
 */

export class OracleError extends Error {
  override name = 'OracleError';
}

export class Oracle {
  private constructor(
    readonly dist: KafkaDist,
    private readonly helper: JsonLinesProcess,
  ) {}

  /** Prepares the Kafka version (Maven, javac; cached) and starts its JVM. */
  static async start(kafkaVersion: string): Promise<Oracle> {
    const dist = await prepareKafka(kafkaVersion);
    const child = startJava({
      program: {
        classes: dist.classesDir,
        classpath: dist.classpath,
        runClasspath: [dist.classesDir, dist.classpath].join(path.delimiter),
      },
      mainClass: 'dev.tidemark.conformance.Oracle',
      jvmFlags: LIGHT_JVM_FLAGS,
    });
    // Answers are bare JSON lines; stderr is kept for error messages only (slf4j prints a no-binding notice there).
    const helper = new JsonLinesProcess(child, {
      prefix: '',
      exitError: (reason, stderr) =>
        new OracleError(`Kafka ${dist.version} oracle ${reason}${stderr ? `:\n${stderr}` : ''}`),
    });
    const oracle = new Oracle(dist, helper);
    const answer = await oracle.call({ op: 'version' });
    if (answer.version !== kafkaVersion) {
      oracle.close();
      throw new OracleError(`expected kafka-clients ${kafkaVersion} on the classpath, found ${String(answer.version)}`);
    }
    return oracle;
  }

  get kafkaVersion(): string {
    return this.dist.version;
  }

  private async call(request: Record<string, unknown>, body = ''): Promise<Record<string, unknown>> {
    // `body` is JSON text already (exact int64s), spliced in as the last member.
    const answer = await this.helper.call(request, body);
    if (typeof answer.error === 'string') throw new OracleError(answer.error);
    return answer;
  }

  /** Kafka's bytes for a message given as a tidemark value (`fields`: its definition, to write float64s right). */
  async encode(message: string, version: number, value: unknown, fields?: readonly Field[]): Promise<Buffer> {
    const named = renameForRelease(this.dist.version, message, value, true);
    const answer = await this.call({ op: 'encode', message, version }, toKafkaJson(named, fields));
    return Buffer.from(answer.hex as string, 'hex');
  }

  /**
   * Kafka's reading of some bytes, as its JSON (int64 and uint32 as strings,
   * bytes as base64); `fromKafkaJson` turns it into a tidemark value.
   */
  async decode(message: string, version: number, bytes: Uint8Array): Promise<unknown> {
    const answer = await this.call({ op: 'decode', message, version, hex: Buffer.from(bytes).toString('hex') });
    return renameForRelease(this.dist.version, message, answer.json, false);
  }

  /** Kafka's error table (the `Errors` enum), to check tidemark's against. */
  async errors(): Promise<Array<{ code: number; name: string; retriable: boolean }>> {
    const answer = await this.call({ op: 'errors' });
    return answer.errors as Array<{ code: number; name: string; retriable: boolean }>;
  }

  close(): void {
    this.helper.end();
  }
}
