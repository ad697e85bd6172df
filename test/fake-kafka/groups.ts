/**
 * Consumer groups of the fake cluster: committed offsets, KIP-848 members whose assignment the coordinator
 * computes (partitions of the subscribed topics dealt round-robin over the members by member id), and the
 * classic protocol's state (classic-group.ts). Not modelled for KIP-848: session timeouts, revocation before
 * reassignment, static members.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { ClassicGroup } from './classic-group.js';

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
  readonly classic: ClassicGroup;

  constructor(readonly groupId: string) {
    this.classic = new ClassicGroup(groupId);
  }

  /**
   * Whether a commit by this member may be stored (0) or the error that refuses it, as Kafka's coordinator
   * decides: a commit with no member and generation -1 is a simple commit, allowed while the group has no
   * members; a classic member must be known and name the current generation (and not commit while the group
   * waits for the leader's assignment); a KIP-848 member must be known and name its current epoch (a newer one
   * is FENCED_MEMBER_EPOCH, an older one STALE_MEMBER_EPOCH).
   */
  commitError(memberId: string, generation: number, groupInstanceId: string | null): number {
    const classic = this.classic;
    if (this.members.size > 0) {
      const member = this.members.get(memberId);
      if (generation < 0 && memberId === '') return ErrorCode.UNKNOWN_MEMBER_ID;
      if (member === undefined) return ErrorCode.UNKNOWN_MEMBER_ID;
      if (generation > member.memberEpoch) return ErrorCode.FENCED_MEMBER_EPOCH;
      if (generation < member.memberEpoch) return ErrorCode.STALE_MEMBER_EPOCH;
      return 0;
    }
    if (generation < 0 && memberId === '' && groupInstanceId === null) {
      return classic.state === 'Empty' ? 0 : ErrorCode.UNKNOWN_MEMBER_ID;
    }
    if (!classic.members.has(memberId)) return ErrorCode.UNKNOWN_MEMBER_ID;
    if (generation !== classic.generation) return ErrorCode.ILLEGAL_GENERATION;
    return classic.state === 'CompletingRebalance' ? ErrorCode.REBALANCE_IN_PROGRESS : 0;
  }

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
