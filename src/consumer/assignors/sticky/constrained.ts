import { AssignorError } from '../assignor.js';
import { type AssignmentInput, compareStrings, removeFirst, type TP } from '../common.js';
import type { RackInfo } from './rack-info.js';

/**
 * The sticky assignors' fast path, when every member subscribes to the same
 * topics (Java's `ConstrainedAssignmentBuilder`). With P partitions and M
 * members each member gets minQuota = floor(P/M) or maxQuota = ceil(P/M), and
 * exactly P % M members get maxQuota. Steps:
 *  1. each member keeps its owned partitions up to its quota (maxQuota while
 *     maxQuota slots remain, else minQuota; with racks, only rack-matching
 *     ones); first come, first served, in the leader's member order;
 *  2. with racks, unassigned partitions go round-robin to unfilled members
 *     on a matching rack;
 *  3. the rest go round-robin to unfilled members, then one more each to
 *     members at minQuota until P % M members are at maxQuota.
 * A partition given to a member other than its previous owner is recorded as
 * transferring ownership (the cooperative assignor revokes it first).
 */
export class ConstrainedAssignmentBuilder {
  private readonly maybeRevokedPartitions = new Map<TP, string>();
  private readonly unfilledMembersWithUnderMinQuotaPartitions: string[] = [];
  private readonly unfilledMembersWithExactlyMinQuotaPartitions: string[] = [];
  private readonly minQuota: number;
  private readonly maxQuota: number;
  private readonly expectedNumMembersWithOverMinQuotaPartitions: number;
  private currentNumMembersWithOverMinQuotaPartitions = 0;
  private readonly assignment = new Map<string, TP[]>();
  private readonly assignedPartitions: TP[] = [];

  constructor(
    private readonly input: AssignmentInput,
    private readonly rackInfo: RackInfo,
    /** Each member's previously owned, still subscribed partitions, in the leader's member order. */
    private readonly currentAssignment: Map<string, TP[]>,
    private readonly partitionsWithMultiplePreviousOwners: ReadonlySet<TP>,
    private readonly partitionsTransferringOwnership: Map<TP, string>,
  ) {
    let total = 0;
    for (const info of input.partitionsPerTopic.values()) total += info.count;
    const members = currentAssignment.size;
    this.minQuota = Math.floor(total / members);
    this.maxQuota = Math.ceil(total / members);
    this.expectedNumMembersWithOverMinQuotaPartitions = total % members;
    for (const consumer of currentAssignment.keys()) this.assignment.set(consumer, []);
  }

  build(): Map<string, TP[]> {
    this.assignOwnedPartitions();
    let unassigned = this.getUnassignedPartitions();
    this.unfilledMembersWithUnderMinQuotaPartitions.sort(compareStrings);
    this.unfilledMembersWithExactlyMinQuotaPartitions.sort(compareStrings);
    unassigned = this.rackInfo.sortPartitionsByRackConsumers(unassigned);
    unassigned = this.assignRackAwareRoundRobin(unassigned);
    this.assignRoundRobin(unassigned);
    this.verifyUnfilledMembers();
    return this.assignment;
  }

