import type { AssignorMember, GroupAssignment, PartitionAssignor, TopicInfo } from './assignor.js';
import { compareStrings, toGroupAssignment } from './common.js';

/**
 * kafkajs 2.2.4's `RoundRobinAssigner`, so that a group can hold kafkajs and tidemark members at once and be
 * migrated member by member (a classic group only forms when every member offers the protocol the coordinator
 * picks, and kafkajs offers only this one by default).
 *
 * On the wire it is the classic consumer protocol: kafkajs's `MemberMetadata` is ConsumerProtocolSubscription
 * v0 (version, topics, userData) and its `MemberAssignment` is ConsumerProtocolAssignment v0 (version, topic
 * partitions, userData). kafkajs reads the version, topics and userData of a newer subscription and ignores
 * the rest, and reads assignments of any version, so tidemark's own encoding serves both directions; like
 * kafkajs it sends empty (not null) userData.
 *
 * The deal is kafkajs's: members sorted by member id, every partition of every topic handed to the next
 * member in turn. kafkajs's leader deals its own subscription's topics in its subscription order, partitions
 * in the order its metadata lists them (Kafka 3.9 does not list them ascending), to every member whether
 * subscribed or not; here topics are the union of the members' subscriptions in name order, partitions
 * ascending, and a member is skipped for a topic it does not subscribe to. Either way each member gets its
 * share within one; with identical subscriptions and partitions listed in order the answers are the same.
 */
export class KafkajsRoundRobinAssignor implements PartitionAssignor {
  /** The protocol name kafkajs sends in JoinGroup. */
  readonly name = 'RoundRobinAssigner';
  readonly protocols = ['eager'] as const;
  readonly version = 0;

  subscriptionUserData(): Uint8Array {
    return new Uint8Array(0);
  }

  assign(members: readonly AssignorMember[], topics: ReadonlyMap<string, TopicInfo>): GroupAssignment {
    const latest = new Map<string, AssignorMember>();
    for (const m of members) latest.set(m.memberId, m);
    const ring = [...latest.keys()].sort(compareStrings);
    const subscribed = new Map(ring.map((id) => [id, new Set(latest.get(id)!.topics)]));
    const allTopics = new Set<string>();
    for (const m of latest.values()) for (const t of m.topics) allTopics.add(t);

    const raw = new Map<string, Array<{ topic: string; partition: number }>>(ring.map((id) => [id, []]));
    let next = 0;
    for (const topic of [...allTopics].sort(compareStrings)) {
      const count = topics.get(topic)?.partitions ?? 0;
      for (let partition = 0; partition < count; partition++) {
        // Some member subscribes to this topic (it came from a subscription), so this ends.
        while (!subscribed.get(ring[next])!.has(topic)) next = (next + 1) % ring.length;
        raw.get(ring[next])!.push({ topic, partition });
        next = (next + 1) % ring.length;
      }
    }
    const out = toGroupAssignment(ring, raw);
    for (const share of out.values()) share.userData = new Uint8Array(0);
    return out;
  }
}
