/**
 * Consumer groups of the fake cluster: committed offsets, and KIP-848 members whose assignment the coordinator
 * computes (partitions of the subscribed topics dealt round-robin over the members by member id). Not modelled:
 * the classic protocol (JoinGroup/SyncGroup), session timeouts, revocation before reassignment, static members.
 */
export interface Committed {
  offset: bigint;
  leaderEpoch: number;
  metadata: string | null;
}

export interface GroupMember {
  memberEpoch: number;
  topics: string[];
}

export class FakeGroup {
  readonly members = new Map<string, GroupMember>();
  /** Committed offsets by `topic/partition`. */
  readonly committed = new Map<string, Committed>();
  groupEpoch = 0;

  /** The partitions (by topic) each member owns: the subscribed topics' partitions, round-robin by member id. */
  assignment(partitionsOf: (topic: string) => number): Map<string, Map<string, number[]>> {
    const ids = [...this.members.keys()].sort();
    const out = new Map(ids.map((id) => [id, new Map<string, number[]>()]));
    const topics = [...new Set(ids.flatMap((id) => this.members.get(id)!.topics))].sort();
    let next = 0;
    for (const topic of topics) {
      for (let p = 0; p < partitionsOf(topic); p++) {
        const subscribed = ids.filter((id) => this.members.get(id)!.topics.includes(topic));
        if (subscribed.length === 0) continue;
        const owner = out.get(subscribed[next++ % subscribed.length])!;
        owner.set(topic, [...(owner.get(topic) ?? []), p]);
      }
    }
    return out;
  }
}