  private assignOwnedPartitions(): void {
    for (const [consumer, owned] of this.currentAssignment) {
      const ownedPartitions = owned
        .filter((tp) => {
          const mismatch = this.rackInfo.racksMismatch(consumer, tp);
          if (mismatch) this.maybeRevokedPartitions.set(tp, consumer);
          return !mismatch;
        })
        .sort((a, b) => a.partition - b.partition || compareStrings(a.topic, b.topic));
      for (const doublyClaimed of this.partitionsWithMultiplePreviousOwners)
        removeFirst(ownedPartitions, doublyClaimed);
      const consumerAssignment = this.assignment.get(consumer)!;

      if (ownedPartitions.length < this.minQuota) {
        // fewer than its share: keep them all, and it needs more
        consumerAssignment.push(...ownedPartitions);
        this.assignedPartitions.push(...ownedPartitions);
        this.unfilledMembersWithUnderMinQuotaPartitions.push(consumer);
      } else if (
        ownedPartitions.length >= this.maxQuota &&
        this.currentNumMembersWithOverMinQuotaPartitions < this.expectedNumMembersWithOverMinQuotaPartitions
      ) {
        // a maxQuota slot is still free: keep maxQuota, give up the rest
        this.currentNumMembersWithOverMinQuotaPartitions++;
        if (this.currentNumMembersWithOverMinQuotaPartitions === this.expectedNumMembersWithOverMinQuotaPartitions) {
          this.unfilledMembersWithExactlyMinQuotaPartitions.length = 0;
        }
        this.keep(consumer, consumerAssignment, ownedPartitions, this.maxQuota);
      } else {
        // keep minQuota; it may still get one more while maxQuota slots remain
        this.keep(consumer, consumerAssignment, ownedPartitions, this.minQuota);
        if (this.currentNumMembersWithOverMinQuotaPartitions < this.expectedNumMembersWithOverMinQuotaPartitions) {
          this.unfilledMembersWithExactlyMinQuotaPartitions.push(consumer);
        }
      }
    }
  }

  private keep(consumer: string, consumerAssignment: TP[], owned: TP[], quota: number): void {
    const kept = owned.slice(0, quota);
    consumerAssignment.push(...kept);
    this.assignedPartitions.push(...kept);
    for (const tp of owned.slice(quota)) this.maybeRevokedPartitions.set(tp, consumer);
  }

  /** Partitions with a matching rack go, round-robin, to unfilled members on that rack; returns the rest. */
  private assignRackAwareRoundRobin(unassigned: TP[]): TP[] {
    if (this.rackInfo.consumerRacks.size === 0) return unassigned;
    const under = this.unfilledMembersWithUnderMinQuotaPartitions;
    const rest: TP[] = [];
    let nextUnfilledConsumerIndex = 0;
    for (const tp of unassigned) {
      let consumer: string | undefined;
      let nextIndex = this.rackInfo.nextRackConsumer(tp, under, nextUnfilledConsumerIndex);
      if (nextIndex >= 0) {
        consumer = under[nextIndex];
        const assignmentCount = this.assignment.get(consumer)!.length + 1;
        if (assignmentCount >= this.minQuota) {
          removeFirst(under, consumer);
          if (
            assignmentCount < this.maxQuota &&
            this.currentNumMembersWithOverMinQuotaPartitions < this.expectedNumMembersWithOverMinQuotaPartitions
          ) {
            this.unfilledMembersWithExactlyMinQuotaPartitions.push(consumer);
          }
        } else {
          nextIndex++;
        }
        nextUnfilledConsumerIndex = under.length === 0 ? 0 : nextIndex % under.length;
      } else if (this.unfilledMembersWithExactlyMinQuotaPartitions.length > 0) {
        const exactly = this.unfilledMembersWithExactlyMinQuotaPartitions;
        const firstIndex = this.rackInfo.nextRackConsumer(tp, exactly, 0);
        if (firstIndex >= 0) {
          consumer = exactly[firstIndex];
          if (this.assignment.get(consumer)!.length + 1 === this.maxQuota) {
            exactly.splice(firstIndex, 1);
            this.currentNumMembersWithOverMinQuotaPartitions++;
            // every maxQuota slot taken: the members at minQuota are all full now
            if (
              this.currentNumMembersWithOverMinQuotaPartitions === this.expectedNumMembersWithOverMinQuotaPartitions
            ) {
              exactly.length = 0;
            }
          }
        }
      }
      if (consumer === undefined) rest.push(tp);
      else this.assignNewPartition(tp, consumer);
    }
    return rest;
  }

