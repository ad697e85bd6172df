import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileJava, runCommand } from '../harness/java-program.js';

/**
 * Fetches and prepares one Kafka version for the conformance check: the
 * kafka-clients jar and its runtime classpath (via Maven, so it works on any
 * machine with Maven and a JDK), the message schemas extracted from that jar,
 * and the oracle compiled against it. Everything is cached under
 * `.tidemark/conformance/<version>/`; a second run costs no Maven or javac.
 */

/** Newest first: a version is checked against the newest Kafka that has it. */
export const KAFKA_VERSIONS = ['4.4.0', '3.9.1'] as const;

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const javaDir = path.join(repoRoot, 'test', 'conformance', 'java');
const pomPath = path.join(javaDir, 'pom.xml');
const sourceDir = path.join(javaDir, 'src', 'main', 'java');

/** The jackson-databind each Kafka line ships with (any 2.x works; this keeps the oracle close to the real thing). */
function jacksonVersion(kafkaVersion: string): string | undefined {
  return kafkaVersion.startsWith('3.') ? '2.16.2' : undefined; // undefined: the pom's default
}

export interface KafkaDist {
  version: string;
  /** Runtime classpath: kafka-clients, its dependencies, jackson. */
  classpath: string;
  /** Directory of `<Name>.json` message schemas from the jar. */
  schemaDir: string;
  /** Compiled oracle classes. */
  classesDir: string;
}

export function checkKafkaVersion(version: string): string {
  // The version goes into Maven arguments and directory names.
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`invalid Kafka version "${version}", expected x.y.z`);
  return version;
}

async function mustRun(what: string, cmd: string, args: string[], cwd?: string): Promise<string> {
  const r = await runCommand(cmd, args, { cwd });
  const output = `${r.stdout}${r.stderr}`;
  if (r.code !== 0) {
    const tail = output.trim().split('\n').slice(-15).join('\n');
    throw new Error(`${what} failed (${cmd} exit ${r.code}):\n${tail}`);
  }
  return output;
}

function hash(...parts: (string | Buffer)[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 16);
}

/** Writes via a unique temp name and rename, so two concurrent runs never see half a file. */
async function writeAtomic(file: string, data: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}

async function resolveClasspath(version: string, dir: string): Promise<string> {
  // Keyed by the pom: a changed dependency must not serve a stale classpath.
  const file = path.join(dir, `classpath-${hash(await readFile(pomPath), version)}.txt`);
  if (existsSync(file)) {
    const cached = (await readFile(file, 'utf8')).trim();
    // A cleaned ~/.m2 leaves the cache pointing at nothing: resolve again.
    if (cached !== '' && cached.split(path.delimiter).every((jar) => existsSync(jar))) return cached;
  }
  const out = path.join(dir, `classpath.${process.pid}.tmp`);
  const jackson = jacksonVersion(version);
  await mustRun(`resolving kafka-clients ${version} with Maven`, process.env.MVN ?? 'mvn', [
    '-q',
    '-B',
    '-f',
    pomPath,
    `-Dkafka.version=${version}`,
    ...(jackson === undefined ? [] : [`-Djackson.version=${jackson}`]),
    'dependency:build-classpath',
    `-Dmdep.outputFile=${out}`,
  ]);
  const classpath = (await readFile(out, 'utf8')).trim();
  await rm(out, { force: true });
  await writeAtomic(file, classpath);
  return classpath;
}

function clientsJar(classpath: string, version: string): string {
  const jar = classpath.split(path.delimiter).find((p) => path.basename(p) === `kafka-clients-${version}.jar`);
  if (jar === undefined) throw new Error(`kafka-clients-${version}.jar is not on the resolved classpath`);
  return jar;
}

async function extractSchemas(jar: string, dir: string): Promise<string> {
  const target = path.join(dir, `schemas-${hash(jar)}`);
  const done = path.join(target, '.complete');
  if (existsSync(done)) return path.join(target, 'common', 'message');
  const tmp = `${target}.${process.pid}.tmp`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  // `jar` ships with every JDK, which the oracle needs anyway; no zip library needed.
  await mustRun(`extracting schemas from ${jar}`, 'jar', ['xf', jar, 'common/message'], tmp);
  await writeFile(path.join(tmp, '.complete'), '');
  await rm(target, { recursive: true, force: true });
  await rename(tmp, target);
  return path.join(target, 'common', 'message');
}

async function javaSources(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith('.java')) out.push(p);
    }
  };
  await walk(sourceDir);
  return out.sort();
}

async function compileOracle(classpath: string, dir: string): Promise<string> {
  const program = await compileJava({
    cacheDir: path.join(dir, 'classes'),
    sources: await javaSources(),
    classpath,
    what: 'the conformance oracle',
  });
  return program.classes;
}

const prepared = new Map<string, Promise<KafkaDist>>();

/** Resolves, extracts and compiles what one Kafka version needs (once per process; cached on disk). */
export function prepareKafka(version: string): Promise<KafkaDist> {
  checkKafkaVersion(version);
  let p = prepared.get(version);
  if (p === undefined) {
    p = (async () => {
      const dir = path.join(repoRoot, '.tidemark', 'conformance', version);
      await mkdir(dir, { recursive: true });
      const classpath = await resolveClasspath(version, dir);
      const [schemaDir, classesDir] = await Promise.all([
        extractSchemas(clientsJar(classpath, version), dir),
        compileOracle(classpath, dir),
      ]);
      return { version, classpath, schemaDir, classesDir };
    })();
    prepared.set(version, p);
    p.catch(() => prepared.delete(version));
  }
  return p;
}
