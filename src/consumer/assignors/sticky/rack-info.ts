import { type AssignmentInput, type TP, useRackAwareAssignment } from '../common.js';

/**
 * Racks for the sticky assignors (`AbstractStickyAssignor.RackInfo`, KIP-881).
 * When rack-aware assignment applies, `consumerRacks` and `partitionRacks`
 * are filled; otherwise both are empty and every rack check passes.
 */
export class RackInfo {
  readonly consumerRacks = new Map<string, string>();
  readonly partitionRacks = new Map<TP, ReadonlySet<string>>();
  /**
   * Per partition, how many members sit on one of its racks. Java fills this
   * whenever some member has a rack, even if rack-aware assignment is then
   * off, and sorts by it all the same; so does this.
   */
  private readonly numConsumersByPartition = new Map<TP, number>();

  constructor(input: AssignmentInput) {
    const consumersByRack = new Map<string, string[]>();
    for (const s of input.subscriptions) {
      if (s.rackId === undefined) continue;
      const list = consumersByRack.get(s.rackId) ?? [];
      list.push(s.memberId);
      consumersByRack.set(s.rackId, list);
    }

    const partitionRacks = new Map<TP, ReadonlySet<string>>();
    const allPartitionRacks = new Set<string>();
    if (consumersByRack.size > 0) {
      for (const [topic, info] of input.partitionsPerTopic) {
        for (let p = 0; p < info.count; p++) {
          partitionRacks.set(input.tps.get(topic, p), info.racks[p]);
          for (const r of info.racks[p]) allPartitionRacks.add(r);
        }
      }
    }

    if (useRackAwareAssignment(new Set(consumersByRack.keys()), allPartitionRacks, partitionRacks.values())) {
      for (const [rack, members] of consumersByRack) for (const m of members) this.consumerRacks.set(m, rack);
      for (const [tp, racks] of partitionRacks) this.partitionRacks.set(tp, racks);
    }
    for (const [tp, racks] of partitionRacks) {
      let n = 0;
      for (const r of racks) n += consumersByRack.get(r)?.length ?? 0;
      this.numConsumersByPartition.set(tp, n);
    }
  }

  /** Whether the member has a rack and the partition has no replica there. */
  racksMismatch(consumer: string, tp: TP): boolean {
    const rack = this.consumerRacks.get(consumer);
    if (rack === undefined) return false;
    const replicaRacks = this.partitionRacks.get(tp);
    return replicaRacks === undefined || !replicaRacks.has(rack);
  }

  /** Partitions with the fewest same-rack members first (a stable sort), so the scarce matches are used first. */
  sortPartitionsByRackConsumers(partitions: TP[]): TP[] {
    if (this.numConsumersByPartition.size === 0) return partitions;
    const count = (tp: TP) => this.numConsumersByPartition.get(tp) ?? 0;
    return [...partitions].sort((a, b) => count(a) - count(b));
  }

  /** The first member from `firstIndex` on (wrapping) whose rack holds a replica of the partition, or -1. */
  nextRackConsumer(tp: TP, consumers: readonly string[], firstIndex: number): number {
    const racks = this.partitionRacks.get(tp);
    if (racks === undefined || racks.size === 0) return -1;
    for (let i = 0; i < consumers.length; i++) {
      const index = (firstIndex + i) % consumers.length;
      const rack = this.consumerRacks.get(consumers[index]);
      if (rack !== undefined && racks.has(rack)) return index;
    }
    return -1;
  }
}
