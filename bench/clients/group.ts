/**
 * One round of a group workload (bench/workloads.ts, `group-4`): `members` processes of one client join one
 * fresh consumer group on the topic and read it together.
 *
 * A start barrier makes it a group from the first moment: each member starts, connects (metadata of the
 * topic) and says `{"ready":…}`; once all have, the parent sends `go` on their stdin and they subscribe
 * together. The round's clock runs from that release (the same point for every client) to the last record any
 * member read. No member knows how many records it will get, so each reports the record numbers it has read
 * (bench/clients/group-coverage.ts) and the parent says `stop` once every record of the workload has been
 * read by someone; records read twice (after a rebalance) are counted as re-reads, a record nobody read fails
 * the round. Just before `stop` the parent describes the group (DescribeGroups): its protocol, assignor and
 * each member's partitions, for the log and the results header. CPU and peak RSS are summed over the members.
 *
 * Member protocol (bench/clients/group-member.ts for Node, java/BenchGroupMember.java), one JSON object a line
 * on stdout: `{"ready":ms}` once connected; `{"joinedAt":ms}` at its first assignment; `{"records":n,"lastAt":
 * ms,"read":[[from,to],…]}` as it reads; after `stop`, `{"final":true,"records","bytes","checksum","joinedAt",
 * "lastAt","cpuSeconds","peakRssBytes","runtime","read"}`. Times are epoch milliseconds (fractional),
 * comparable across the processes of one machine. With BENCH_GROUP_TIMELINE=1 a member also sends
 * `{"event","at",...}` lines and the round's timeline is printed on stderr; BENCH_GROUP_STAGGER_MS=n
 * releases member k k × n ms after the first (a check that commit on revoke keeps re-reads away, not a
 * measurement). A member of an older commit (`--baseline`) neither waits for `go` nor sends `read`: such a
 * round is timed from the first join and counted by records, as before the barrier.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client } from '../../src/client.js';
import type { Workload } from '../load.js';
import { coverage, type Run } from './group-coverage.js';
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
  /** The record numbers it read (absent from members of older commits). */
  read?: Run[];
}

/** What a round needs to know of its workload. */
export interface GroupRound {
  bootstrap: string;
  topic: string;
  /** Records in the topic. */
  records: number;
  /** Key + value bytes of every record (the bench's records are all one size). */
  recordBytes: number;
}

/**
 * Adds up the members' final reports into one round's result. `releasedAt` is the barrier's release (0 when
 * the members did not wait for one: then the first join). With every member's record numbers, records,
 * bytes and checksum count each record once and `reReads` the extra copies; throws when a member never
 * joined or read, when a record is missing, or when a member's numbers and count disagree.
 */
export function groupResult(
  finals: readonly MemberFinal[],
  round: Pick<GroupRound, 'records' | 'recordBytes'>,
  options: { withChecksum: boolean; releasedAt: number },
): ClientResult {
  const joined = finals.map((f) => f.joinedAt).filter((t) => Number.isFinite(t) && t > 0);
  const last = finals.map((f) => f.lastAt).filter((t) => Number.isFinite(t) && t > 0);
  if (joined.length === 0 || last.length === 0) throw new Error('no member joined and read records');
  const sum = (pick: (f: MemberFinal) => number) => finals.reduce((s, f) => s + pick(f), 0);
  const start = options.releasedAt > 0 ? options.releasedAt : Math.min(...joined);
  const memberChecksums = finals.reduce((s, f) => (s + (f.checksum ?? 0)) >>> 0, 0);
  const result: ClientResult = {
    records: sum((f) => f.records),
    bytes: sum((f) => f.bytes),
    seconds: (Math.max(...last) - start) / 1000,
    cpuSeconds: sum((f) => f.cpuSeconds),
    peakRssBytes: sum((f) => f.peakRssBytes),
    runtime: `${finals[0]?.runtime ?? '?'} × ${finals.length}`,
    checksum: options.withChecksum ? memberChecksums : undefined,
  };
  const runs = finals.map((f) => f.read);
  if (!runs.every((r) => r !== undefined)) return result;
  finals.forEach((f, i) => {
    const numbered = (f.read ?? []).reduce((n, [from, to]) => n + (to - from), 0);
    if (numbered !== f.records)
      throw new Error(
        `member ${i + 1} counted ${f.records} records but numbered ${numbered} (a value without its number)`,
      );
  });
  const c = coverage(runs, round.records);
  if (c.outside > 0) throw new Error(`the group read ${c.outside} records that are not the workload's`);
  if (c.missing > 0)
    throw new Error(
      `the group lost ${c.missing} of ${round.records} records (first missing: record ${c.firstMissing})`,
    );
  return {
    ...result,
    records: c.distinct,
    bytes: result.bytes - c.reReads * round.recordBytes,
    checksum: options.withChecksum ? (memberChecksums - c.reReadSum + 2 ** 32) % 2 ** 32 : undefined,
    reReads: c.reReads,
  };
}

