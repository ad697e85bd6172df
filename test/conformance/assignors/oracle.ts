import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

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

function run(cmd: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'ENOENT' ? new Error(`'${cmd}' is not on PATH; the assignor oracle needs it`) : err),
    );
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

async function mustRun(what: string, cmd: string, args: string[]): Promise<void> {
  const r = await run(cmd, args);
  if (r.code !== 0)
    throw new Error(`${what} failed (exit ${r.code}):\n${r.output.trim().split('\n').slice(-15).join('\n')}`);
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

async function compile(cp: string): Promise<string> {
  const files = await sources(path.join(javaDir, 'src'));
  const target = path.join(cacheDir, `classes-${hash(cp, ...(await Promise.all(files.map((f) => readFile(f)))))}`);
  if (existsSync(path.join(target, '.complete'))) return target;
  const tmp = `${target}.${process.pid}.tmp`;
  await rm(tmp, { recursive: true, force: true });
  await mustRun('compiling the assignor oracle', 'javac', [
    '-encoding',
    'UTF-8',
    '-nowarn',
    '-d',
    tmp,
    '-cp',
    cp,
    ...files,
  ]);
  await writeFile(path.join(tmp, '.complete'), '');
  await rm(target, { recursive: true, force: true });
  await rename(tmp, target);
  return target;
}

export class AssignorOracle {
  private readonly pending = new Map<number, (answer: Record<string, unknown>) => void>();
  private nextId = 1;
  private stderr = '';
  private exited: Error | undefined;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stderr.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const answer = JSON.parse(line) as Record<string, unknown>;
      const resolve = this.pending.get(answer.id as number);
      this.pending.delete(answer.id as number);
      resolve?.(answer);
    });
    child.on('exit', (code, signal) => {
      this.exited = new Error(`assignor oracle exited (${signal ?? code}): ${this.stderr.trim()}`);
      for (const resolve of this.pending.values()) resolve({ error: this.exited.message });
      this.pending.clear();
    });
  }

  static async start(version = KAFKA_VERSION): Promise<AssignorOracle> {
    if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`invalid Kafka version ${version}`);
    await mkdir(cacheDir, { recursive: true });
    const cp = await classpath(version);
    const classes = await compile(cp);
    const child = spawn('java', [
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      '-cp',
      [classes, cp].join(path.delimiter),
      'dev.tidemark.assignors.AssignorOracle',
    ]);
    const oracle = new AssignorOracle(child);
    const answer = await oracle.call({ op: 'version' });
    if (answer.version !== version) {
      oracle.close();
      throw new Error(`expected kafka-clients ${version}, the oracle runs ${String(answer.version ?? answer.error)}`);
    }
    return oracle;
  }

  private call(request: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.exited !== undefined) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ id, ...request })}\n`);
    });
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
    if (this.exited === undefined) this.child.stdin.end();
  }
}
