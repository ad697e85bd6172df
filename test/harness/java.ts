import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';

export function javaBinary(): string {
  return process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
}

/**
 * Writes the classpath to a Java @argfile: keeps `ps` readable (the classpath is ~100 jars) and puts the
 * data dir in the command line, which is how a later `stop` recognises the process as ours.
 */
export async function writeClasspathArgFile(file: string, classpath: string): Promise<string> {
  const quoted = classpath.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
  await writeFile(file, `-cp\n"${quoted}"\n`);
  return `@${file}`;
}

export interface JavaLaunch {
  args: string[];
  cwd: string;
  /** stdout and stderr both go here (JVM crashes and errors before log4j is up). */
  outFile: string;
  detached: boolean;
}

/** Spawns a JVM with its output in a file; resolves once the OS has created the process. */
export function spawnJava({ args, cwd, outFile, detached }: JavaLaunch): Promise<ChildProcess> {
  const out = openSync(outFile, 'a');
  try {
    const child = spawn(javaBinary(), args, { cwd, detached, stdio: ['ignore', out, out] });
    return new Promise((resolve, reject) => {
      child.once('error', (err: NodeJS.ErrnoException) => {
        reject(
          err.code === 'ENOENT'
            ? new Error(
                `'${javaBinary()}' not found: Java 17+ is needed to run the Kafka broker (or set KAFKA_BOOTSTRAP)`,
              )
            : err,
        );
      });
      child.once('spawn', () => resolve(child));
    });
  } finally {
    closeSync(out);
  }
}

/** Runs a JVM to completion (StorageTool) and returns its exit code. */
export async function runJava(launch: Omit<JavaLaunch, 'detached'>): Promise<number> {
  const child = await spawnJava({ ...launch, detached: false });
  if (child.exitCode !== null) return child.exitCode;
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : -1))));
}