/** The round of a workload on the bench's broker. */
export const groupRound = (bootstrap: string, w: Workload): GroupRound => ({
  bootstrap,
  topic: w.topic,
  records: w.records,
  recordBytes: w.keyBytes + w.valueBytes,
});

/**
 * Whether the members' runs so far cover every record number below `total` (a member yet to report adds
 * nothing; copies read twice count once, so re-reads never end a round early).
 */
export const everyRecordRead = (reading: ReadonlyArray<readonly Run[] | undefined>, total: number): boolean =>
  coverage(
    reading.map((r) => r ?? []),
    total,
  ).missing === 0;

/**
 * The heartbeat interval every member uses (BENCH_GROUP_HEARTBEAT_MS in its environment), the one setting of
 * the group workload that is not the clients' default (3 s). In the classic protocol a member learns that
 * others joined at its next heartbeat; on a broker with `group.initial.rebalance.delay.ms` 0 (the test and
 * bench brokers) the first member to join is assigned every partition at once, and with 3 s it could read
 * the whole topic before the group forms. At 100 ms the group forms within a few hundred ms of the release.
 */
export const GROUP_HEARTBEAT_MS = 100;

const now = () => performance.timeOrigin + performance.now();

/** Runs `members` processes (`command(group)` each) in one fresh group until they have read every record. */
export async function runGroupMembers(
  members: number,
  round: GroupRound,
  command: (group: string) => MemberCommand,
  options: { withChecksum?: boolean; timeoutMs?: number } = {},
): Promise<ClientResult> {
  const group = `bench-group-${process.pid}-${Date.now()}`;
  const progress = new Array<number>(members).fill(0);
  const reading = new Array<Run[] | undefined>(members).fill(undefined);
  let ready = 0;
  let releasedAt = 0;
  let legacy = false;
  const finals: MemberFinal[] = [];
  const timeline: TimelineRow[] = [];
  const spawnedAt = now();
  const children = Array.from({ length: members }, () => {
    const { cmd, args } = command(group);
    return spawn(cmd, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, BENCH_GROUP_HEARTBEAT_MS: String(GROUP_HEARTBEAT_MS) },
    });
  });
  // BENCH_GROUP_STAGGER_MS=n (a check, not a measurement): member k is released k × n ms after the first, so
  // the group rebalances while members read, to see each client's commit on revoke keep re-reads away.
  const stagger = Number(process.env.BENCH_GROUP_STAGGER_MS ?? 0);
  const release = () => {
    releasedAt = now();
    timeline.push({ member: 0, event: 'barrier released', at: releasedAt, detail: '{}' });
    children.forEach((c, k) => {
      if (stagger > 0 && k > 0) setTimeout(() => c.stdin.write('go\n'), k * stagger);
      else c.stdin.write('go\n');
    });
  };
  let stopping = false;
  let described = 'not described';
  const stopAll = async () => {
    if (stopping) return;
    stopping = true;
    described = await describeGroup(round.bootstrap, round.topic, group);
    for (const c of children) c.stdin.end('stop\n');
  };
  const complete = () =>
    legacy ? progress.reduce((a, b) => a + b, 0) >= round.records : everyRecordRead(reading, round.records);
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
              if (typeof m.ready === 'number') {
                timeline.push({ member: i + 1, event: 'ready', at: m.ready, detail: '{}' });
                if (++ready === members) release();
              } else if (typeof m.event === 'string' && typeof m.at === 'number') {
                const { event, at, ...detail } = m;
                timeline.push({ member: i + 1, event, at, detail: JSON.stringify(detail) });
              } else if (m.final === true) {
                finals.push(m as unknown as MemberFinal);
                const lastAt = Number(m.lastAt);
                if (lastAt > 0) timeline.push({ member: i + 1, event: 'last record', at: lastAt, detail: '{}' });
              } else if (typeof m.records === 'number') {
                // A member that reads before the release is one of an older commit: no barrier, no numbers.
                if (releasedAt === 0 || !Array.isArray(m.read)) legacy = true;
                progress[i] = m.records;
                if (Array.isArray(m.read)) reading[i] = m.read as Run[];
                if (complete()) void stopAll();
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
  if (finals.length !== members) throw new Error(`${members - finals.length} group member(s) gave no final report`);
  const result = groupResult(finals, round, {
    withChecksum: options.withChecksum ?? true,
    releasedAt: legacy ? 0 : releasedAt,
  });
  const perMember = finals.map((f) => f.records.toLocaleString('en-US')).join(' / ');
  process.stderr.write(
    `  group: ${described}; members read ${perMember} records, ${result.records.toLocaleString('en-US')} distinct, ${result.reReads?.toLocaleString('en-US') ?? 'unknown'} re-read\n`,
  );
  if (process.env.BENCH_GROUP_TIMELINE === '1') printTimeline(releasedAt || spawnedAt, timeline);
  return { ...result, group: described };
}

