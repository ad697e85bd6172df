import type { AssignorMember, GroupAssignment, PartitionAssignor, TopicInfo } from './assignor.js';
import { compareMembers, compareStrings, prepareInput, toGroupAssignment } from './common.js';

/**
 * Kafka's `RoundRobinAssignor`: all partitions of all subscribed topics
 * (topics by name, partitions in order) dealt to the members in turn
 * (static members by group instance id first, then member id), skipping a
 * member not subscribed to the partition's topic. Balanced within one when
 * subscriptions are identical; no racks, no stickiness.
 */
export class RoundRobinAssignor implements PartitionAssignor {
  readonly name = 'roundrobin';
  readonly protocols = ['eager'] as const;

  assign(members: readonly AssignorMember[], topics: ReadonlyMap<string, TopicInfo>): GroupAssignment {
    const input = prepareInput(members, topics);
    const assignment = new Map<string, Array<{ topic: string; partition: number }>>();
    for (const s of input.subscriptions) assignment.set(s.memberId, []);
    const ring = [...input.subscriptions].sort(compareMembers);
    const subscribed = new Map(ring.map((s) => [s.memberId, new Set(s.topics)]));

    const allTopics = new Set<string>();
    for (const s of input.subscriptions) for (const t of s.topics) allTopics.add(t);
    let next = 0; // the ring position the next partition is offered to first
    for (const topic of [...allTopics].sort(compareStrings)) {
      const info = input.partitionsPerTopic.get(topic);
      if (info === undefined) continue;
      for (let p = 0; p < info.count; p++) {
        // Some member subscribes to every topic here, so this ends.
        while (!subscribed.get(ring[next].memberId)!.has(topic)) next = (next + 1) % ring.length;
        assignment.get(ring[next].memberId)!.push({ topic, partition: p });
        next = (next + 1) % ring.length;
      }
    }
    return toGroupAssignment(
      input.subscriptions.map((s) => s.memberId),
      assignment,
    );
  }
}
