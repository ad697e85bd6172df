import {
  type AssignmentInput,
  compareStrings,
  mustGet,
  removeAllInPlace,
  type Subscription,
  type TP,
} from '../common.js';
import { Balancer, type GeneralState } from './general-balance.js';
import type { RackInfo } from './rack-info.js';
import { SortedMembers } from './sorted-members.js';
import { DEFAULT_GENERATION } from './user-data.js';

/** What one member reported: the partitions it owned, and the generation it owned them in. */
export interface MemberData {
  partitions: TP[];
  /** Undefined when the member reported none. */
  generation: number | undefined;
}

export interface GeneralPassOptions {
  memberData(subscription: Subscription): MemberData;
  /** The highest generation the assignor has seen, this call included. */
  maxGeneration: number;
  /** The repaired pass: see AbstractStickyAssignor.assignPartitions. */
  repair: boolean;
}

/**
 * The sticky assignors' general algorithm, for members with differing
 * subscriptions (Java's `GeneralAssignmentBuilder`):
 *  1. keep every owned partition the member is still subscribed to (and, with
 *     racks, whose replicas are on its rack);
 *  2. give each unassigned partition to the least loaded member that can take
 *     it, rack-matching ones first;
 *  3. move partitions from loaded to less loaded members until balanced,
 *     preferring to send a partition back to its owner of an older generation;
 *     if that did not improve the balance score, undo step 3.
 * This file prepares the state and does steps 1 and 2; general-balance.ts
 * does step 3.
 */
export class GeneralAssignmentBuilder {
  private readonly state: GeneralState;

  constructor(
    private readonly input: AssignmentInput,
    rackInfo: RackInfo,
    /** Owned partitions per member (filled by allSubscriptionsEqual); becomes the result. */
    currentAssignment: Map<string, TP[]>,
    private readonly options: GeneralPassOptions,
  ) {
    const topic2AllPotentialConsumers = new Map<string, string[]>();
    const consumer2AllPotentialTopics = new Map<string, string[]>();
    for (const topic of input.partitionsPerTopic.keys()) topic2AllPotentialConsumers.set(topic, []);
    for (const s of input.subscriptions) {
      const topics: string[] = [];
      consumer2AllPotentialTopics.set(s.memberId, topics);
      for (const topic of s.topics) {
        if (!input.partitionsPerTopic.has(topic)) continue;
        topics.push(topic);
        topic2AllPotentialConsumers.get(topic)!.push(s.memberId);
      }
      if (!currentAssignment.has(s.memberId)) currentAssignment.set(s.memberId, []);
    }

    const currentPartitionConsumer = new Map<TP, string>();
    for (const [consumer, partitions] of currentAssignment) {
      for (const tp of partitions) currentPartitionConsumer.set(tp, consumer);
    }

    // Topics with the fewest potential members first: their partitions have the fewest places to go.
    const sortedAllTopics = [...topic2AllPotentialConsumers.keys()].sort(
      (a, b) =>
        topic2AllPotentialConsumers.get(a)!.length - topic2AllPotentialConsumers.get(b)!.length || compareStrings(a, b),
    );
    const sortedAllPartitions: TP[] = [];
    for (const topic of sortedAllTopics) {
      const count = input.partitionsPerTopic.get(topic)!.count;
      for (let p = 0; p < count; p++) sortedAllPartitions.push(input.tps.get(topic, p));
    }

    let total = 0;
    for (const info of input.partitionsPerTopic.values()) total += info.count;
    this.state = {
      input,
      rackInfo,
      currentAssignment,
      currentPartitionConsumer,
      topic2AllPotentialConsumers,
      consumer2AllPotentialTopics,
      sortedAllPartitions,
      totalPartitionsCount: total,
      sortedCurrentSubscriptions: new SortedMembers((member) => mustGet(currentAssignment, member).length),
      revocationRequired: false,
    };
  }

  build(): Map<string, TP[]> {
    const prevAssignment = new Map<TP, { consumer: string; generation: number }>();
    this.prepopulateCurrentAssignments(prevAssignment);
    const assignedPartitions = this.assignOwnedPartitions();
    const unassignedPartitions = this.getUnassignedPartitions(assignedPartitions);
    for (const consumer of this.state.currentAssignment.keys()) this.state.sortedCurrentSubscriptions.add(consumer);
    this.balance(prevAssignment, unassignedPartitions);
    return this.state.currentAssignment;
  }

  /**
   * Notes, per partition, its owner in the newest generation older than the
   * current one (members without a generation count as older than any), so
   * balancing can return a partition there.
   */
  private prepopulateCurrentAssignments(prev: Map<TP, { consumer: string; generation: number }>): void {
    const max = this.options.maxGeneration;
    for (const s of this.input.subscriptions) {
      const memberData = this.options.memberData(s);
      let generation: number;
      if (memberData.generation !== undefined && memberData.generation < max) generation = memberData.generation;
      else if (memberData.generation === undefined && max > DEFAULT_GENERATION) generation = DEFAULT_GENERATION;
      else continue;
      for (const tp of memberData.partitions) {
        const known = prev.get(tp);
        if (known === undefined || generation > known.generation) prev.set(tp, { consumer: s.memberId, generation });
      }
    }
  }