/**
 * The group as the coordinator sees it once every record is read: `classic, range, 4 members holding 8/8/8/8
 * partitions` (a member holding none would show 0). Bounded, and never fails the round.
 */
async function describeGroup(bootstrap: string, topic: string, groupId: string): Promise<string> {
  const client = new Client({ bootstrap: [bootstrap], clientId: 'tidemark-bench-group-describe' });
  try {
    const answer = client.groups.describeGroups([groupId]).then(
      ([g]) => {
        if (g === undefined) return 'not described';
        const held = (g.members ?? []).map((m) => m.assignment.filter((p) => p.topic === topic).length);
        return `${g.type ?? '?'}, ${g.assignor || `no assignor (${g.state})`}, ${held.length} members holding ${held.join('/')} partitions`;
      },
      (e: Error) => `not described (${e.message})`,
    );
    const timeout = new Promise<string>((r) => setTimeout(() => r('not described (timed out)'), 10_000).unref());
    return await Promise.race([answer, timeout]);
  } finally {
    await client.close().catch(() => {});
  }
}

interface TimelineRow {
  /** 0: the parent. */
  member: number;
  event: string;
  at: number;
  detail: string;
}

/** The round's timeline on stderr, in ms since the barrier's release (BENCH_GROUP_TIMELINE=1). */
function printTimeline(origin: number, timeline: TimelineRow[]): void {
  const rows = [...timeline];
  rows.sort((a, b) => a.at - b.at);
  const lines = rows.map(
    (r) =>
      `  ${(r.at - origin).toFixed(0).padStart(7)} ms  ${r.member === 0 ? 'parent  ' : `member ${r.member}`}  ${r.event} ${r.detail === '{}' ? '' : r.detail}`,
  );
  process.stderr.write(`group round timeline (ms from the barrier's release):\n${lines.join('\n')}\n`);
}
