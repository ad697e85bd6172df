/**
 * The sink files consumer children write (see consumer-child.ts), read back and checked: which records were
 * processed by which run, what each run reported committed, and what that says about loss and duplicates.
 */
import { existsSync, readFileSync } from 'node:fs';

export interface SinkEntry {
  run: number;
  /** `r`: a record processed (written before the loop body returned); `c`: a commit the consumer reported. */
  kind: 'r' | 'c';
  partition: number;
  offset: number;
}

/** Every complete line; a line a SIGKILL cut short has no newline and is not counted (its write never returned). */
export function readSink(file: string): SinkEntry[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'latin1');
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  const out: SinkEntry[] = [];
  for (const line of complete.split('\n')) {
    if (line === '') continue;
    const fields = line.split(' ');
    const [run, kind, partition, offset] = fields;
    // Strict: two writers' lines run together (a torn append) must fail loudly, not parse as something else.
    if (fields.length !== 4 || (kind !== 'r' && kind !== 'c') || !fields.every((f) => f === kind || /^\d+$/.test(f))) {
      throw new Error(`sink ${file}: bad line ${JSON.stringify(line)}`);
    }
    out.push({ run: Number(run), kind, partition: Number(partition), offset: Number(offset) });
  }
  return out;
}

/** Whether every offset below `ends[p]` of every partition has been processed at least once. */
export function coversAll(entries: readonly SinkEntry[], ends: readonly number[]): boolean {
  const seen = ends.map((end) => new Uint8Array(end));
  let missing = ends.reduce((a, b) => a + b, 0);
  for (const e of entries) {
    if (e.kind !== 'r' || e.offset >= ends[e.partition]) continue;
    if (seen[e.partition][e.offset] === 0) missing--;
    seen[e.partition][e.offset] = 1;
  }
  return missing === 0;
}

/** Per partition, how many offsets below its end were never processed, and the first of them (failure messages). */
export function missing(entries: readonly SinkEntry[], ends: readonly number[]): string {
  const seen = ends.map((end) => new Uint8Array(end));
  for (const e of entries) if (e.kind === 'r' && e.offset < ends[e.partition]) seen[e.partition][e.offset] = 1;
  return seen.map((s, p) => `${p}: ${s.length - s.reduce((a, b) => a + b, 0)} missing from ${s.indexOf(0)}`).join(', ');
}

export interface RestartCheck {
  /** Records processed, duplicates included. */
  processed: number;
  /** Offsets below the log end never processed. */
  lost: number;
  /** Deliveries beyond the first. */
  duplicated: number;
  /**
   * Per killed run: records it processed at or after the last commit it reported, per partition, summed —
   * the records a restart may deliver again. Each restart's duplicates must stay within it.
   */
  inFlightAtKill: Map<number, number>;
  /** Per killed run: duplicates its restart caused. */
  duplicatesAfterKill: Map<number, number>;
  violations: string[];
}

/**
 * For one consumer killed and restarted again and again (runs strictly one after another), per partition:
 * - within a run, offsets go up by one (no gap, no repeat);
 * - a run starts at or below the end of what earlier runs processed (else the records between are lost),
 *   and at or above the highest commit an earlier run reported (else a commit went backwards or was
 *   ignored): so the duplicates of each restart are at most the records processed after the last commit;
 * - a reported commit never exceeds what was processed;
 * - what the store holds after a kill (`storedAfterKill`) lies between the last reported commit and the end
 *   of what was processed, and the next run starts at or above it.
 */
