/**
 * One way to run a Java program from the tests: compile its sources with
 * javac against a classpath (cached under `.tidemark/<cache>/`, keyed by the
 * sources and the classpath, so a second run costs no javac), start it, and
 * talk to it in JSON lines. The consumer, offsets, group and producer
 * integration tests and both conformance oracles use it.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { javaBinary, writeClasspathArgFile } from './java.js';

/** C1 only and the serial collector: half the CPU of the defaults for short, mostly single-threaded helpers. */
export const LIGHT_JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

/** JsonLines.java, the shared command loop of the helpers that answer JSON requests. */
export const JSON_LINES_SOURCE = fileURLToPath(new URL('./java/dev/tidemark/harness/JsonLines.java', import.meta.url));

export interface JavaSources {
  /** Directory for the compiled classes, one subdirectory per key. */
  cacheDir: string;
  sources: readonly string[];
  classpath: string;
  /** For error messages, e.g. 'the conformance oracle'. */
  what: string;
}

export interface CompiledProgram {
  classes: string;
  classpath: string;
  /** The classes, then the classpath they were compiled against: what `java -cp` needs. */
  runClasspath: string;
}

function hash(...parts: (string | Buffer)[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 16);
}

/** Runs a command to completion, collecting its output. */
export function runCommand(
  cmd: string,
  args: readonly string[],
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: options.timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'ENOENT' ? new Error(`'${cmd}' not found on PATH (needed by the Java test helpers)`) : err),
    );
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr }));
  });
}

const compiling = new Map<string, Promise<CompiledProgram>>();

/**
 * Compiles `sources` once per content and classpath. The classes are built
 * in a temporary directory and renamed into place with a marker, so a
 * concurrent or interrupted run never sees half a compilation.
 */
export function compileJava(spec: JavaSources): Promise<CompiledProgram> {
  const run = async (): Promise<CompiledProgram> => {
    const contents = await Promise.all(spec.sources.map((s) => readFile(s)));
    const classes = path.join(
      spec.cacheDir,
      hash(spec.classpath, ...spec.sources.map((s) => path.basename(s)), ...contents),
    );
    const done = { classes, classpath: spec.classpath, runClasspath: [classes, spec.classpath].join(path.delimiter) };
    if (existsSync(path.join(classes, '.complete'))) return done;
    const tmp = `${classes}.${process.pid}.tmp`;
    await rm(tmp, { recursive: true, force: true });
    await mkdir(tmp, { recursive: true });
    // The classpath can be ~100 jars: an @argfile keeps the command line short.
    const cpArg = await writeClasspathArgFile(`${tmp}.classpath`, spec.classpath);
    try {
      const javac = await runCommand('javac', ['-encoding', 'UTF-8', '-nowarn', cpArg, '-d', tmp, ...spec.sources]);
      if (javac.code !== 0) {
        await rm(tmp, { recursive: true, force: true });
        const tail = `${javac.stdout}${javac.stderr}`.trim().split('\n').slice(-15).join('\n');
        throw new Error(`compiling ${spec.what} failed (javac exit ${javac.code}):\n${tail}`);
      }
    } finally {
      await rm(`${tmp}.classpath`, { force: true });
    }
    await writeFile(path.join(tmp, '.complete'), '');
    // Another process (a parallel test run) may have finished the same classes meanwhile: theirs are as good.
    if (existsSync(path.join(classes, '.complete'))) {
      await rm(tmp, { recursive: true, force: true });
      return done;
    }
    await rm(classes, { recursive: true, force: true });
    await rename(tmp, classes).catch(async (err) => {
      await rm(tmp, { recursive: true, force: true });
      if (!existsSync(path.join(classes, '.complete'))) throw err;
    });
    return done;
  };
  const key = `${spec.cacheDir}\0${spec.classpath}\0${spec.sources.join('\0')}`;
  let p = compiling.get(key);
  if (p === undefined) {
    p = run();
    compiling.set(key, p);
    p.catch(() => compiling.delete(key));
  }
  return p;
}

export interface JavaStart {
  program: CompiledProgram;
  mainClass: string;
  args?: readonly string[];
  jvmFlags?: readonly string[];
}

/** Starts the program with its stdin, stdout and stderr as pipes. */
export function startJava({ program, mainClass, args = [], jvmFlags = [] }: JavaStart): ChildProcessWithoutNullStreams {
  return spawn(javaBinary(), [...jvmFlags, '-cp', program.runClasspath, mainClass, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Runs the program to completion and returns its exit code and output. */
export function runJavaProgram(
  start: JavaStart,
  options: { timeoutMs?: number } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCommand(
    javaBinary(),
    [...(start.jvmFlags ?? []), '-cp', start.program.runClasspath, start.mainClass, ...(start.args ?? [])],
    options,
  );
}

/** The JSON objects a one-shot program printed, one per line; other output (logging) is skipped. */
export function parseJsonLines<T>(stdout: string): T[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as T);
}

/** Calls `onLine` with every stdout line of `child` that starts with `prefix`, the prefix removed. */
export function onPrefixedLines(child: ChildProcessWithoutNullStreams, prefix: string, onLine: (rest: string) => void) {
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith(prefix)) onLine(line.slice(prefix.length));
  });
}