  private assignRoundRobin(unassigned: TP[]): void {
    // Java walks the under-quota list with an iterator that removes members as they reach minQuota.
    const under = this.unfilledMembersWithUnderMinQuotaPartitions;
    let cursor = 0;
    for (const tp of unassigned) {
      let consumer: string;
      let fromCursor = true;
      if (cursor < under.length) {
        consumer = under[cursor++];
      } else if (under.length === 0 && this.unfilledMembersWithExactlyMinQuotaPartitions.length === 0) {
        throw new AssignorError('sticky', 'no more unfilled consumers to be assigned');
      } else if (under.length === 0) {
        consumer = this.unfilledMembersWithExactlyMinQuotaPartitions.shift()!;
        fromCursor = false;
      } else {
        cursor = 0;
        consumer = under[cursor++];
      }

      const currentAssignedCount = this.assignNewPartition(tp, consumer);
      if (currentAssignedCount === this.minQuota) {
        // Java's iterator.remove() drops the member the iterator returned; a member taken from
        // the minQuota list is past minQuota here, so this never follows one (Java would throw).
        if (!fromCursor) throw new AssignorError('sticky', `member ${consumer} at minQuota was not under it`);
        under.splice(--cursor, 1);
        this.unfilledMembersWithExactlyMinQuotaPartitions.push(consumer);
      } else if (currentAssignedCount === this.maxQuota) {
        this.currentNumMembersWithOverMinQuotaPartitions++;
      }
    }
  }

  private assignNewPartition(tp: TP, consumer: string): number {
    const consumerAssignment = this.assignment.get(consumer)!;
    consumerAssignment.push(tp);
    // All owned partitions that could stay have stayed, so this one is new to the member.
    const previous = this.maybeRevokedPartitions.get(tp);
    if ((previous !== undefined && previous !== consumer) || this.partitionsWithMultiplePreviousOwners.has(tp)) {
      this.partitionsTransferringOwnership.set(tp, consumer);
    }
    return consumerAssignment.length;
  }

  private verifyUnfilledMembers(): void {
    const under = this.unfilledMembersWithUnderMinQuotaPartitions;
    if (under.length === 0) return;
    if (this.currentNumMembersWithOverMinQuotaPartitions !== this.expectedNumMembersWithOverMinQuotaPartitions) {
      throw new AssignorError(
        'sticky',
        'not all maxQuota slots are filled, but no more partitions are left to assign to the unfilled members',
      );
    }
    for (const member of under) {
      if (this.assignment.get(member)!.length !== this.minQuota) {
        throw new AssignorError('sticky', `member ${member} cannot reach minQuota partitions: none left to assign`);
      }
    }
  }

  /** All partitions (topics by name, partitions in order) that step 1 did not assign. */
  private getUnassignedPartitions(): TP[] {
    const topics = [...this.input.partitionsPerTopic.keys()].sort(compareStrings);
    const assigned = this.assignedPartitions;
    const result: TP[] = [];
    if (assigned.length === 0) {
      for (const topic of topics) {
        const count = this.input.partitionsPerTopic.get(topic)!.count;
        for (let p = 0; p < count; p++) result.push(this.input.tps.get(topic, p));
      }
      return result;
    }
    assigned.sort((a, b) => compareStrings(a.topic, b.topic) || a.partition - b.partition);
    // A merge of two sorted sequences, exactly as Java walks it (an owned partition id past
    // the topic's current count stalls the walk just as it does there).
    let next = 0;
    let shouldAddDirectly = false;
    for (const topic of topics) {
      const count = this.input.partitionsPerTopic.get(topic)!.count;
      for (let p = 0; p < count; p++) {
        const a = assigned[next];
        if (shouldAddDirectly || a.topic !== topic || a.partition !== p) {
          result.push(this.input.tps.get(topic, p));
        } else if (next + 1 < assigned.length) {
          next++;
        } else {
          shouldAddDirectly = true;
        }
      }
    }
    return result;
  }
}
