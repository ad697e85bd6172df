import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as net from 'node:net';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Asks the OS for n distinct free loopback ports. They are released before Java binds them, so another
 * process could grab one in between; a start that then fails to bind reports it in the log tail.
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const server = net.createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      servers.push(server);
    }
    return servers.map((s) => (s.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

function commandLine(pid: number): string | null {
  try {
    if (existsSync(`/proc/${pid}/cmdline`)) {
      // A zombie is gone for our purposes: it holds no ports and no files.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return null;
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    }
    if (process.platform === 'linux') return null;
    return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/**
 * True when pid is alive AND its command line contains marker (the broker's data dir).
 * The marker guards against signalling an unrelated process that reused a stale pid.
 */
export function isOurProcess(pid: number, marker: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return commandLine(pid)?.includes(marker) ?? false;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return commandLine(pid) !== null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** SIGTERM (Kafka shuts down cleanly), then SIGKILL if it is still there after graceMs. */
export async function terminate(pid: number, marker: string, graceMs = 15_000): Promise<void> {
  if (!isOurProcess(pid, marker)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isOurProcess(pid, marker)) return;
    await sleep(100);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  const killDeadline = Date.now() + 5_000;
  while (isOurProcess(pid, marker) && Date.now() < killDeadline) await sleep(50);
  if (isOurProcess(pid, marker)) throw new Error(`process ${pid} survived SIGKILL`);
}

/** Last lines of a log file, for error messages; never throws. */
export async function tail(file: string, lines = 40): Promise<string> {
  try {
    const text = await readFile(file, 'utf8');
    return text.trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return `(no log at ${file})`;
  }
}
