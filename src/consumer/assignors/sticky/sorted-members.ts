import { AssignorError } from '../assignor.js';
import { compareStrings } from '../common.js';

/**
 * Java's `TreeSet<String>` of members ordered by how many partitions they
 * hold, then by member id (`SubscriptionComparator`). The sizes change, so,
 * as in Java, a member is removed before its assignment changes and added
 * back after; kept that way the set stays sorted, and a sorted array finds
 * what the tree would.
 */
export class SortedMembers {
  private readonly items: string[] = [];

  constructor(private readonly sizeOf: (member: string) => number) {}

  private compare(a: string, b: string): number {
    return this.sizeOf(a) - this.sizeOf(b) || compareStrings(a, b);
  }

  /** Index of the member, or -(insertion point) - 1. */
  private search(member: string): number {
    let lo = 0;
    let hi = this.items.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.compare(this.items[mid], member);
      if (c < 0) lo = mid + 1;
      else if (c > 0) hi = mid - 1;
      else return mid;
    }
    return -(lo + 1);
  }

  add(member: string): void {
    const i = this.search(member);
    if (i < 0) this.items.splice(-i - 1, 0, member);
  }

  remove(member: string): void {
    const i = this.search(member);
    if (i >= 0) this.items.splice(i, 1);
  }

  first(): string {
    if (this.items.length === 0) throw new AssignorError('sticky', 'no member left to balance');
    return this.items[0];
  }

  last(): string {
    if (this.items.length === 0) throw new AssignorError('sticky', 'no member left to balance');
    return this.items[this.items.length - 1];
  }

  /** A snapshot, smallest first: callers change the set while walking it and stop right after. */
  toArray(): readonly string[] {
    return [...this.items];
  }
}
