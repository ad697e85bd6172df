import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { pomPath, tidemarkDir } from './paths.js';
import { checkKafkaVersion } from './versions.js';

const classpathDir = path.join(tidemarkDir, 'classpath');

async function cacheFile(kafkaVersion: string): Promise<string> {
  // Keyed by the pom's content too: changing a dependency must not serve a stale classpath.
  const pomHash = createHash('sha256')
    .update(await readFile(pomPath))
    .digest('hex')
    .slice(0, 12);
  return path.join(classpathDir, `kafka-${kafkaVersion}-${pomHash}.txt`);
}

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
    child.on('error', (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'ENOENT'
          ? new Error(`'${cmd}' not found on PATH: Maven is needed to fetch the Kafka jars (or set KAFKA_BOOTSTRAP)`)
          : err,
      );
    });
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

/**
 * The broker's runtime classpath (jars in ~/.m2) for one Kafka version.
 * The first call runs Maven (seconds, or minutes on an empty ~/.m2); later calls read the cached file.
 */
export async function kafkaClasspath(kafkaVersion: string): Promise<string> {
  checkKafkaVersion(kafkaVersion);
  const file = await cacheFile(kafkaVersion);
  if (existsSync(file)) {
    const cached = (await readFile(file, 'utf8')).trim();
    // A cleaned ~/.m2 leaves the cache pointing at nothing; resolve again rather than fail later in Java.
    if (cached.length > 0 && cached.split(path.delimiter).every((jar) => existsSync(jar))) return cached;
  }
  await mkdir(classpathDir, { recursive: true });
  // Unique temp name: two processes may resolve the same version at once; rename keeps the file whole.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const mvnArgs = [
    '-q',
    '-B',
    '-f',
    pomPath,
    `-Dkafka.version=${kafkaVersion}`,
    'dependency:build-classpath',
    `-Dmdep.outputFile=${tmp}`,
  ];
  const { code, output } = await run(process.env.MVN ?? 'mvn', mvnArgs);
  if (code !== 0 || !existsSync(tmp)) {
    await rm(tmp, { force: true });
    const tail = output.trim().split('\n').slice(-15).join('\n');
    throw new Error(`Maven could not resolve org.apache.kafka:kafka_2.13:${kafkaVersion} (exit ${code}):\n${tail}`);
  }
  const classpath = (await readFile(tmp, 'utf8')).trim();
  await writeFile(tmp, classpath);
  await rename(tmp, file);
  return classpath;
}
