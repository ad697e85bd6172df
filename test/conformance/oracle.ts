import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import type { Field } from '../../protocol/schema.js';
import { toKafkaJson } from './json.js';
import { type KafkaDist, prepareKafka } from './kafka.js';

/**
 * Kafka's own serializers, in one long-lived JVM per Kafka version (a JVM
 * start per message would cost more than the whole check). Requests are
 * pipelined over stdin as JSON lines and answered in order by id.
 */

export class OracleError extends Error {
  override name = 'OracleError';
}

interface Pending {
  resolve(value: Record<string, unknown>): void;
  reject(err: Error): void;
}

export class Oracle {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderr = '';
  private exited: Error | undefined;

  private constructor(readonly dist: KafkaDist) {
    const classpath = [dist.classesDir, dist.classpath].join(path.delimiter);
    // C1 only and the serial collector: half the CPU of the defaults for this short, single-threaded job.
    this.child = spawn(
      'java',
      ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-cp', classpath, 'dev.tidemark.conformance.Oracle'],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    this.child.stdin.on('error', () => {}); // reported via 'exit' below
    this.child.stderr.on('data', (d: Buffer) => {
      // Kept for error messages only (slf4j prints a no-binding notice here).
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => this.onLine(line));
    this.child.on('exit', (code, signal) => {
      this.exited = new OracleError(
        `Kafka ${dist.version} oracle exited (${signal ?? code})${this.stderr ? `:\n${this.stderr.trim()}` : ''}`,
      );
      for (const p of this.pending.values()) p.reject(this.exited);
      this.pending.clear();
    });
    this.child.on('error', (err) => {
      this.exited = new OracleError(`cannot start java for the Kafka ${dist.version} oracle: ${err.message}`);
      for (const p of this.pending.values()) p.reject(this.exited);
      this.pending.clear();
    });
  }

  /** Prepares the Kafka version (Maven, javac; cached) and starts its JVM. */
  static async start(kafkaVersion: string): Promise<Oracle> {
    const oracle = new Oracle(await prepareKafka(kafkaVersion));
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

  private onLine(line: string): void {
    let answer: Record<string, unknown>;
    try {
      answer = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return; // not ours (nothing else should write to stdout)
    }
    const p = this.pending.get(answer.id as number);
    if (p === undefined) return;
    this.pending.delete(answer.id as number);
    if (typeof answer.error === 'string') p.reject(new OracleError(answer.error));
    else p.resolve(answer);
  }

  private call(request: Record<string, unknown>, body = ''): Promise<Record<string, unknown>> {
    if (this.exited !== undefined) return Promise.reject(this.exited);
    const id = this.nextId++;
    // `body` is JSON text already (exact int64s), spliced in as the last member.
    const head = JSON.stringify({ id, ...request });
    const line = body === '' ? head : `${head.slice(0, -1)},"json":${body}}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(`${line}\n`);
    });
  }

  /** Kafka's bytes for a message given as a tidemark value (`fields`: its definition, to write float64s right). */
  async encode(message: string, version: number, value: unknown, fields?: readonly Field[]): Promise<Buffer> {
    const answer = await this.call({ op: 'encode', message, version }, toKafkaJson(value, fields));
    return Buffer.from(answer.hex as string, 'hex');
  }

  /**
   * Kafka's reading of some bytes, as its JSON (int64 and uint32 as strings,
   * bytes as base64); `fromKafkaJson` turns it into a tidemark value.
   */
  async decode(message: string, version: number, bytes: Uint8Array): Promise<unknown> {
    const answer = await this.call({ op: 'decode', message, version, hex: Buffer.from(bytes).toString('hex') });
    return answer.json;
  }

  /** Kafka's error table (the `Errors` enum), to check tidemark's against. */
  async errors(): Promise<Array<{ code: number; name: string; retriable: boolean }>> {
    const answer = await this.call({ op: 'errors' });
    return answer.errors as Array<{ code: number; name: string; retriable: boolean }>;
  }

  close(): void {
    if (this.exited === undefined) this.child.stdin.end();
  }
}
