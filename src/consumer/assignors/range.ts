import type { AssignorMember, GroupAssignment, PartitionAssignor, TopicInfo } from './assignor.js';
import {
  compareMembers,
  prepareInput,
  type Subscription,
  type TopicPartitionsInfo,
  toGroupAssignment,
  useRackAwareAssignment,
} from './common.js';

/**
 * Kafka's `RangeAssignor`: per topic, partitions in order, members in order
 * (static members by group instance id first, then member id); each member
 * gets a contiguous range, and the first `partitions % members` get one more.
 * Topics with the same subscribers and partition count are thus
 * co-partitioned: partition N of each goes to the same member.
 *
 * KIP-881: when members and replicas have racks, a first pass hands out the
 * partitions that can go to a member on one of their replicas' racks, within
 * the same per-member quota (so balance and co-partitioning still hold); the
 * usual ranges then take the rest.
 */
export class RangeAssignor implements PartitionAssignor {
  readonly name = 'range';
  readonly protocols = ['eager'] as const;

  assign(members: readonly AssignorMember[], topics: ReadonlyMap<string, TopicInfo>): GroupAssignment {
    const input = prepareInput(members, topics);
    const consumerRacks = new Map<string, string>();
    for (const s of input.subscriptions) if (s.rackId !== undefined) consumerRacks.set(s.memberId, s.rackId);
    const consumersPerTopic = new Map<string, Subscription[]>();
    for (const s of input.subscriptions) {
      for (const topic of s.topics) {
        const list = consumersPerTopic.get(topic) ?? [];
        list.push(s);
        consumersPerTopic.set(topic, list);
      }
    }

    const states: TopicState[] = [];
    for (const [topic, info] of input.partitionsPerTopic) {
      states.push(new TopicState(topic, info, consumersPerTopic.get(topic) ?? [], consumerRacks));
    }
    const assignment = new Map<string, Array<{ topic: string; partition: number }>>();
    for (const s of input.subscriptions) assignment.set(s.memberId, []);

    if (states.some((t) => t.needsRackAwareAssignment)) assignWithRackMatching(states, assignment);
    for (const state of states) assignRanges(state, () => true, assignment);
    return toGroupAssignment(
      input.subscriptions.map((s) => s.memberId),
      assignment,
    );
  }
}

type Assignment = Map<string, Array<{ topic: string; partition: number }>>;

/** One topic's progress (Java's `TopicAssignmentState`). */
class TopicState {
  /** Member id to rack (undefined: none), in range order. */
  readonly consumers = new Map<string, string | undefined>();
  readonly needsRackAwareAssignment: boolean;
  /** Per partition, its replica racks; empty when no subscriber has a rack. */
  readonly partitionRacks: ReadonlyArray<ReadonlySet<string>>;
  readonly unassigned = new Set<number>();
  private readonly numAssigned = new Map<string, number>();
  private readonly numPartitionsPerConsumer: number;
  private remainingConsumersWithExtraPartition: number;

  constructor(
    readonly topic: string,
    info: TopicPartitionsInfo,
    subscribers: Subscription[],
    consumerRacks: ReadonlyMap<string, string>,
  ) {
    const members = [...subscribers].sort(compareMembers);
    for (const m of members) {
      if (!this.consumers.has(m.memberId)) this.consumers.set(m.memberId, consumerRacks.get(m.memberId));
      this.numAssigned.set(m.memberId, 0);
    }
    for (let p = 0; p < info.count; p++) this.unassigned.add(p);
    const n = this.consumers.size;
    this.numPartitionsPerConsumer = n === 0 ? 0 : Math.floor(info.count / n);
    this.remainingConsumersWithExtraPartition = n === 0 ? 0 : info.count % n;

    const allConsumerRacks = new Set<string>();
    for (const m of members) {
      const rack = consumerRacks.get(m.memberId);
      if (rack !== undefined) allConsumerRacks.add(rack);
    }
    const allPartitionRacks = new Set<string>();
    if (allConsumerRacks.size > 0) {
      this.partitionRacks = info.racks;
      for (const racks of info.racks) for (const r of racks) allPartitionRacks.add(r);
    } else {
      this.partitionRacks = [];
    }
    this.needsRackAwareAssignment = useRackAwareAssignment(allConsumerRacks, allPartitionRacks, this.partitionRacks);
  }

  racksMatch(consumer: string, partition: number): boolean {
    const rack = this.consumers.get(consumer);
    return rack === undefined || (this.partitionRacks[partition]?.has(rack) ?? false);
  }

  maxAssignable(consumer: string): number {
    const max =
      this.numPartitionsPerConsumer +
      (this.remainingConsumersWithExtraPartition > 0 ? 1 : 0) -
      this.numAssigned.get(consumer)!;
    return Math.max(0, max);
  }

  onAssigned(consumer: string, partitions: readonly number[]): void {
    const n = this.numAssigned.get(consumer)! + partitions.length;
    this.numAssigned.set(consumer, n);
    if (n > this.numPartitionsPerConsumer) this.remainingConsumersWithExtraPartition--;
    for (const p of partitions) this.unassigned.delete(p);
  }
}

function assign(consumer: string, partitions: number[], state: TopicState, assignment: Assignment): void {
  const list = assignment.get(consumer)!;
  for (const p of partitions) list.push({ topic: state.topic, partition: p });
  state.onAssigned(consumer, partitions);
}

function assignRanges(
  state: TopicState,
  mayAssign: (consumer: string, partition: number) => boolean,
  assignment: Assignment,
): void {
  for (const consumer of state.consumers.keys()) {
    if (state.unassigned.size === 0) break;
    const limit = state.maxAssignable(consumer);
    const picked: number[] = [];
    for (const p of state.unassigned) {
      if (picked.length >= limit) break;
      if (mayAssign(consumer, p)) picked.push(p);
    }
    if (picked.length > 0) assign(consumer, picked, state, assignment);
  }
}

/**
 * Topics with the same subscribers (and racks) and the same partition count
 * are matched together so co-partitioning survives rack matching; a topic on
 * its own is matched alone. Each topic keeps its own state, so the order in
 * which the groups are visited does not matter.
 */
function assignWithRackMatching(states: TopicState[], assignment: Assignment): void {
  const groups = new Map<string, TopicState[]>();
  for (const state of states) {
    const key = JSON.stringify([[...state.consumers], state.partitionRacks.length]);
    const group = groups.get(key) ?? [];
    group.push(state);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    if (group.length > 1) {
      assignCoPartitionedWithRackMatching(group[0].consumers, group[0].partitionRacks.length, group, assignment);
    } else if (group[0].needsRackAwareAssignment) {
      const state = group[0];
      assignRanges(state, (c, p) => state.racksMatch(c, p), assignment);
    }
  }
}

function assignCoPartitionedWithRackMatching(
  consumers: ReadonlyMap<string, string | undefined>,
  numPartitions: number,
  states: TopicState[],
  assignment: Assignment,
): void {
  const remaining = [...consumers.keys()];
  for (let p = 0; p < numPartitions; p++) {
    const consumer = remaining.find((c) => states.every((t) => t.racksMatch(c, p) && t.maxAssignable(c) > 0));
    if (consumer === undefined) continue;
    for (const state of states) assign(consumer, [p], state, assignment);
    if (states.every((t) => t.maxAssignable(consumer) <= 0)) {
      remaining.splice(remaining.indexOf(consumer), 1);
      if (remaining.length === 0) break;
    }
  }
}