  /** Step 1: drops owned partitions that no longer qualify; returns those kept. */
  private assignOwnedPartitions(): TP[] {
    const { currentAssignment, currentPartitionConsumer, topic2AllPotentialConsumers, rackInfo } = this.state;
    const assigned: TP[] = [];
    for (const [consumer, partitions] of currentAssignment) {
      const subscription = this.input.byId.get(consumer);
      if (subscription === undefined) {
        for (const tp of partitions) currentPartitionConsumer.delete(tp);
        currentAssignment.delete(consumer);
        continue;
      }
      const kept: TP[] = [];
      for (const tp of partitions) {
        if (!topic2AllPotentialConsumers.has(tp.topic)) {
          currentPartitionConsumer.delete(tp);
        } else if (!subscription.topics.includes(tp.topic) || rackInfo.racksMismatch(consumer, tp)) {
          // Java leaves the partition's entry in currentPartitionConsumer here; step 2 overwrites it.
          this.state.revocationRequired = true;
        } else {
          kept.push(tp);
          assigned.push(tp);
        }
      }
      currentAssignment.set(consumer, kept);
    }
    return assigned;
  }

  /**
   * All partitions (in sortedAllPartitions order) not kept in step 1. With
   * nothing kept this is sortedAllPartitions itself, the same list: Java's
   * later in-place edits of one show in the other, and so they do here.
   */
  private getUnassignedPartitions(assigned: TP[]): TP[] {
    const { sortedAllPartitions, topic2AllPotentialConsumers } = this.state;
    if (assigned.length === 0) return sortedAllPartitions;
    const consumersOf = (topic: string) => topic2AllPotentialConsumers.get(topic)!.length;
    assigned.sort(
      (a, b) =>
        consumersOf(a.topic) - consumersOf(b.topic) || compareStrings(a.topic, b.topic) || a.partition - b.partition,
    );
    const result: TP[] = [];
    let next = 0;
    let shouldAddDirectly = false;
    for (const tp of sortedAllPartitions) {
      if (shouldAddDirectly || assigned[next] !== tp) result.push(tp);
      else if (next + 1 < assigned.length) next++;
      else shouldAddDirectly = true;
    }
    return result;
  }

  private balance(prev: Map<TP, { consumer: string; generation: number }>, unassignedPartitions: TP[]): void {
    const s = this.state;
    const initializing = mustGet(s.currentAssignment, s.sortedCurrentSubscriptions.last()).length === 0;
    const balancer = new Balancer(s, this.options.repair);

    // Step 2: rack-matching places first, then any place.
    let partitionsToAssign = unassignedPartitions;
    if (s.rackInfo.consumerRacks.size > 0) {
      partitionsToAssign = unassignedPartitions.filter((tp) => !balancer.maybeAssignPartition(tp, true));
    }
    for (const tp of partitionsToAssign) balancer.maybeAssignPartition(tp, false);

    // Only partitions with two or more potential members, and members that could change, take part in step 3.
    const fixedPartitions = new Set<TP>();
    for (const [topic, consumers] of s.topic2AllPotentialConsumers) {
      if (consumers.length >= 2) continue;
      const count = this.input.partitionsPerTopic.get(topic)!.count;
      for (let p = 0; p < count; p++) fixedPartitions.add(this.input.tps.get(topic, p));
    }
    removeAllInPlace(s.sortedAllPartitions, fixedPartitions);
    removeAllInPlace(unassignedPartitions, fixedPartitions);

    const fixedAssignments = new Map<string, TP[]>();
    for (const consumer of s.consumer2AllPotentialTopics.keys()) {
      if (balancer.canConsumerParticipateInReassignment(consumer)) continue;
      s.sortedCurrentSubscriptions.remove(consumer);
      fixedAssignments.set(consumer, mustGet(s.currentAssignment, consumer));
      s.currentAssignment.delete(consumer);
    }

    const preBalanceAssignment = copyAssignment(s.currentAssignment);
    const preBalancePartitionConsumers = new Map(s.currentPartitionConsumer);

    // Without revocations forced by subscription changes, first try moving only the newly assigned partitions.
    if (!s.revocationRequired) balancer.performReassignments(unassignedPartitions, prev);
    const reassignmentPerformed = balancer.performReassignments(s.sortedAllPartitions, prev);

    if (
      !initializing &&
      reassignmentPerformed &&
      balanceScore(s.currentAssignment) >= balanceScore(preBalanceAssignment)
    ) {
      s.currentAssignment.clear();
      for (const [consumer, partitions] of preBalanceAssignment) s.currentAssignment.set(consumer, [...partitions]);
      s.currentPartitionConsumer.clear();
      for (const [tp, consumer] of preBalancePartitionConsumers) s.currentPartitionConsumer.set(tp, consumer);
    }
    // (Java also re-adds these to the sorted set, which nothing reads afterwards.)
    for (const [consumer, partitions] of fixedAssignments) s.currentAssignment.set(consumer, partitions);
  }
}

function copyAssignment(a: ReadonlyMap<string, TP[]>): Map<string, TP[]> {
  return new Map([...a].map(([c, p]) => [c, [...p]]));
}

/** Sum over all member pairs of the difference in partition counts; 0 is perfectly even. */
function balanceScore(a: ReadonlyMap<string, TP[]>): number {
  const sizes = [...a.values()].map((p) => p.length);
  let score = 0;
  for (let i = 0; i < sizes.length; i++)
    for (let j = i + 1; j < sizes.length; j++) score += Math.abs(sizes[i] - sizes[j]);
  return score;
}
