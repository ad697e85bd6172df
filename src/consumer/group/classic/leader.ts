import type { ClusterMetadata, MetadataQuery } from '../../../cluster/metadata.js';
import { partitionKey } from '../../../cluster/partition-errors.js';
import {
  AssignorError,
  type AssignorMember,
  type GroupAssignment,
  type PartitionAssignor,
  type RebalanceProtocol,
  type TopicInfo,
} from '../../assignors/assignor.js';
import { decodeSubscription, encodeAssignment } from './consumer-protocol-codec.js';

export interface JoinedMember {
  memberId: string;
  groupInstanceId: string | null;
  /** The member's subscription, for the protocol the coordinator chose. */
  metadata: Uint8Array;
}

export interface LeaderAssignment {
  /** What SyncGroup carries: every member's assignment, encoded. */
  assignments: Array<{ memberId: string; assignment: Buffer }>;
  /**
   * The partition count (0: no such topic) of every topic some member subscribes to, when the assignment was
   * computed; a change calls for a new one (Java's assignmentSnapshot).
   */
  snapshot: Map<string, number>;
}

/**
 * The leader's part of a classic rebalance (Java's `ConsumerCoordinator.onLeaderElected`): decode every member's
 * subscription, look up the subscribed topics, run the chosen assignor over the members in JoinGroup response
 * order (ties can depend on it), check a cooperative assignment, and encode each member's share.
 *
 * `skip` (JoinGroup v9's skipAssignment): a static leader rejoined a stable group, whose assignment the
 * coordinator keeps; the leader only takes note of the topics, and sends no assignment.
 */
export async function computeGroupAssignment(
  assignor: PartitionAssignor,
  protocol: RebalanceProtocol,
  joined: readonly JoinedMember[],
  metadata: (query: MetadataQuery) => Promise<ClusterMetadata>,
  skip = false,
): Promise<LeaderAssignment> {
  const members: AssignorMember[] = joined.map((m) => {
    const s = decodeSubscription(m.metadata);
    return {
      memberId: m.memberId,
      groupInstanceId: m.groupInstanceId,
      rackId: s.rackId,
      topics: s.topics,
      ownedPartitions: s.ownedPartitions,
      generationId: s.generationId,
      userData: s.userData,
    };
  });
  const groupTopics = [...new Set(members.flatMap((m) => m.topics))].sort();
  const md = groupTopics.length === 0 ? undefined : await metadata({ topics: groupTopics });
  const topics = md === undefined ? new Map<string, TopicInfo>() : topicInfos(md, groupTopics);
  const snapshot = new Map(groupTopics.map((name) => [name, topics.get(name)?.partitions ?? 0]));
  if (skip) return { assignments: [], snapshot };

  const result = assignor.assign(members, topics);
  if (protocol === 'cooperative') checkCooperative(assignor.name, members, result);
  return {
    assignments: members.map((m) => {
      const share = result.get(m.memberId);
      const partitions = (share?.partitions ?? []).flatMap((t) =>
        t.partitions.map((partition) => ({ topic: t.topic, partition })),
      );
      return { memberId: m.memberId, assignment: encodeAssignment({ partitions, userData: share?.userData ?? null }) };
    }),
    snapshot,
  };
}

/** Partition counts and, when brokers have racks, each partition's replica racks (KIP-881). */
export function topicInfos(md: ClusterMetadata, names: readonly string[]): Map<string, TopicInfo> {
  const anyRack = [...md.brokers.values()].some((b) => b.rack !== null && b.rack !== '');
  const out = new Map<string, TopicInfo>();
  for (const name of names) {
    const t = md.topics.get(name);
    if (t === undefined || t.error !== undefined || t.partitions.length === 0) continue;
    const info: TopicInfo = { partitions: t.partitions.length };
    if (anyRack) {
      info.partitionRacks = t.partitions.map((p) => p.replicas.map((id) => md.brokers.get(id)?.rack ?? null));
    }
    out.set(name, info);
  }
  return out;
}

/**
 * Java's `validateCooperativeAssignment`: under the cooperative protocol no partition may be taken from one
 * member and given to another in the same rebalance (its owner must revoke it first, and rejoin).
 */
function checkCooperative(name: string, members: readonly AssignorMember[], result: GroupAssignment): void {
  const revoked = new Set<string>();
  const added = new Set<string>();
  for (const m of members) {
    const owned = new Set<string>();
    for (const t of m.ownedPartitions ?? []) for (const p of t.partitions) owned.add(partitionKey(t.topic, p));
    const assigned = new Set<string>();
    for (const t of result.get(m.memberId)?.partitions ?? []) {
      for (const p of t.partitions) assigned.add(partitionKey(t.topic, p));
    }
    for (const k of owned) if (!assigned.has(k)) revoked.add(k);
    for (const k of assigned) if (!owned.has(k)) added.add(k);
  }
  const both = [...added].filter((k) => revoked.has(k));
  if (both.length > 0) {
    const shown = both.slice(0, 5).map((k) => k.replace('\u0000', '-'));
    throw new AssignorError(
      name,
      `violates the cooperative protocol: ${both.length} partitions (${shown.join(', ')}) are revoked from one ` +
        'member and assigned to another in the same rebalance',
    );
  }
}
