/** A tidemark member running in a child process (member-process.ts), followed through the lines it prints. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { GroupMembershipOptions } from '../../../src/consumer/group/index.js';
import { repoRoot } from '../../harness/paths.js';
import type { TrackedMember } from './tracker.js';

const SCRIPT = fileURLToPath(new URL('./member-process.ts', import.meta.url));

interface ChildEvent {
  event: 'rebalance' | 'started' | 'error' | 'failed' | 'left';
  partitions?: number[];
  generation?: number;
  memberId?: string;
  name?: string;
  message?: string;
}

export class ChildMember implements TrackedMember {
  readonly events: ChildEvent[] = [];
  private stderr = '';
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcessWithoutNullStreams,
  ) {
    child.stderr.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-8000);
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('@@ ')) this.events.push(JSON.parse(line.slice(3)) as ChildEvent);
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  static spawn(name: string, bootstrap: string, topic: string, options: GroupMembershipOptions): ChildMember {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, JSON.stringify({ bootstrap, topic, options })], {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new ChildMember(name, child);
  }

  get pid(): number {
    return this.child.pid!;
  }

  owned(): number[] {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return [];
    return this.lastRebalance()?.partitions ?? [];
  }

  generation(): number {
    return this.lastRebalance()?.generation ?? -1;
  }

  private lastRebalance(): ChildEvent | undefined {
    for (let i = this.events.length - 1; i >= 0; i--) if (this.events[i].event === 'rebalance') return this.events[i];
    return undefined;
  }

  isStable(): boolean {
    return this.child.exitCode === null && this.events.some((e) => e.event === 'started');
  }

  async started(timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!this.events.some((e) => e.event === 'started')) {
      const failed = this.events.find((e) => e.event === 'failed');
      if (failed !== undefined) throw new Error(`${this.name} failed to join: ${failed.name}: ${failed.message}`);
      if (this.child.exitCode !== null)
        throw new Error(`${this.name} exited (${this.child.exitCode}):\n${this.stderr}`);
      if (Date.now() > until) throw new Error(`${this.name} did not join within ${timeoutMs} ms:\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The process's own leave() then exit; `evenIfStatic` for a static member that must leave for good. */
  async leave(evenIfStatic = false): Promise<void> {
    this.child.stdin.write(evenIfStatic ? 'leave-static\n' : 'leave\n');
    await this.exited;
  }

  /** SIGKILL: no LeaveGroup, no socket close handshake; the coordinator must notice by the session timeout. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
