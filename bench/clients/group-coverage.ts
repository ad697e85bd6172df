/**
 * Which records a group read, and how often (bench/clients/group.ts). Every bench record carries its record
 * number in the first four bytes of its value (bench/load.ts), so a member keeps the numbers it read as runs
 * `[from, to)`; the parent lays every member's runs over `[0, total)` and counts each number's copies: a
 * number never read is a lost record (the round fails), a second copy is a re-read (after a rebalance a
 * member read what another, or itself, had already read) and is reported beside the rate.
 */

/** A run of consecutive record numbers, `[from, to)`. */
export type Run = [from: number, to: number];

/** The record number of a bench value: its first four bytes, big-endian; -1 when it has none. */
export function recordNumber(value: Uint8Array | null | undefined): number {
  if (value == null || value.length < 4) return -1;
  return ((value[0] << 24) | (value[1] << 16) | (value[2] << 8) | value[3]) >>> 0;
}

/**
 * The record numbers one member read, as runs (a member reads a partition's records in order, so a run grows
 * by one per record and breaks only where it switches partitions or is sent back). A run is merged with the
 * one it touches, never with one it overlaps: overlaps are copies, and the parent counts them.
 */
export class RecordRuns {
  private runs: Run[] = [];
  private from = -1;
  private to = -1;

  add(n: number): void {
    if (n === this.to) {
      this.to++;
      return;
    }
    if (this.to !== -1) this.runs.push([this.from, this.to]);
    this.from = n;
    this.to = n + 1;
  }

  /** The runs so far, sorted and compacted (also compacts what is kept, so the list stays short). */
  snapshot(): Run[] {
    this.runs = compact(this.runs);
    return this.to === -1 ? this.runs : compact([...this.runs, [this.from, this.to]]);
  }
}

/** Sorts runs and joins each to the one it touches (`to === from`); overlapping runs stay apart. */
export function compact(runs: readonly Run[]): Run[] {
  const sorted = [...runs].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Run[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && last[1] === r[0]) last[1] = r[1];
    else out.push([r[0], r[1]]);
  }
  return out;
}

export interface Coverage {
  /** Copies read, every member's runs together. */
  copies: number;
  /** Record numbers in `[0, total)` read at least once. */
  distinct: number;
  /** Copies beyond the first (copies − distinct, counting any outside copies too). */
  reReads: number;
  /** Sum of the record numbers of the re-read copies, mod 2^32: what they added to the members' checksums. */
  reReadSum: number;
  /** Numbers in `[0, total)` nobody read, and the first of them (-1 when none). */
  missing: number;
  firstMissing: number;
  /** Copies of numbers outside `[0, total)` (not records of this workload). */
  outside: number;
}

/** Lays the members' runs over `[0, total)`: copies, distinct, re-reads and gaps. */
export function coverage(memberRuns: ReadonlyArray<readonly Run[]>, total: number): Coverage {
  const edges: Array<[at: number, delta: number]> = [];
  let copies = 0;
  for (const runs of memberRuns)
    for (const [from, to] of runs) {
      if (to <= from) continue;
      copies += to - from;
      edges.push([from, 1], [to, -1]);
    }
  edges.sort((a, b) => a[0] - b[0]);
  let depth = 0;
  let at = 0;
  let distinct = 0;
  let outside = 0;
  let reReadSum = 0;
  let missing = 0;
  let firstMissing = -1;
  const span = (from: number, to: number, count: number) => {
    const inFrom = Math.max(from, 0);
    const inTo = Math.min(to, total);
    const inside = Math.max(0, inTo - inFrom);
    outside += (to - from - inside) * count;
    if (count === 0) {
      if (inside > 0 && firstMissing === -1) firstMissing = inFrom;
      missing += inside;
      return;
    }
    distinct += inside;
    if (count > 1 && inside > 0) {
      // Sum of inFrom..inTo-1, times the extra copies; exact below 2^53 for any bench size.
      const sum = ((inFrom + inTo - 1) * inside) / 2;
      reReadSum = (reReadSum + (((sum % 2 ** 32) * (count - 1)) % 2 ** 32)) % 2 ** 32;
    }
  };
  for (const [edge, delta] of edges) {
    if (edge > at) span(at, edge, depth);
    at = Math.max(at, edge);
    depth += delta;
  }
  if (at < total) span(at, total, 0);
  return { copies, distinct, reReads: copies - distinct, reReadSum, missing, firstMissing, outside };
}
