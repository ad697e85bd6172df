import { type AssignmentInput, mustGet, removeFirst, type TP } from '../common.js';
import { PartitionMovements } from './partition-movements.js';
import type { RackInfo } from './rack-info.js';
import type { SortedMembers } from './sorted-members.js';

/** The general sticky algorithm's working state, shared by its two files. */
export interface GeneralState {
  input: AssignmentInput;
  rackInfo: RackInfo;
  /** Member to its partitions; the result in the end. */
  currentAssignment: Map<string, TP[]>;
  currentPartitionConsumer: Map<TP, string>;
  topic2AllPotentialConsumers: Map<string, string[]>;
  consumer2AllPotentialTopics: Map<string, string[]>;
  sortedAllPartitions: TP[];
  totalPartitionsCount: number;
  /** Members by load, lightest first. */
  sortedCurrentSubscriptions: SortedMembers;
  /** A member lost a partition to a subscription or rack change. */
  revocationRequired: boolean;
}

/**
 * Steps 2 and 3 of the general sticky algorithm: placing unassigned
 * partitions, then moving partitions until no member could take one from a
 * member with two or more partitions more (Java's balance helpers).
 */
export class Balancer {
  private readonly movements = new PartitionMovements();

  constructor(
    private readonly s: GeneralState,
    /** The repaired pass: see AbstractStickyAssignor.assignPartitions. */
    private readonly repair: boolean,
  ) {}

  private sizeOf(consumer: string | undefined): number {
    return mustGet(this.s.currentAssignment, consumer).length;
  }

  /** Gives the partition to the least loaded member subscribed to its topic (on a matching rack if asked). */
  maybeAssignPartition(tp: TP, matchRacks: boolean): boolean {
    const s = this.s;
    for (const consumer of s.sortedCurrentSubscriptions.toArray()) {
      if (!s.consumer2AllPotentialTopics.get(consumer)!.includes(tp.topic)) continue;
      if (matchRacks && s.rackInfo.racksMismatch(consumer, tp)) continue;
      s.sortedCurrentSubscriptions.remove(consumer);
      s.currentAssignment.get(consumer)!.push(tp);
      s.currentPartitionConsumer.set(tp, consumer);
      s.sortedCurrentSubscriptions.add(consumer);
      return true;
    }
    return false;
  }

  private maxAssignmentSize(topics: readonly string[]): number {
    if (topics.length === this.s.input.partitionsPerTopic.size) return this.s.totalPartitionsCount;
    let n = 0;
    for (const t of topics) n += this.s.input.partitionsPerTopic.get(t)!.count;
    return n;
  }

  private canTopicParticipateInReassignment(topic: string): boolean {
    return mustGet(this.s.topic2AllPotentialConsumers, topic).length >= 2;
  }

  /** Whether the member lacks some partition it could have, or holds one that could go elsewhere. */
  canConsumerParticipateInReassignment(consumer: string): boolean {
    const current = mustGet(this.s.currentAssignment, consumer);
    if (current.length < this.maxAssignmentSize(this.s.consumer2AllPotentialTopics.get(consumer)!)) return true;
    return current.some((tp) => this.canTopicParticipateInReassignment(tp.topic));
  }

  /** Balanced: loads within one, or no member could take a partition from one holding two or more more. */
  private isBalanced(): boolean {
    const s = this.s;
    const min = this.sizeOf(s.sortedCurrentSubscriptions.first());
    const max = this.sizeOf(s.sortedCurrentSubscriptions.last());
    if (min >= max - 1) return true;

    const allPartitions = new Map<TP, string>();
    for (const [consumer, partitions] of s.currentAssignment)
      for (const tp of partitions) allPartitions.set(tp, consumer);
    for (const consumer of s.sortedCurrentSubscriptions.toArray()) {
      const partitions = mustGet(s.currentAssignment, consumer);
      const count = partitions.length;
      const topics = s.consumer2AllPotentialTopics.get(consumer)!;
      if (count === this.maxAssignmentSize(topics)) continue;
      const held = new Set(partitions);
      for (const topic of topics) {
        const n = s.input.partitionsPerTopic.get(topic)!.count;
        for (let p = 0; p < n; p++) {
          const tp = s.input.tps.get(topic, p);
          if (held.has(tp)) continue;
          if (count + 1 < this.sizeOf(allPartitions.get(tp))) return false;
        }
      }
    }
    return true;
  }

