/**
 * A Kafka Java consumer (GroupMember.java: KafkaConsumer with a rebalance listener) as one member of a group in
 * the mixed-group tests: one JVM per member, its assignment followed through the JSON lines it prints.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kafkaClasspath } from '../../harness/classpath.js';
import {
  type CompiledProgram,
  compileJava,
  JSON_LINES_SOURCE,
  LIGHT_JVM_FLAGS,
  onPrefixedLines,
  startJava,
} from '../../harness/java-program.js';
import { tidemarkDir } from '../../harness/paths.js';
import type { TrackedMember } from './tracker.js';

const SOURCE = fileURLToPath(new URL('./java/GroupMember.java', import.meta.url));
/** Java's client speaks to 3.9 and 4.x brokers alike. */
const CLIENT_KAFKA_VERSION = '4.4.0';
/** One JVM per member, several at once: small heaps and stacks. */
const JVM_FLAGS = [...LIGHT_JVM_FLAGS, '-Xmx128m', '-Xss512k'];

/** GroupMember.java, compiled once per source version (shared by every test file of a run). */
async function compiled(): Promise<CompiledProgram> {
  return compileJava({
    cacheDir: path.join(tidemarkDir, 'group-java'),
    sources: [SOURCE, JSON_LINES_SOURCE],
    classpath: await kafkaClasspath(CLIENT_KAFKA_VERSION),
    what: 'GroupMember.java',
  });
}

export interface JavaMemberOptions {
  bootstrap: string;
  group: string;
  topic: string;
  protocol: 'classic' | 'consumer';
  /** Classic: range, roundrobin, sticky, cooperative-sticky. KIP-848: the server assignor (range, uniform). */
  assignor: string;
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
}

interface JavaEvent {
  event: 'started' | 'assigned' | 'revoked' | 'lost' | 'closed';
  partitions: number[];
  generation?: number;
  memberId?: string;
}

export class JavaMember implements TrackedMember {
  readonly events: JavaEvent[] = [];
  private readonly ownedSet = new Set<number>();
  private lastGeneration = -1;
  private stderr = '';
  private readonly exited: Promise<void>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcessWithoutNullStreams,
  ) {
    child.stderr.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-8000);
    });
    onPrefixedLines(child, '@@ ', (text) => {
      const e = JSON.parse(text) as JavaEvent;
      this.events.push(e);
      if (e.event === 'assigned') for (const p of e.partitions) this.ownedSet.add(p);
      if (e.event === 'revoked' || e.event === 'lost') for (const p of e.partitions) this.ownedSet.delete(p);
      if (e.generation !== undefined && e.event === 'assigned') this.lastGeneration = e.generation;
    });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  static async start(name: string, o: JavaMemberOptions): Promise<JavaMember> {
    const program = await compiled();
    const args = [
      o.bootstrap,
      o.group,
      o.topic,
      o.protocol,
      o.assignor,
      `${o.sessionTimeoutMs}`,
      `${o.heartbeatIntervalMs}`,
    ];
    const child = startJava({ program, mainClass: 'dev.tidemark.group.GroupMember', args, jvmFlags: JVM_FLAGS });
    return new JavaMember(name, child);
  }

  owned(): number[] {
    return [...this.ownedSet].sort((a, b) => a - b);
  }

  generation(): number {
    return this.lastGeneration;
  }

  isStable(): boolean {
    return this.child.exitCode === null && this.events.some((e) => e.event === 'assigned');
  }

  /** Waits until the consumer has had its first assignment callback. */
  async joined(timeoutMs = 90_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!this.events.some((e) => e.event === 'assigned')) {
      if (this.child.exitCode !== null) throw new Error(`Java member exited (${this.child.exitCode}):\n${this.stderr}`);
      if (Date.now() > until) throw new Error(`Java member did not join within ${timeoutMs} ms:\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** KafkaConsumer.close(): revokes, leaves the group, exits. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.stdin.write('close\n');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await this.exited;
    clearTimeout(timer);
    this.ownedSet.clear();
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}
