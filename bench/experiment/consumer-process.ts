import { type ChildProcess, spawn } from 'node:child_process';
import type { ChildCommand } from './child-build.js';
import { CHILD_SAYS, type ChildConfig } from './modes.js';

/** A consumer process failed, hung, or exited when it should not have. */
export class ConsumerProcessError extends Error {
  constructor(message: string, stderr: string) {
    super(stderr.trim() === '' ? message : `${message}\n--- consumer stderr (tail) ---\n${stderr.slice(-2000)}`);
    this.name = 'ConsumerProcessError';
  }
}

/** The parent's handle on one consumer process (consumer-child.ts): what it said, and how to stop it. */
export class ConsumerProcess {
  /** Next offset of each partition when it started reading (from the `ready` line). */
  start: number[] | undefined;
  processed = 0;
  caughtUp = false;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private stderr = '';
  private partial = '';
  private listeners: (() => void)[] = [];
  private exitedYet = false;

  constructor(command: ChildCommand, config: ChildConfig) {
    this.child = spawn(command.command, [...command.args, JSON.stringify(config)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-20_000);
    });
    this.exited = new Promise((resolve, reject) => {
      this.child.on('error', reject);
      this.child.on('exit', (code, signal) => {
        this.exitedYet = true;
        this.changed();
        resolve({ code, signal });
      });
    });
  }

  get stderrTail(): string {
    return this.stderr;
  }

  /** Resolves once `done()` holds; fails if the process exits first or nothing happens for `idleMs`. */
  async until(what: string, done: () => boolean, idleMs: number): Promise<void> {
    while (!done()) {
      if (this.exitedYet) throw new ConsumerProcessError(`consumer exited while waiting for ${what}`, this.stderr);
      const before = this.processed;
      const woke = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), idleMs);
        this.listeners.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (!woke && this.processed === before && !done()) {
        throw new ConsumerProcessError(`no progress for ${idleMs / 1000} s while waiting for ${what}`, this.stderr);
      }
    }
  }

  /** Sends the stop and waits for the exit; a graceful stop must end with exit code 0. */
  async stop(kind: 'SIGTERM' | 'SIGKILL', timeoutMs: number): Promise<void> {
    if (!this.exitedYet) this.child.kill(kind);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const { code, signal } = await this.exited;
    clearTimeout(timer);
    if (kind === 'SIGKILL' && signal === 'SIGKILL') return;
    if (code !== 0) {
      throw new ConsumerProcessError(
        `consumer did not stop cleanly on ${kind} (exit ${code ?? signal}${signal === 'SIGKILL' ? ', killed after the timeout' : ''})`,
        this.stderr,
      );
    }
  }

  private onStdout(chunk: Buffer): void {
    const lines = (this.partial + chunk.toString()).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      const [word, arg] = line.split(' ');
      if (word === CHILD_SAYS.ready) this.start = arg.split(',').map(Number);
      else if (word === CHILD_SAYS.progress) this.processed = Number(arg);
      else if (word === CHILD_SAYS.caughtUp) this.caughtUp = true;
    }
    this.changed();
  }

  private changed(): void {
    const listeners = this.listeners;
    this.listeners = [];
    for (const l of listeners) l();
  }
}
