import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename } from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileJava, JsonLinesProcess, LIGHT_JVM_FLAGS, runCommand, startJava } from '../../harness/java-program.js';

/**
 * Kafka's own assignors (kafka-clients 4.4.0, or 3.9.1) in one long-lived JVM: the
 * oracle for the assignor conformance test. The classpath comes from Maven
 * (java/pom.xml), the oracle is compiled with javac; both are cached under
 * `.tidemark/assignors/`, keyed by the pom and the sources.
 */

export const KAFKA_VERSION = '4.4.0';
/** Checked too: the assignors have not changed between the two. */
export const OLDER_KAFKA_VERSION = '3.9.1';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..', '..');
const javaDir = path.join(here, 'java');
const pomPath = path.join(javaDir, 'pom.xml');
const cacheDir = path.join(repoRoot, '.tidemark', 'assignors');

/** A case as the oracle reads it (see AssignorOracle.java). */
export interface OracleTopic {
  name: string;
  partitions: number;
  racks: Array<Array<string | null>> | null;
}

export interface OracleMember {
  memberId: string;
  groupInstanceId: string | null;
  rackId: string | null;
  topics: string[];
  owned: Array<[string, number]>;
  generationId: number;
  /** base64 */
  userData: string | null;
}

export type OracleAnswer = { assignment: Record<string, Array<[string, number]>> } | { error: string };

async function mustRun(what: string, cmd: string, args: string[]): Promise<void> {
  const r = await runCommand(cmd, args);
  if (r.code !== 0) {
    const tail = `${r.stdout}${r.stderr}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(`${what} failed (exit ${r.code}):\n${tail}`);
  }
}

const hash = (...parts: Array<string | Buffer>) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 16);
};

async function classpath(version: string): Promise<string> {
  const file = path.join(cacheDir, `classpath-${hash(await readFile(pomPath), version)}.txt`);
  if (existsSync(file)) {
    const cached = (await readFile(file, 'utf8')).trim();
    if (cached !== '' && cached.split(path.delimiter).every((jar) => existsSync(jar))) return cached;
  }
  const tmp = `${file}.${process.pid}.tmp`;
  await mustRun('resolving kafka-clients with Maven', process.env.MVN ?? 'mvn', [
    '-q',
    '-B',
    '-f',
    pomPath,
    `-Dkafka.version=${version}`,
    'dependency:build-classpath',
    `-Dmdep.outputFile=${tmp}`,
  ]);
  const cp = (await readFile(tmp, 'utf8')).trim();
  await rename(tmp, file);
  return cp;
}

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await sources(p)));
    else if (e.name.endsWith('.java')) out.push(p);
  }
  return out.sort();
}

export class AssignorOracle {
  private constructor(private readonly helper: JsonLinesProcess) {}

  static async start(version = KAFKA_VERSION): Promise<AssignorOracle> {
    if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`invalid Kafka version ${version}`);
    await mkdir(cacheDir, { recursive: true });
    const program = await compileJava({
      cacheDir: path.join(cacheDir, 'classes'),
      sources: await sources(path.join(javaDir, 'src')),
      classpath: await classpath(version),
      what: 'the assignor oracle',
    });
    const child = startJava({ program, mainClass: 'dev.tidemark.assignors.AssignorOracle', jvmFlags: LIGHT_JVM_FLAGS });
    const oracle = new AssignorOracle(
      new JsonLinesProcess(child, {
        prefix: '',
        exitError: (reason, stderr) => new Error(`assignor oracle ${reason}: ${stderr}`),
      }),
    );
    const answer = await oracle.call({ op: 'version' });
    if (answer.version !== version) {
      oracle.close();
      throw new Error(`expected kafka-clients ${version}, the oracle runs ${String(answer.version ?? answer.error)}`);
    }
    return oracle;
  }

  private call(request: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.helper.call(request);
  }

  /** Kafka's assignment (member -> [topic, partition] in Java's list order), or the exception it threw. */
  async assign(
    assignor: string,
    topics: OracleTopic[],
    members: OracleMember[],
    session?: string,
  ): Promise<OracleAnswer> {
    const a = await this.call({ op: 'assign', assignor, session: session ?? null, topics, members });
    return typeof a.error === 'string' ? { error: a.error } : { assignment: a.assignment as never };
  }

  /** Kafka's subscription userData after `onAssignment(partitions, generation)` (none: no assignment yet). */
  async userData(
    assignor: string,
    partitions: Array<[string, number]> | null,
    generation: number,
  ): Promise<Buffer | null> {
    const a = await this.call({ op: 'userData', assignor, partitions, generation });
    if (typeof a.error === 'string') throw new Error(a.error);
    return a.hex === null ? null : Buffer.from(a.hex as string, 'hex');
  }

  close(): void {
    this.helper.end();
  }
}