  /** Step 3 over `partitions` until balanced or nothing moves; whether anything moved. */
  performReassignments(
    partitions: readonly TP[],
    prev: ReadonlyMap<TP, { consumer: string; generation: number }>,
  ): boolean {
    const s = this.s;
    let reassignmentPerformed = false;
    let modified: boolean;
    do {
      modified = false;
      for (let i = 0; i < partitions.length && !this.isBalanced(); i++) {
        const tp = partitions[i];
        const consumer = s.currentPartitionConsumer.get(tp);
        const previous = prev.get(tp);
        // Back to its owner of an older generation, if that evens things out. Java does not check
        // that the owner still subscribes to the topic (nor takes part in balancing at all: then it
        // throws a NullPointerException); the repaired pass does.
        if (
          previous !== undefined &&
          (!this.repair ||
            (s.currentAssignment.has(previous.consumer) &&
              s.consumer2AllPotentialTopics.get(previous.consumer)!.includes(tp.topic))) &&
          this.sizeOf(consumer) > this.sizeOf(previous.consumer) + 1
        ) {
          this.reassignPartitionTo(tp, previous.consumer);
          reassignmentPerformed = modified = true;
          continue;
        }
        // Otherwise to a lighter member: one on a replica's rack if the current member is on one.
        const potential = s.topic2AllPotentialConsumers.get(tp.topic)!;
        const consumerRack = consumer === undefined ? undefined : s.rackInfo.consumerRacks.get(consumer);
        const partitionRacks = s.rackInfo.partitionRacks.get(tp);
        let found = false;
        if (consumerRack !== undefined && partitionRacks?.has(consumerRack)) {
          for (const other of potential) {
            const otherRack = s.rackInfo.consumerRacks.get(other);
            if (otherRack === undefined || !partitionRacks.has(otherRack)) continue;
            if (this.sizeOf(consumer) > this.sizeOf(other) + 1) {
              this.reassignPartition(tp);
              reassignmentPerformed = modified = found = true;
              break;
            }
          }
        }
        if (found) continue;
        for (const other of potential) {
          if (this.sizeOf(consumer) > this.sizeOf(other) + 1) {
            this.reassignPartition(tp);
            reassignmentPerformed = modified = true;
            break;
          }
        }
      }
    } while (modified);
    return reassignmentPerformed;
  }

  /** To the least loaded member subscribed to the partition's topic. */
  private reassignPartition(tp: TP): void {
    const s = this.s;
    const newConsumer = s.sortedCurrentSubscriptions
      .toArray()
      .find((c) => s.consumer2AllPotentialTopics.get(c)!.includes(tp.topic));
    this.reassignPartitionTo(tp, newConsumer!);
  }

  private reassignPartitionTo(tp: TP, newConsumer: string): void {
    const consumer = this.s.currentPartitionConsumer.get(tp)!;
    this.processPartitionMovement(
      this.movements.getTheActualPartitionToBeMoved(tp, consumer, newConsumer),
      newConsumer,
    );
  }

  private processPartitionMovement(tp: TP, newConsumer: string): void {
    const s = this.s;
    const oldConsumer = s.currentPartitionConsumer.get(tp)!;
    s.sortedCurrentSubscriptions.remove(oldConsumer);
    s.sortedCurrentSubscriptions.remove(newConsumer);
    this.movements.movePartition(tp, oldConsumer, newConsumer);
    removeFirst(mustGet(s.currentAssignment, oldConsumer), tp);
    mustGet(s.currentAssignment, newConsumer).push(tp);
    s.currentPartitionConsumer.set(tp, newConsumer);
    s.sortedCurrentSubscriptions.add(newConsumer);
    s.sortedCurrentSubscriptions.add(oldConsumer);
  }
}