export interface JsonLinesOptions {
  /** Only stdout lines starting with it are answers ('@@ ' for JsonLines.java, so stray logging is ignored). */
  prefix: string;
  /** The error every pending and later call fails with once the process is gone. */
  exitError(reason: string, stderr: string): Error;
}

/**
 * A long-lived helper process that answers JSON requests, one per stdin
 * line, with JSON answers carrying the request's `id`, in any order.
 * `call` resolves with the whole answer; what an `error` member in it means
 * is the caller's business.
 */
export class JsonLinesProcess {
  private readonly pending = new Map<number, { resolve(v: Record<string, unknown>): void; reject(e: Error): void }>();
  private nextId = 1;
  private stderr = '';
  private gone: Error | undefined;
  private readonly exited: Promise<void>;

  constructor(
    readonly child: ChildProcessWithoutNullStreams,
    private readonly options: JsonLinesOptions,
  ) {
    child.stdin.on('error', () => {}); // reported through 'exit'
    child.stderr.on('data', (d: Buffer) => {
      // Kept for error messages only.
      this.stderr = (this.stderr + d.toString()).slice(-8000);
    });
    onPrefixedLines(child, options.prefix, (text) => this.onAnswer(text));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.on('exit', (code, signal) => this.fail(`exited (${signal ?? code})`));
    child.on('error', (err) => this.fail(`cannot start java: ${err.message}`));
  }

  private onAnswer(text: string): void {
    let answer: Record<string, unknown>;
    try {
      answer = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return; // not an answer (nothing else should write there)
    }
    const p = this.pending.get(answer.id as number);
    if (p === undefined) return;
    this.pending.delete(answer.id as number);
    p.resolve(answer);
  }

  private fail(reason: string): void {
    this.gone ??= this.options.exitError(reason, this.stderr.trim());
    for (const p of this.pending.values()) p.reject(this.gone);
    this.pending.clear();
  }

  /**
   * Sends `{ id, ...request }`. `rawJson`, JSON text already (e.g. with exact
   * int64s), is spliced in as a last member named `json`.
   */
  call(request: Record<string, unknown>, rawJson = ''): Promise<Record<string, unknown>> {
    if (this.gone !== undefined) return Promise.reject(this.gone);
    const id = this.nextId++;
    const head = JSON.stringify({ id, ...request });
    const line = rawJson === '' ? head : `${head.slice(0, -1)},"json":${rawJson}}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(`${line}\n`);
    });
  }

  /** For JsonLines.java helpers: the answer's `result`, or a rejection with its `error`. */
  async result<T>(op: string, args: Record<string, unknown>): Promise<T> {
    const answer = await this.call({ op, ...args });
    if (typeof answer.error === 'string') throw new Error(`Java: ${answer.error}`);
    return answer.result as T;
  }

  /** Closes stdin, the helper's signal to exit, without waiting for it. */
  end(): void {
    if (this.gone === undefined) this.child.stdin.end();
  }

  /** Closes stdin (the helper's signal to exit); waits up to `killAfterMs` before SIGKILL. */
  async close(killAfterMs = 20_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), killAfterMs);
    await this.exited;
    clearTimeout(timer);
  }
}

export interface JsonLinesHelper {
  /** The program's one source file; JsonLines.java is compiled with it. */
  source: string;
  mainClass: string;
  classpath: string;
  /** Directory of the compiled classes (one subdirectory per source version). */
  cacheDir: string;
  jvmFlags: readonly string[];
  /** Names the helper in errors, e.g. 'Java oracle'. */
  name: string;
}

/** Compiles (cached) and starts a JsonLines.java helper; resolves once it has answered `version`. */
export async function startJsonLinesHelper(o: JsonLinesHelper): Promise<JsonLinesProcess> {
  const program = await compileJava({
    cacheDir: o.cacheDir,
    sources: [o.source, JSON_LINES_SOURCE],
    classpath: o.classpath,
    what: path.basename(o.source),
  });
  const helper = new JsonLinesProcess(startJava({ program, mainClass: o.mainClass, jvmFlags: o.jvmFlags }), {
    prefix: '@@ ',
    exitError: (reason, stderr) => new Error(`${o.name} ${reason}:\n${stderr}`),
  });
  await helper.result('version', {});
  return helper;
}