export function checkRestarts(
  entries: readonly SinkEntry[],
  ends: readonly number[],
  storedAfterKill: ReadonlyMap<number, ReadonlyMap<number, number>>,
): RestartCheck {
  const violations: string[] = [];
  const end = ends.map(() => 0);
  const floor = ends.map(() => 0);
  const stored = ends.map(() => 0);
  const last = ends.map((): { run: number; offset: number } | undefined => undefined);
  const inFlightAtKill = new Map<number, number>();
  const duplicatesAfterKill = new Map<number, number>();
  /** The run that was killed last before each partition's next reader. */
  const lastRunOf = ends.map(() => -1);
  let processed = 0;
  let duplicated = 0;
  /** Offsets skipped over, within a run or by a restart: lost even if the run later reached the end. */
  let gaps = 0;
  const runs = [...new Set(entries.map((e) => e.run))].sort((a, b) => a - b);
  const byRun = new Map(runs.map((r) => [r, entries.filter((e) => e.run === r)]));
  for (const run of runs) {
    for (const e of byRun.get(run)!) {
      const p = e.partition;
      if (e.kind === 'c') {
        if (e.offset > end[p]) violations.push(`run ${run}: committed ${p}@${e.offset} beyond processed ${end[p]}`);
        if (e.offset < floor[p])
          violations.push(`run ${run}: commit of ${p} went back from ${floor[p]} to ${e.offset}`);
        floor[p] = Math.max(floor[p], e.offset);
        continue;
      }
      processed++;
      const previous = last[p];
      if (previous?.run === run && e.offset !== previous.offset + 1) {
        violations.push(`run ${run}: partition ${p} went from ${previous.offset} to ${e.offset}`);
        gaps += Math.max(0, e.offset - end[p]);
      } else if (previous?.run !== run) {
        // First record of this run on p: where the restart resumed.
        if (e.offset > end[p]) violations.push(`run ${run}: ${p}@[${end[p]}, ${e.offset}) lost`);
        gaps += Math.max(0, e.offset - end[p]);
        if (e.offset < floor[p]) violations.push(`run ${run}: ${p} restarted at ${e.offset}, below commit ${floor[p]}`);
        if (e.offset < stored[p])
          violations.push(`run ${run}: ${p} restarted at ${e.offset}, below stored ${stored[p]}`);
      }
      if (e.offset < end[p]) {
        // Processed before: a duplicate, charged to the kill that preceded this run's reading of p.
        duplicated++;
        const killed = lastRunOf[p];
        duplicatesAfterKill.set(killed, (duplicatesAfterKill.get(killed) ?? 0) + 1);
      }
      last[p] = { run, offset: e.offset };
      end[p] = Math.max(end[p], e.offset + 1);
    }
    const afterKill = storedAfterKill.get(run);
    if (afterKill !== undefined) {
      let inFlight = 0;
      for (let p = 0; p < ends.length; p++) {
        inFlight += end[p] - floor[p];
        const s = afterKill.get(p) ?? 0;
        if (s < floor[p] || s > end[p]) {
          violations.push(
            `after killing run ${run}: stored ${p}@${s} outside [reported ${floor[p]}, processed ${end[p]}]`,
          );
        }
        stored[p] = Math.max(stored[p], s);
        lastRunOf[p] = run;
      }
      inFlightAtKill.set(run, inFlight);
    }
  }
  for (const [run, dup] of duplicatesAfterKill) {
    const bound = inFlightAtKill.get(run) ?? 0;
    if (dup > bound) violations.push(`restart after run ${run}: ${dup} duplicates, more than ${bound} in flight`);
  }
  const lost = gaps + ends.reduce((sum, e, p) => sum + Math.max(0, e - end[p]), 0);
  return { processed, lost, duplicated, inFlightAtKill, duplicatesAfterKill, violations };
}

export interface GroupCheck {
  processed: number;
  lost: number;
  duplicated: number;
  /** Deliveries by faulted runs (killed, expired, fenced) at or after their own last commit on the partition. */
  inFlightOfFaulted: number;
  violations: string[];
}

/**
 * For a group whose members ran concurrently: no offset below the end unprocessed, each member's offsets per
 * partition going up, and every repeated delivery explained: of the n deliveries of a record, at least n - 1
 * must be by faulted runs, of records at or after that run's last commit for the partition (in flight when
 * it died or was expired). A duplicate any other way (a graceful leave, a rebalance between live members)
 * is a violation.
 */
export function checkGroup(
  entries: readonly SinkEntry[],
  ends: readonly number[],
  faulted: ReadonlySet<number>,
): GroupCheck {
  const violations: string[] = [];
  const lastCommit = new Map<string, number>();
  for (const e of entries) {
    if (e.kind !== 'c') continue;
    const key = `${e.run}/${e.partition}`;
    lastCommit.set(key, Math.max(lastCommit.get(key) ?? 0, e.offset));
  }
  const count = ends.map((end) => new Uint16Array(end));
  const excused = ends.map((end) => new Uint16Array(end));
  const lastOf = new Map<string, number>();
  let processed = 0;
  let inFlightOfFaulted = 0;
  for (const e of entries) {
    if (e.kind !== 'r') continue;
    processed++;
    const key = `${e.run}/${e.partition}`;
    const previous = lastOf.get(key);
    if (previous !== undefined && e.offset <= previous && !faulted.has(e.run)) {
      violations.push(`run ${e.run}: partition ${e.partition} went back from ${previous} to ${e.offset}`);
    }
    lastOf.set(key, e.offset);
    if (e.offset >= ends[e.partition]) continue;
    count[e.partition][e.offset]++;
    if (faulted.has(e.run) && e.offset >= (lastCommit.get(key) ?? 0)) {
      excused[e.partition][e.offset]++;
      inFlightOfFaulted++;
    }
  }
  let lost = 0;
  let duplicated = 0;
  for (let p = 0; p < ends.length; p++) {
    for (let o = 0; o < ends[p]; o++) {
      const n = count[p][o];
      if (n === 0) lost++;
      if (n <= 1) continue;
      duplicated += n - 1;
      if (excused[p][o] < n - 1 && violations.length < 20) {
        const runs = entries.filter((e) => e.kind === 'r' && e.partition === p && e.offset === o).map((e) => e.run);
        violations.push(`${p}@${o} delivered ${n} times (runs ${runs.join(', ')}), not explained by a fault`);
      }
    }
  }
  return { processed, lost, duplicated, inFlightOfFaulted, violations };
}
