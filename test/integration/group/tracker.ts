/** Watching a group's members (tidemark in-process or child process, Java) until their split settles. */

export interface TrackedMember {
  readonly name: string;
  /** Partition numbers of the test topic owned now. */
  owned(): number[];
  /** The generation (classic) or member epoch (KIP-848) of the member's latest assignment. */
  generation(): number;
  /** In the group with an assignment, and not in the middle of a rebalance step. */
  isStable(): boolean;
}

export interface Split {
  /** Member name → partitions, as settled. */
  owners: Map<string, number[]>;
  generations: Map<string, number>;
}

export interface SettleOptions {
  timeoutMs?: number;
  /** Classic: every member must report the same generation (one completed rebalance). */
  sameGeneration: boolean;
  /** How long the split must stay unchanged to count as settled. */
  quietMs?: number;
}

/**
 * Waits until `members` split `partitions` partitions with no overlap and no gap, evenly (single-topic splits
 * of every assignor used here differ by at most one), every member stable, and (classic) all in one generation;
 * and the split stays so for `quietMs`. Throws with the last split seen when it does not settle in time.
 */
export async function waitForSplit(
  members: readonly TrackedMember[],
  partitions: number,
  options: SettleOptions,
): Promise<Split> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const quietMs = options.quietMs ?? 500;
  const until = Date.now() + timeoutMs;
  let last = '';
  let since = 0;
  for (;;) {
    const now = Date.now();
    const picture = describe(members);
    const good = isSettled(members, partitions, options.sameGeneration);
    if (good && picture === last) {
      if (now - since >= quietMs) return snapshot(members);
    } else {
      last = picture;
      since = now;
    }
    if (now > until) {
      throw new Error(`the group did not settle on ${partitions} partitions within ${timeoutMs} ms: ${picture}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function isSettled(members: readonly TrackedMember[], partitions: number, sameGeneration: boolean): boolean {
  const seen = new Set<number>();
  let total = 0;
  const counts: number[] = [];
  for (const m of members) {
    if (!m.isStable()) return false;
    const owned = m.owned();
    counts.push(owned.length);
    total += owned.length;
    for (const p of owned) seen.add(p);
  }
  if (total !== partitions || seen.size !== partitions) return false;
  if (Math.max(...counts) - Math.min(...counts) > 1) return false;
  if (sameGeneration && new Set(members.map((m) => m.generation())).size !== 1) return false;
  return true;
}

function describe(members: readonly TrackedMember[]): string {
  return members.map((m) => `${m.name}@${m.generation()}${m.isStable() ? '' : '*'}:[${m.owned().join(',')}]`).join(' ');
}

function snapshot(members: readonly TrackedMember[]): Split {
  return {
    owners: new Map(members.map((m) => [m.name, m.owned()])),
    generations: new Map(members.map((m) => [m.name, m.generation()])),
  };
}

/** Partitions that changed owner between two splits, ignoring members that are in only one of them. */
export function moved(before: Split, after: Split): Array<{ partition: number; from: string; to: string }> {
  const ownerOf = (s: Split) => {
    const m = new Map<number, string>();
    for (const [name, ps] of s.owners) for (const p of ps) m.set(p, name);
    return m;
  };
  const a = ownerOf(before);
  const b = ownerOf(after);
  const out: Array<{ partition: number; from: string; to: string }> = [];
  for (const [p, to] of b) {
    const from = a.get(p);
    if (from !== undefined && from !== to) out.push({ partition: p, from, to });
  }
  return out;
}

/**
 * The in-process members' view of who holds what: a partition may be handed to a member only after its previous
 * owner's onRevoked (or onLost) has run. Violations are collected for the test to assert none happened.
 */
export class OwnershipLedger {
  private readonly owner = new Map<number, string>();
  readonly violations: string[] = [];

  assigned(member: string, partitions: readonly number[]): void {
    for (const p of partitions) {
      const held = this.owner.get(p);
      if (held !== undefined && held !== member)
        this.violations.push(`${p} assigned to ${member} while ${held} owns it`);
      this.owner.set(p, member);
    }
  }

  released(member: string, partitions: readonly number[]): void {
    for (const p of partitions) if (this.owner.get(p) === member) this.owner.delete(p);
  }
}
