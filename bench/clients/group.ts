/**
 * One round of a group workload (bench/workloads.ts, `group-4`): `members` processes of one client join one
 * fresh consumer group on the topic and read it together. No member knows how many records it will get
 * (that is the group's assignment), so each reports its progress on stdout and the parent tells them all to
 * stop (a `stop` line on stdin) once their records add up to the workload's. The round's rate is the total
 * records over the time from the first member's join to the last record any member read; CPU and peak RSS
 * are summed over the members.
 *
 * Member protocol (bench/clients/group-member.ts for Node, java/GroupMember.java), one JSON object a line:
 * `{"joinedAt":ms}` once joined; `{"records":n,"lastAt":ms}` as it reads; after `stop`, `{"final":true,
 * "records","bytes","checksum","joinedAt","lastAt","cpuSeconds","peakRssBytes","runtime"}`. Times are epoch
 * milliseconds (fractional), comparable across the processes of one machine. With BENCH_GROUP_TIMELINE=1 a
 * member also sends `{"event","at",...}` lines and the round's timeline is printed on stderr.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { ClientResult } from './result.js';

export interface MemberCommand {
  cmd: string;
  args: string[];
}

export interface MemberFinal {
  records: number;
  bytes: number;
  checksum?: number;
  joinedAt: number;
  lastAt: number;
  cpuSeconds: number;
  peakRssBytes: number;
  runtime: string;
}

/** Adds up the members' final reports into one round's result; throws when a member never joined or read. */
export function groupResult(finals: readonly MemberFinal[], withChecksum: boolean): ClientResult {
  const joined = finals.map((f) => f.joinedAt).filter((t) => Number.isFinite(t) && t > 0);
  const last = finals.map((f) => f.lastAt).filter((t) => Number.isFinite(t) && t > 0);
  if (joined.length === 0 || last.length === 0) throw new Error('no member joined and read records');
  const sum = (pick: (f: MemberFinal) => number) => finals.reduce((s, f) => s + pick(f), 0);
  return {
    records: sum((f) => f.records),
    bytes: sum((f) => f.bytes),
    seconds: (Math.max(...last) - Math.min(...joined)) / 1000,
    cpuSeconds: sum((f) => f.cpuSeconds),
    peakRssBytes: sum((f) => f.peakRssBytes),
    runtime: `${finals[0]?.runtime ?? '?'} × ${finals.length}`,
    checksum: withChecksum ? finals.reduce((s, f) => (s + (f.checksum ?? 0)) >>> 0, 0) : undefined,
  };
}

/** Runs `members` processes (`command(group)` each) in one fresh group until they have read `total` records. */
export async function runGroupMembers(
  members: number,
  total: number,
  command: (group: string) => MemberCommand,
  options: { withChecksum?: boolean; timeoutMs?: number } = {},
): Promise<ClientResult> {
  const group = `bench-group-${process.pid}-${Date.now()}`;
  const progress = new Array<number>(members).fill(0);
  const finals: MemberFinal[] = [];
  const timeline: Array<{ member: number; event: string; at: number; detail: string }> = [];
  const spawnedAt = performance.timeOrigin + performance.now();
  const children = Array.from({ length: members }, () => {
    const { cmd, args } = command(group);
    return spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  });
  let stopped = false;
  const stopAll = () => {
    if (stopped) return;
    stopped = true;
    for (const c of children) c.stdin.end('stop\n');
  };
  const timer = setTimeout(
    () => {
      for (const c of children) c.kill('SIGKILL');
    },
    options.timeoutMs ?? 15 * 60_000,
  );
  try {
    await Promise.all(
      children.map(
        (child, i) =>
          new Promise<void>((resolve, reject) => {
            let stderr = '';
            child.stderr.on('data', (d: Buffer) => {
              stderr = (stderr + d.toString()).slice(-4000);
            });
            createInterface({ input: child.stdout }).on('line', (line) => {
              let m: Record<string, unknown>;
              try {
                m = JSON.parse(line);
              } catch {
                return; // a stray log line
              }
              if (typeof m.event === 'string' && typeof m.at === 'number') {
                const { event, at, ...detail } = m;
                timeline.push({ member: i + 1, event, at, detail: JSON.stringify(detail) });
              } else if (m.final === true) {
                finals.push(m as unknown as MemberFinal);
                const lastAt = Number(m.lastAt);
                if (timeline.length > 0 && lastAt > 0)
                  timeline.push({ member: i + 1, event: 'last record', at: lastAt, detail: '{}' });
              } else if (typeof m.records === 'number') {
                progress[i] = m.records;
                if (progress.reduce((a, b) => a + b, 0) >= total) stopAll();
              }
            });
            child.on('error', reject);
            child.on('close', (code, signal) => {
              if (code === 0) resolve();
              else reject(new Error(`group member ${i + 1} exited ${code ?? signal}: ${stderr.slice(-800)}`));
            });
          }),
      ),
    );
  } finally {
    clearTimeout(timer);
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  }
  if (timeline.length > 0) printTimeline(spawnedAt, timeline);
  if (finals.length !== members) throw new Error(`${members - finals.length} group member(s) gave no final report`);
  return groupResult(finals, options.withChecksum ?? true);
}

/** The round's timeline on stderr, in ms since the members were spawned (BENCH_GROUP_TIMELINE=1). */
function printTimeline(
  spawnedAt: number,
  timeline: Array<{ member: number; event: string; at: number; detail: string }>,
): void {
  const rows = [...timeline];
  rows.sort((a, b) => a.at - b.at);
  const lines = rows.map(
    (r) =>
      `  +${(r.at - spawnedAt).toFixed(0).padStart(6)} ms  member ${r.member}  ${r.event} ${r.detail === '{}' ? '' : r.detail}`,
  );
  process.stderr.write(`group round timeline:\n${lines.join('\n')}\n`);
}
