/** A consumer-child.ts process, followed through the lines it prints; every wait has a deadline. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { repoRoot, tidemarkDir } from '../../harness/paths.js';
import type { ChildConfig } from './consumer-child.js';

const SCRIPT = fileURLToPath(new URL('./consumer-child.ts', import.meta.url));

/** Bundles by entry script (consumer-child.ts, or another child such as the transactions tests'). */
const bundled = new Map<string, Promise<string>>();
const bundleDirs: string[] = [];

/** Removes the bundles (call from afterAll: a test worker may be ended without an `exit` event). */
export function removeChildScript(): void {
  for (const dir of bundleDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  bundled.clear();
}

/**
 * consumer-child.ts and everything it imports as one JavaScript file, built once per test process. Started
 * through tsx, a child needs 3-5 s on a loaded machine before it runs a line; bundled, under one: that is
 * what lets a test afford dozens of restarts. esbuild is the compiler tsx itself runs on.
 */
export function childScript(entry = SCRIPT): Promise<string> {
  let script = bundled.get(entry);
  if (script !== undefined) return script;
  script = (async () => {
    // Inside the repository (.tidemark/ is ignored by git), so the bundle finds node_modules as the sources do.
    mkdirSync(tidemarkDir, { recursive: true });
    const dir = mkdtempSync(path.join(tidemarkDir, 'consumer-child-'));
    bundleDirs.push(dir);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const outfile = path.join(dir, 'consumer-child.mjs');
    await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile,
      packages: 'external',
      logLevel: 'warning',
    });
    return outfile;
  })();
  bundled.set(entry, script);
  return script;
}

export interface ChildEvent {
  event: 'ready' | 'rebalance' | 'closed' | 'error' | 'commit-failed' | 'warning' | 'store' | 'offset-reset';
  kind?: 'assigned' | 'revoked' | 'lost';
  partitions?: number[];
  name?: string;
  message?: string;
}

/** Polls `condition` every `everyMs` until it holds; past `timeoutMs` fails with `what()` (a hang becomes a message). */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: () => string,
  everyMs = 50,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export class ChildConsumer {
  readonly events: ChildEvent[] = [];
  private stderr = '';
  private exitCode: number | null | undefined;
  private exitSignal: NodeJS.Signals | null = null;
  private readonly exited: Promise<void>;

  private constructor(
    readonly run: number,
    private readonly child: ChildProcessWithoutNullStreams,
  ) {
    child.stderr.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-8000);
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('@@ ')) this.events.push(JSON.parse(line.slice(3)) as ChildEvent);
    });
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        resolve();
      }),
    );
  }

  /** Starts the bundled child (see childScript); `entry` another child script taking its config as JSON. */
  static async spawn(config: ChildConfig | { run: number }, entry?: string): Promise<ChildConsumer> {
    const child = spawn(process.execPath, [await childScript(entry), JSON.stringify(config)], {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new ChildConsumer(config.run, child);
  }

  get alive(): boolean {
    return this.exitCode === undefined;
  }

  /** What went wrong, for failure messages. */
  describe(): string {
    const errors = this.events.filter((e) => e.event !== 'rebalance' && e.event !== 'ready').slice(-20);
    return `run ${this.run} (exit ${this.exitCode ?? this.exitSignal}) ${JSON.stringify(errors)}\n${this.stderr}`;
  }

  /** Resolves once subscribed (group) or assigned (manual); throws if the process failed first. */
  async ready(timeoutMs: number): Promise<void> {
    await waitUntil(
      () => {
        if (!this.alive) throw new Error(`consumer child exited before it was ready: ${this.describe()}`);
        return this.events.some((e) => e.event === 'ready');
      },
      timeoutMs,
      () => `consumer child not ready: ${this.describe()}`,
    );
  }

  /** The last assignment the member reported (group mode); [] once it is gone. */
  owned(): number[] {
    if (!this.alive) return [];
    const owned = new Set<number>();
    for (const e of this.events) {
      if (e.event !== 'rebalance') continue;
      for (const p of e.partitions ?? []) {
        if (e.kind === 'assigned') owned.add(p);
        else owned.delete(p);
      }
    }
    return [...owned];
  }

  /**
   * Lets the child run for a seeded random while, then SIGKILLs it: one time in five while it is still starting
   * (20-420 ms), otherwise `minRunMs` to `minRunMs` + 1.5 s after it is ready. Returns whether it was killed
   * before it was ready; throws if it died on its own first.
   */
  async runThenKill(random: () => number, minRunMs = 50): Promise<boolean> {
    let beforeReady = false;
    try {
      if (random() < 0.2) {
        // Killed while starting: loading modules, joining, taking a lock or loading offsets.
        await new Promise((resolve) => setTimeout(resolve, 20 + random() * 400));
        beforeReady = !this.events.some((e) => e.event === 'ready');
      } else {
        await this.ready(60_000);
        await new Promise((resolve) => setTimeout(resolve, minRunMs + random() * 1_500));
      }
      if (!this.alive) throw new Error(`run ${this.run} died before it was killed: ${this.describe()}`);
    } finally {
      if (this.alive) await this.kill();
    }
    return beforeReady;
  }

  /** SIGKILL: no commit, no LeaveGroup, no lock release. */
  async kill(timeoutMs = 10_000): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exit(timeoutMs);
  }

  /** Graceful: the batch in hand is finished, the consumer closed (commit, leave); the process must exit 0. */
  async close(timeoutMs: number): Promise<void> {
    this.child.stdin.write('close\n');
    await this.exit(timeoutMs);
    if (this.exitCode !== 0) throw new Error(`consumer child did not close cleanly: ${this.describe()}`);
  }

  private async exit(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`consumer child did not exit in ${timeoutMs} ms: ${this.describe()}`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([this.exited, late]);
    } catch (err) {
      this.child.kill('SIGKILL');
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }
}

export function faultSeed(): number {
  const fromEnv = process.env.TIDEMARK_SEED;
  return fromEnv === undefined ? 0x7d3a11 : Number(fromEnv);
}

export const SOAK = process.env.TIDEMARK_SOAK === '1';
